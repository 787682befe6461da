import { updateVariant } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateVariant';

export const handler = httpHandler(operation, (req) => updateVariant(req.principal, req.path.variantId, req.body));
