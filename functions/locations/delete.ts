import { deleteLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteLocation';

export const handler = httpHandler(operation, (req) => deleteLocation(req.principal, req.path.locationId));
