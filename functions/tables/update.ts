import { updateTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateTable';

export const handler = httpHandler(operation, (req) =>
  updateTable(req.principal, req.path.locationId, req.path.id, req.body),
);
