import { updateVariantGroup } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateVariantGroup';

export const handler = httpHandler(operation, (req) => updateVariantGroup(req.principal, req.path.id, req.body));
