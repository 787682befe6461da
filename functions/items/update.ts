import { updateItem } from '../../shared/domain/items';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateItem';

export const handler = httpHandler(operation, (req) => updateItem(req.principal, req.path.id, req.body));
