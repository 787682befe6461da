import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/putBookingSettings';

export const handler = httpHandler(operation, (req) =>
  putBookingSettings(req.principal, req.path.locationId, req.body),
);
