import { createBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createBookingGroup';

export const handler = httpHandler(operation, (req) =>
  createBookingGroup(req.principal, req.path.locationId, req.body),
);
