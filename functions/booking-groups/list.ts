import { listBookingGroups } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listBookingGroups';
import { route } from '../../shared/routes';
import type { ListBookingGroupsQuery } from '../../shared/schemas/bookingGroups';
import type { LocationPath } from '../../shared/schemas/locations';

export const handler = httpHandler<unknown, ListBookingGroupsQuery, LocationPath>(route('listBookingGroups'), validators, (req) =>
  listBookingGroups(req.principal, req.path.locationId, req.query),
);
