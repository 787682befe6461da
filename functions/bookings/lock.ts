import { lockBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/lockBooking';
import { route } from '../../shared/routes';
import type { BookingPath, LockBookingBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<LockBookingBody, unknown, BookingPath>(route('lockBooking'), validators, (req) => lockBooking(req.principal, req.path.id, req.body.locked));
