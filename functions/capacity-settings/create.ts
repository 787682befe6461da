import { createCapacitySetting } from '../../shared/domain/capacity/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createCapacitySetting';

export const handler = httpHandler(operation, (req) =>
  createCapacitySetting(req.principal, req.path.locationId, req.body),
);
