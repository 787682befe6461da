import { listLocations } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listLocations';

export const handler = httpHandler(operation, (req) => listLocations(req.principal, req.query));
