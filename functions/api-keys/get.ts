import { getApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getApiKey';

export const handler = httpHandler(operation, (req) => getApiKey(req.principal, req.path.id));
