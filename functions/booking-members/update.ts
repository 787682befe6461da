import { updateBookingMember } from '../../shared/domain/bookingMembers';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateBookingMember';

export const handler = httpHandler(operation, (req) =>
  updateBookingMember(req.principal, req.path.id, req.path.memberId, req.body),
);
