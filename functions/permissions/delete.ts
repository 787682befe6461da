import { deletePermission } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deletePermission';

export const handler = httpHandler(operation, (req) => deletePermission(req.principal, req.path.id));
