import { getBookingSettings } from '../../shared/domain/bookings/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getBookingSettings';

export const handler = httpHandler(operation, (req) => getBookingSettings(req.principal, req.path.locationId));
