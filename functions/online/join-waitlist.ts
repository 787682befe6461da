import { joinOnlineWaitlist } from '../../shared/domain/online/guest';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/joinOnlineWaitlist';

export const handler = httpHandler(operation, (req) => joinOnlineWaitlist(req.principal, req.body));
