import { seatBooking } from '../../shared/domain/bookings/seating';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/seatBooking';

export const handler = httpHandler(operation, (req) => seatBooking(req.principal, req.path.id, req.body));
