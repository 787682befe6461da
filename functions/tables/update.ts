import { updateTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateTable';
import { route } from '../../shared/routes';
import type { TablePath, UpdateTableBody } from '../../shared/schemas/tables';

export const handler = httpHandler<UpdateTableBody, unknown, TablePath>(route('updateTable'), validators, (req) =>
  updateTable(req.principal, req.path.locationId, req.path.id, req.body),
);
