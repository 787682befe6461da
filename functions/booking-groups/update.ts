import { updateBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateBookingGroup';

export const handler = httpHandler(operation, (req) =>
  updateBookingGroup(req.principal, req.path.locationId, req.path.id, req.body),
);
