import { getAvailability } from '../../shared/domain/bookings/floor';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getAvailability';

export const handler = httpHandler(operation, (req) => getAvailability(req.principal, req.path.locationId, req.query));
