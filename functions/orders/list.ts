import { listOrders } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listTabOrders';

export const handler = httpHandler(operation, (req) => listOrders(req.principal, req.path.tabId, req.query));
