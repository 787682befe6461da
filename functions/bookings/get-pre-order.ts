import { getPreOrder } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getPreOrder';
import { route } from '../../shared/routes';
import type { BookingPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, unknown, BookingPath>(route('getPreOrder'), validators, (req) => getPreOrder(req.principal, req.path.id));
