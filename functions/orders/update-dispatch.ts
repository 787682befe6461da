import { updateDispatch } from '../../shared/domain/bookings/orders';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateOrderDispatch';
import { route } from '../../shared/routes';
import type { DispatchPath, UpdateDispatchBody } from '../../shared/schemas/bookings';

export const handler = httpHandler<UpdateDispatchBody, unknown, DispatchPath>(route('updateOrderDispatch'), validators, (req) =>
  updateDispatch(req.principal, req.path.orderId, req.path.dispatchId, req.body),
);
