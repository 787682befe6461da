import { updateCoursing } from '../../shared/domain/coursings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateCoursing';

export const handler = httpHandler(operation, (req) => updateCoursing(req.principal, req.path.id, req.body));
