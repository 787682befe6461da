import { createApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createApiKey';
import { route } from '../../shared/routes';
import type { CreateApiKeyBody } from '../../shared/schemas/access';

export const handler = httpHandler<CreateApiKeyBody>(route('createApiKey'), validators, (req) => createApiKey(req.principal, req.body));
