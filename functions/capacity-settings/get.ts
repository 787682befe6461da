import { getCapacitySetting } from '../../shared/domain/capacity/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getCapacitySetting';

export const handler = httpHandler(operation, (req) =>
  getCapacitySetting(req.principal, req.path.locationId, req.path.id),
);
