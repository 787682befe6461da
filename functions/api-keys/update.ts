import { updateApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateApiKey';
import { route } from '../../shared/routes';
import type { UpdateApiKeyBody } from '../../shared/schemas/access';

export const handler = httpHandler<UpdateApiKeyBody, unknown, { id: string }>(route('updateApiKey'), validators, (req) => updateApiKey(req.principal, req.path.id, req.body));
