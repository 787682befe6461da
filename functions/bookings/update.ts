import { updateBooking } from '../../shared/domain/bookings/update';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateBooking';

export const handler = httpHandler(operation, (req) => updateBooking(req.principal, req.path.id, req.body));
