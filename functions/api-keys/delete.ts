import { revokeApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteApiKey';

/** Deleting a key revokes it: the record stays, as the audit trail of what the key could do. */
export const handler = httpHandler(operation, (req) => revokeApiKey(req.principal, req.path.id));
