import { confirmBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/confirmBooking';

export const handler = httpHandler(operation, (req) => confirmBooking(req.principal, req.path.id));
