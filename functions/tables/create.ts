import { createTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createTable';

export const handler = httpHandler(operation, (req) => createTable(req.principal, req.path.locationId, req.body));
