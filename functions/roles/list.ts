import { listRoles } from '../../shared/domain/roles';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listRoles';

export const handler = httpHandler(operation, (req) => listRoles(req.principal, req.query));
