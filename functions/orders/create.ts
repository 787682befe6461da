import { placeOrder } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createTabOrder';

export const handler = httpHandler(operation, (req) => placeOrder(req.principal, req.path.tabId, req.body));
