import { createVariant } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createVariant';

export const handler = httpHandler(operation, (req) => createVariant(req.principal, req.path.id, req.body));
