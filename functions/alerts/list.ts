import { listAlerts } from '../../shared/domain/alerts';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listAlerts';

export const handler = httpHandler(operation, (req) =>
  listAlerts(req.principal, req.query, req.headers['x-location-id']),
);
