import { listMembersByCode } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listBookingMembersByCode';
import { route } from '../../shared/routes';

export const handler = publicHandler<unknown, unknown, { code: string }>(route('listBookingMembersByCode'), validators, (req) => listMembersByCode(req.path.code));
