import { revokeApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/revokeApiKey';

export const handler = httpHandler(operation, (req) => revokeApiKey(req.principal, req.path.id));
