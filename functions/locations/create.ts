import { createLocation } from '../../shared/domain/locations';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createLocation';
import { route } from '../../shared/routes';
import type { CreateLocationBody } from '../../shared/schemas/locations';

export const handler = httpHandler<CreateLocationBody>(route('createLocation'), validators, (req) => createLocation(req.principal, req.body));
