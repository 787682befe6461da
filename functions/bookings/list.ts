import { listBookings } from '../../shared/domain/bookings/read';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listBookings';

export const handler = httpHandler(operation, (req) =>
  listBookings(req.principal, req.query, req.headers['x-location-id']),
);
