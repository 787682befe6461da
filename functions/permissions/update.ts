import { updatePermission } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updatePermission';

export const handler = httpHandler(operation, (req) => updatePermission(req.principal, req.path.id, req.body));
