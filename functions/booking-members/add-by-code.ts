import { addMemberByCode } from '../../shared/domain/bookingMembers';
import { publicHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/addBookingMemberByCode';

export const handler = publicHandler(operation, (req) => addMemberByCode(req.path.code, req.body));
