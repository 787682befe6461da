import { updateDispatch } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateOrderDispatch';

export const handler = httpHandler(operation, (req) =>
  updateDispatch(req.principal, req.path.orderId, req.path.dispatchId, req.body),
);
