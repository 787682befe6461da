import { changeBookingByCode } from '../../shared/domain/online/byCode';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/changeBookingByCode';

export const handler = publicHandler(operation, (req) => changeBookingByCode(req.path.code, req.body));
