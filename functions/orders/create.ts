import { placeOrder } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createTabOrder';
import { route } from '../../shared/routes';
import type { OrderBody, TabPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<OrderBody, unknown, TabPath>(route('createTabOrder'), validators, (req) => placeOrder(req.principal, req.path.tabId, req.body));
