import { bookingsByTable } from '../../shared/domain/bookings/read';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listBookingsByTable';

export const handler = httpHandler(operation, (req) =>
  bookingsByTable(req.principal, req.path.locationId, req.query.date),
);
