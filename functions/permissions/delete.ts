import { deletePermission } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/deletePermission';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: number }>(route('deletePermission'), validators, (req) => deletePermission(req.principal, req.path.id));
