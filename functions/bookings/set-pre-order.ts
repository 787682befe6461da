import { setPreOrder } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/setPreOrder';

export const handler = httpHandler(operation, (req) => setPreOrder(req.principal, req.path.id, req.body));
