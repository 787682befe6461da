import { splitTabs } from '../../shared/domain/bookings/seating';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/splitBookingTabs';
import { route } from '../../shared/routes';
import type { BookingPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, unknown, BookingPath>(route('splitBookingTabs'), validators, (req) => splitTabs(req.principal, req.path.id));
