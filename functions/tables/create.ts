import { createTable } from '../../shared/domain/tables';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createTable';
import { route } from '../../shared/routes';
import type { LocationPath } from '../../shared/schemas/locations';
import type { CreateTableBody } from '../../shared/schemas/tables';

export const handler = httpHandler<CreateTableBody, unknown, LocationPath>(route('createTable'), validators, (req) =>
  createTable(req.principal, req.path.locationId, req.body),
);
