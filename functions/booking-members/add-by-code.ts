import { addMemberByCode } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/addBookingMemberByCode';
import { route } from '../../shared/routes';
import type { AddMemberByCodeBody } from '../../shared/schemas/bookingMembers';

export const handler = publicHandler<AddMemberByCodeBody, unknown, { code: string }>(route('addBookingMemberByCode'), validators, (req) =>
  addMemberByCode(req.path.code, req.body),
);
