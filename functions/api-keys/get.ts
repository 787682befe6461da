import { getApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getApiKey';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: string }>(route('getApiKey'), validators, (req) => getApiKey(req.principal, req.path.id));
