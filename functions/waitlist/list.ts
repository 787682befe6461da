import { listWaitlist } from '../../shared/domain/waitlist/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listWaitlist';

export const handler = httpHandler(operation, (req) =>
  listWaitlist(req.principal, req.query, req.headers['x-location-id']),
);
