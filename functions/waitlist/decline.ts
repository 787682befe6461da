import { declineWaitlistOffer } from '../../shared/domain/waitlist/operations';
import { publicHandler } from '../../shared/http/publicHandler';
import { operation } from '../../shared/http/operations/declineWaitlistOffer';

export const handler = publicHandler(operation, (req) => declineWaitlistOffer(req.path.code));
