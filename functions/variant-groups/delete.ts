import { deleteVariantGroup } from '../../shared/domain/variantGroups';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteVariantGroup';

export const handler = httpHandler(operation, (req) => deleteVariantGroup(req.principal, req.path.id));
