import { createBooking } from '../../shared/domain/bookings/create';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createBooking';

export const handler = httpHandler(operation, (req) => createBooking(req.principal, req.body));
