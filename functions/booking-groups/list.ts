import { listBookingGroups } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listBookingGroups';

export const handler = httpHandler(operation, (req) =>
  listBookingGroups(req.principal, req.path.locationId, req.query),
);
