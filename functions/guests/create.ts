import { createGuest } from '../../shared/domain/guests';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createGuest';
import { route } from '../../shared/routes';
import type { CreateGuestBody } from '../../shared/schemas/guests';

export const handler = httpHandler<CreateGuestBody>(route('createGuest'), validators, (req) => createGuest(req.principal, req.body));
