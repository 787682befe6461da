import { deleteLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/deleteLocation';
import { route } from '../../shared/routes';
import type { LocationPath } from '../../shared/schemas/locations';

export const handler = httpHandler<unknown, unknown, LocationPath>(route('deleteLocation'), validators, (req) => deleteLocation(req.principal, req.path.locationId));
