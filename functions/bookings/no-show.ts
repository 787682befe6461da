import { markNoShow } from '../../shared/domain/bookings/transitions';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/markBookingNoShow';

export const handler = httpHandler(operation, (req) => markNoShow(req.principal, req.path.id));
