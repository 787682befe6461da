import { revokeApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/revokeApiKey';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: string }>(route('revokeApiKey'), validators, (req) => revokeApiKey(req.principal, req.path.id));
