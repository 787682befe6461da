import { listTables } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listTables';
import { route } from '../../shared/routes';
import type { LocationPath } from '../../shared/schemas/locations';
import type { ListTablesQuery } from '../../shared/schemas/tables';

export const handler = httpHandler<unknown, ListTablesQuery, LocationPath>(route('listTables'), validators, (req) =>
  listTables(req.principal, req.path.locationId, req.query),
);
