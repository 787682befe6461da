import { deleteTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/deleteTable';
import { route } from '../../shared/routes';
import type { TablePath } from '../../shared/schemas/tables';

export const handler = httpHandler<unknown, unknown, TablePath>(route('deleteTable'), validators, (req) => deleteTable(req.principal, req.path.locationId, req.path.id));
