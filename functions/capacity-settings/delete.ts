import { deleteCapacitySetting } from '../../shared/domain/capacity/settings';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteCapacitySetting';

export const handler = httpHandler(operation, (req) =>
  deleteCapacitySetting(req.principal, req.path.locationId, req.path.id),
);
