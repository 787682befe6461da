import { onlineAvailability } from '../../shared/domain/online/guest';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getOnlineAvailability';

export const handler = httpHandler(operation, (req) =>
  onlineAvailability(req.principal, req.path.locationId, req.query),
);
