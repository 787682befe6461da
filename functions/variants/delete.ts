import { deleteVariant } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteVariant';

export const handler = httpHandler(operation, (req) => deleteVariant(req.principal, req.path.variantId));
