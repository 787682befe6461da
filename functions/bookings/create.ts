import { createBooking } from '../../shared/domain/bookings/create';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createBooking';
import { route } from '../../shared/routes';
import type { CreateBookingBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<CreateBookingBody>(route('createBooking'), validators, (req) => createBooking(req.principal, req.body));
