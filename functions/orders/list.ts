import { listOrders } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listTabOrders';
import { route } from '../../shared/routes';
import type { ListOrdersQuery, TabPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, ListOrdersQuery, TabPath>(route('listTabOrders'), validators, (req) => listOrders(req.principal, req.path.tabId, req.query));
