import { createRole } from '../../shared/domain/roles';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createRole';

export const handler = httpHandler(operation, (req) => createRole(req.principal, req.body));
