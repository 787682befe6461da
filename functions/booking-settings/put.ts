import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/putBookingSettings';
import { route } from '../../shared/routes';
import type { PutBookingSettingsBody } from '../../shared/schemas/bookings';
import type { LocationPath } from '../../shared/schemas/locations';

export const handler = httpHandler<PutBookingSettingsBody, unknown, LocationPath>(route('putBookingSettings'), validators, (req) =>
  putBookingSettings(req.principal, req.path.locationId, req.body),
);
