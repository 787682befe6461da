import { getLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getLocation';

export const handler = httpHandler(operation, (req) => getLocation(req.principal, req.path.locationId));
