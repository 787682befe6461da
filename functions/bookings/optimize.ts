import { optimizeBookings } from '../../shared/domain/bookings/optimize';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/optimizeBookings';

export const handler = httpHandler(operation, (req) =>
  optimizeBookings(req.principal, req.path.locationId, req.query.date, req.body),
);
