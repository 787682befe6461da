import { updateBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateBookingGroup';
import { route } from '../../shared/routes';
import type { BookingGroupPath, UpdateBookingGroupBody } from '../../shared/schemas/bookingGroups';

export const handler = httpHandler<UpdateBookingGroupBody, unknown, BookingGroupPath>(route('updateBookingGroup'), validators, (req) =>
  updateBookingGroup(req.principal, req.path.locationId, req.path.id, req.body),
);
