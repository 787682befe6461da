import { setPreOrder } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/setPreOrder';
import { route } from '../../shared/routes';
import type { BookingPath, OrderBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<OrderBody, unknown, BookingPath>(route('setPreOrder'), validators, (req) => setPreOrder(req.principal, req.path.id, req.body));
