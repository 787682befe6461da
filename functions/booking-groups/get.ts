import { getBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getBookingGroup';
import { route } from '../../shared/routes';
import type { BookingGroupPath } from '../../shared/schemas/bookingGroups';

export const handler = httpHandler<unknown, unknown, BookingGroupPath>(route('getBookingGroup'), validators, (req) =>
  getBookingGroup(req.principal, req.path.locationId, req.path.id),
);
