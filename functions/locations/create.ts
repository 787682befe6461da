import { createLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createLocation';

export const handler = httpHandler(operation, (req) => createLocation(req.principal, req.body));
