import { addMemberByCode } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/addBookingMemberByCode';

export const handler = publicHandler(operation, (req) => addMemberByCode(req.path.code, req.body));
