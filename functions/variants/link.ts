import { linkVariant } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/linkVariant';

export const handler = httpHandler(operation, (req) => linkVariant(req.principal, req.path.variantId, req.body));
