import { addBookingMember } from '../../shared/domain/bookingMembers';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/addBookingMember';
import { route } from '../../shared/routes';
import type { AddBookingMemberBody } from '../../shared/schemas/bookingMembers';

export const handler = httpHandler<AddBookingMemberBody, unknown, { id: string }>(route('addBookingMember'), validators, (req) =>
  addBookingMember(req.principal, req.path.id, req.body),
);
