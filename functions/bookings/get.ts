import { getBooking } from '../../shared/domain/bookings/read';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getBooking';
import { route } from '../../shared/routes';
import type { BookingPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, unknown, BookingPath>(route('getBooking'), validators, (req) => getBooking(req.principal, req.path.id));
