import { createRole } from '../../shared/domain/roles';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createRole';
import { route } from '../../shared/routes';
import type { CreateRoleBody } from '../../shared/schemas/access';

export const handler = httpHandler<CreateRoleBody>(route('createRole'), validators, (req) => createRole(req.principal, req.body));
