import { updateCapacitySetting } from '../../shared/domain/capacity/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateCapacitySetting';

export const handler = httpHandler(operation, (req) =>
  updateCapacitySetting(req.principal, req.path.locationId, req.path.id, req.body),
);
