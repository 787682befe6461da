import { listBookingMembers } from '../../shared/domain/bookingMembers';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listBookingMembers';

export const handler = httpHandler(operation, (req) => listBookingMembers(req.principal, req.path.id, req.query));
