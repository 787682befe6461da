import { updateApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateApiKey';

export const handler = httpHandler(operation, (req) => updateApiKey(req.principal, req.path.id, req.body));
