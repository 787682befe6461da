import { getVariantGroup } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getVariantGroup';

export const handler = httpHandler(operation, (req) => getVariantGroup(req.principal, req.path.id));
