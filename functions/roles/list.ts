import { listRoles } from '../../shared/domain/roles';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listRoles';
import { route } from '../../shared/routes';
import type { ListRolesQuery } from '../../shared/schemas/access';

export const handler = httpHandler<unknown, ListRolesQuery>(route('listRoles'), validators, (req) => listRoles(req.principal, req.query));
