import { listPermissions } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listPermissions';
import { route } from '../../shared/routes';
import type { ListPermissionsQuery } from '../../shared/schemas/access';

export const handler = httpHandler<unknown, ListPermissionsQuery>(route('listPermissions'), validators, (req) => listPermissions(req.query));
