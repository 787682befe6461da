import { joinWaitlist } from '../../shared/domain/waitlist/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/joinWaitlist';

export const handler = httpHandler(operation, (req) => joinWaitlist(req.principal, req.body));
