import { getBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getBookingGroup';

export const handler = httpHandler(operation, (req) =>
  getBookingGroup(req.principal, req.path.locationId, req.path.id),
);
