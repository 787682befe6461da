import { createCoursing } from '../../shared/domain/coursings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createCoursing';

export const handler = httpHandler(operation, (req) => createCoursing(req.principal, req.body));
