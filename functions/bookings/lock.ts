import { lockBooking } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/lockBooking';

export const handler = httpHandler(operation, (req) => lockBooking(req.principal, req.path.id, req.body.locked));
