import { listPermissions } from '../../shared/domain/permissions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listPermissions';

export const handler = httpHandler(operation, (req) => listPermissions(req.query));
