import { createPermission } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createPermission';
import { route } from '../../shared/routes';
import type { CreatePermissionBody } from '../../shared/schemas/access';

export const handler = httpHandler<CreatePermissionBody>(route('createPermission'), validators, (req) => createPermission(req.principal, req.body));
