import { listBookingMembers } from '../../shared/domain/bookingMembers';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listBookingMembers';
import { route } from '../../shared/routes';
import type { ListBookingMembersQuery } from '../../shared/schemas/bookingMembers';

export const handler = httpHandler<unknown, ListBookingMembersQuery, { id: string }>(route('listBookingMembers'), validators, (req) =>
  listBookingMembers(req.principal, req.path.id, req.query),
);
