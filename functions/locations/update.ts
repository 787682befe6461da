import { updateLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateLocation';
import { route } from '../../shared/routes';
import type { LocationPath, UpdateLocationBody } from '../../shared/schemas/locations';

export const handler = httpHandler<UpdateLocationBody, unknown, LocationPath>(route('updateLocation'), validators, (req) =>
  updateLocation(req.principal, req.path.locationId, req.body),
);
