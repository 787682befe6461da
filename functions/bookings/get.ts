import { getBooking } from '../../shared/domain/bookings/read';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getBooking';

export const handler = httpHandler(operation, (req) => getBooking(req.principal, req.path.id));
