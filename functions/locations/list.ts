import { listLocations } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listLocations';
import { route } from '../../shared/routes';
import type { ListLocationsQuery } from '../../shared/schemas/locations';

export const handler = httpHandler<unknown, ListLocationsQuery>(route('listLocations'), validators, (req) => listLocations(req.principal, req.query));
