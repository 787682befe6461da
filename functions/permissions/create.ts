import { createPermission } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createPermission';

export const handler = httpHandler(operation, (req) => createPermission(req.principal, req.body));
