import { deleteTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteTable';

export const handler = httpHandler(operation, (req) => deleteTable(req.principal, req.path.locationId, req.path.id));
