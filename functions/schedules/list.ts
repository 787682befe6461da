import { listSchedules } from '../../shared/domain/schedules/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listSchedules';

export const handler = httpHandler(operation, (req) =>
  listSchedules(req.principal, req.query, req.headers['x-location-id']),
);
