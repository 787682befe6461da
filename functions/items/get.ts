import { visibleItem } from '../../shared/domain/items';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getItem';

export const handler = httpHandler(operation, (req) => visibleItem(req.principal, req.path.id));
