import { listCapacitySettings } from '../../shared/domain/capacity/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listCapacitySettings';

export const handler = httpHandler(operation, (req) =>
  listCapacitySettings(req.principal, req.path.locationId, req.query),
);
