import { cancelBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/cancelBooking';
import { route } from '../../shared/routes';
import type { BookingPath, CancelBookingBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<CancelBookingBody, unknown, BookingPath>(route('cancelBooking'), validators, (req) => cancelBooking(req.principal, req.path.id, req.body));
