import { getPreOrder } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getPreOrder';

export const handler = httpHandler(operation, (req) => getPreOrder(req.principal, req.path.id));
