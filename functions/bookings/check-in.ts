import { checkInBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/checkInBooking';

export const handler = httpHandler(operation, (req) => checkInBooking(req.principal, req.path.id));
