import { getBookingSettings } from '../../shared/domain/bookings/settings';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getBookingSettings';
import { route } from '../../shared/routes';
import type { LocationPath } from '../../shared/schemas/locations';

export const handler = httpHandler<unknown, unknown, LocationPath>(route('getBookingSettings'), validators, (req) => getBookingSettings(req.principal, req.path.locationId));
