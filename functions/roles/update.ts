import { updateRole } from '../../shared/domain/roles';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateRole';

export const handler = httpHandler(operation, (req) => updateRole(req.principal, req.path.id, req.body));
