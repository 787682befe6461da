import { listMembersByCode } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/listBookingMembersByCode';

export const handler = publicHandler(operation, (req) => listMembersByCode(req.path.code));
