import { getWaitlistByCode } from '../../shared/domain/waitlist/operations';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/getWaitlistByCode';

export const handler = publicHandler(operation, (req) => getWaitlistByCode(req.path.code));
