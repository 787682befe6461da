import { createApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createApiKey';

export const handler = httpHandler(operation, (req) => createApiKey(req.principal, req.body));
