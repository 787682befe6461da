import { unseatBooking } from '../../shared/domain/bookings/seating';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/unseatBooking';

export const handler = httpHandler(operation, (req) => unseatBooking(req.principal, req.path.id, req.body.reason));
