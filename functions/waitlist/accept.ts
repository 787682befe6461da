import { acceptWaitlistOffer } from '../../shared/domain/waitlist/operations';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/acceptWaitlistOffer';

export const handler = publicHandler(operation, (req) => acceptWaitlistOffer(req.path.code));
