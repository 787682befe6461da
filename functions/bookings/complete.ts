import { completeBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/completeBooking';

export const handler = httpHandler(operation, (req) => completeBooking(req.principal, req.path.id));
