import { listApiKeys } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listApiKeys';

export const handler = httpHandler(operation, (req) => listApiKeys(req.principal, req.query));
