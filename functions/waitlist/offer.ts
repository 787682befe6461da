import { offerWaitlistSpot } from '../../shared/domain/waitlist/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/offerWaitlistSpot';

export const handler = httpHandler(operation, (req) => offerWaitlistSpot(req.principal, req.path.id, req.body));
