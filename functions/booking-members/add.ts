import { addBookingMember } from '../../shared/domain/bookingMembers';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/addBookingMember';

export const handler = httpHandler(operation, (req) => addBookingMember(req.principal, req.path.id, req.body));
