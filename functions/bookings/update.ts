import { updateBooking } from '../../shared/domain/bookings/update';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateBooking';
import { route } from '../../shared/routes';
import type { BookingPath, UpdateBookingBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<UpdateBookingBody, unknown, BookingPath>(route('updateBooking'), validators, (req) => updateBooking(req.principal, req.path.id, req.body));
