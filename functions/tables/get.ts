import { getTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getTable';
import { route } from '../../shared/routes';
import type { TablePath } from '../../shared/schemas/tables';

export const handler = httpHandler<unknown, unknown, TablePath>(route('getTable'), validators, (req) => getTable(req.principal, req.path.locationId, req.path.id));
