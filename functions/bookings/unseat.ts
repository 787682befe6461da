import { unseatBooking } from '../../shared/domain/bookings/seating';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/unseatBooking';
import { route } from '../../shared/routes';
import type { BookingPath, UnseatBookingBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<UnseatBookingBody, unknown, BookingPath>(route('unseatBooking'), validators, (req) => unseatBooking(req.principal, req.path.id, req.body.reason));
