import { getLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getLocation';
import { route } from '../../shared/routes';
import type { LocationPath } from '../../shared/schemas/locations';

export const handler = httpHandler<unknown, unknown, LocationPath>(route('getLocation'), validators, (req) => getLocation(req.principal, req.path.locationId));
