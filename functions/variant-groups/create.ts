import { createVariantGroup } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createVariantGroup';

export const handler = httpHandler(operation, (req) => createVariantGroup(req.principal, req.body));
