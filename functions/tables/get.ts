import { getTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getTable';

export const handler = httpHandler(operation, (req) => getTable(req.principal, req.path.locationId, req.path.id));
