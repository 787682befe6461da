import { unlinkVariant } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/unlinkVariant';

export const handler = httpHandler(operation, (req) => unlinkVariant(req.principal, req.path.variantId));
