import { seatBooking } from '../../shared/domain/bookings/seating';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/seatBooking';
import { route } from '../../shared/routes';
import type { BookingPath, SeatBookingBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<SeatBookingBody, unknown, BookingPath>(route('seatBooking'), validators, (req) => seatBooking(req.principal, req.path.id, req.body));
