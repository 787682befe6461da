import { createBookingGroup } from '../../shared/domain/bookingGroups';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createBookingGroup';
import { route } from '../../shared/routes';
import type { CreateBookingGroupBody } from '../../shared/schemas/bookingGroups';
import type { LocationPath } from '../../shared/schemas/locations';

export const handler = httpHandler<CreateBookingGroupBody, unknown, LocationPath>(route('createBookingGroup'), validators, (req) =>
  createBookingGroup(req.principal, req.path.locationId, req.body),
);
