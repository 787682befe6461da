import { getBookingByCode } from '../../shared/domain/online/byCode';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getBookingByCode';

export const handler = publicHandler(operation, (req) => getBookingByCode(req.path.code));
