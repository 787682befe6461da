import { getWaitlistEntry } from '../../shared/domain/waitlist/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getWaitlistEntry';

export const handler = httpHandler(operation, (req) => getWaitlistEntry(req.principal, req.path.id));
