import { deleteExtendedWaitingTime } from '../../shared/domain/capacity/waitingTime';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteExtendedWaitingTime';

export const handler = httpHandler(operation, (req) => deleteExtendedWaitingTime(req.principal, req.query));
