import { updateCoursing } from '../../shared/domain/coursings';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateCoursing';
import { route } from '../../shared/routes';
import type { UpdateCoursingBody } from '../../shared/schemas/coursings';

export const handler = httpHandler<UpdateCoursingBody, unknown, { id: string }>(route('updateCoursing'), validators, (req) =>
  updateCoursing(req.principal, req.path.id, req.body),
);
