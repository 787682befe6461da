import { bookingsByTable } from '../../shared/domain/bookings/read';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listBookingsByTable';
import { route } from '../../shared/routes';
import type { BookingsByTableQuery, LocationPath } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, BookingsByTableQuery, LocationPath>(route('listBookingsByTable'), validators, (req) =>
  bookingsByTable(req.principal, req.path.locationId, req.query.date),
);
