import { splitTabs } from '../../shared/domain/bookings/seating';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/splitBookingTabs';

export const handler = httpHandler(operation, (req) => splitTabs(req.principal, req.path.id));
