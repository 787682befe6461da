import { getExtendedWaitingTime } from '../../shared/domain/capacity/waitingTime';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getExtendedWaitingTime';

export const handler = httpHandler(operation, (req) =>
  getExtendedWaitingTime(req.principal, req.query, req.headers['x-location-id']),
);
