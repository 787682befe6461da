import { listBookings } from '../../shared/domain/bookings/read';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listBookings';
import { route } from '../../shared/routes';
import type { ListBookingsQuery } from '../../shared/schemas/bookings';

export const handler = httpHandler<unknown, ListBookingsQuery>(route('listBookings'), validators, (req) => listBookings(req.principal, req.query, req.headers['x-location-id']));
