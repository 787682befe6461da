import { listApiKeys } from '../../shared/domain/apiKeys';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listApiKeys';
import { route } from '../../shared/routes';
import type { ListApiKeysQuery } from '../../shared/schemas/access';

export const handler = httpHandler<unknown, ListApiKeysQuery>(route('listApiKeys'), validators, (req) => listApiKeys(req.principal, req.query));
