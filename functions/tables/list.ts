import { listTables } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listTables';

export const handler = httpHandler(operation, (req) => listTables(req.principal, req.path.locationId, req.query));
