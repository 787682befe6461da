import { updateLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateLocation';

export const handler = httpHandler(operation, (req) => updateLocation(req.principal, req.path.locationId, req.body));
