import { updateBookingMember } from '../../shared/domain/bookingMembers';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateBookingMember';
import { route } from '../../shared/routes';
import type { UpdateBookingMemberBody } from '../../shared/schemas/bookingMembers';

export const handler = httpHandler<UpdateBookingMemberBody, unknown, { id: string; memberId: string }>(route('updateBookingMember'), validators, (req) =>
  updateBookingMember(req.principal, req.path.id, req.path.memberId, req.body),
);
