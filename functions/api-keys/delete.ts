import { revokeApiKey } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/deleteApiKey';
import { route } from '../../shared/routes';

/** Deleting a key revokes it: the record stays, as the audit trail of what the key could do. */
export const handler = httpHandler<unknown, unknown, { id: string }>(route('deleteApiKey'), validators, (req) => revokeApiKey(req.principal, req.path.id));
