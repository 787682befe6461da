import { updatePermission } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updatePermission';
import { route } from '../../shared/routes';
import type { UpdatePermissionBody } from '../../shared/schemas/access';

export const handler = httpHandler<UpdatePermissionBody, unknown, { id: number }>(route('updatePermission'), validators, (req) =>
  updatePermission(req.principal, req.path.id, req.body),
);
