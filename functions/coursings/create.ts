import { createCoursing } from '../../shared/domain/coursings';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createCoursing';
import { route } from '../../shared/routes';
import type { CreateCoursingBody } from '../../shared/schemas/coursings';

export const handler = httpHandler<CreateCoursingBody>(route('createCoursing'), validators, (req) => createCoursing(req.principal, req.body));
