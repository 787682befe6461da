import { deleteBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/deleteBookingGroup';
import { route } from '../../shared/routes';
import type { BookingGroupPath } from '../../shared/schemas/bookingGroups';

export const handler = httpHandler<unknown, unknown, BookingGroupPath>(route('deleteBookingGroup'), validators, (req) =>
  deleteBookingGroup(req.principal, req.path.locationId, req.path.id),
);
