import { completeBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/completeBooking';
import { route } from '../../shared/routes';
import type { BookingPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, unknown, BookingPath>(route('completeBooking'), validators, (req) => completeBooking(req.principal, req.path.id));
