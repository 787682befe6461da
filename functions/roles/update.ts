import { updateRole } from '../../shared/domain/roles';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateRole';
import { route } from '../../shared/routes';
import type { UpdateRoleBody } from '../../shared/schemas/access';

export const handler = httpHandler<UpdateRoleBody, unknown, { id: number }>(route('updateRole'), validators, (req) => updateRole(req.principal, req.path.id, req.body));
