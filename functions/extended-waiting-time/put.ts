import { putExtendedWaitingTime } from '../../shared/domain/capacity/waitingTime';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/putExtendedWaitingTime';

export const handler = httpHandler(operation, (req) => putExtendedWaitingTime(req.principal, req.body));
