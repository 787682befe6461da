import { cancelBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/cancelBooking';

export const handler = httpHandler(operation, (req) => cancelBooking(req.principal, req.path.id, req.body));
