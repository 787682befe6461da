import { deleteBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteBookingGroup';

export const handler = httpHandler(operation, (req) =>
  deleteBookingGroup(req.principal, req.path.locationId, req.path.id),
);
