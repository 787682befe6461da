import { deleteItem } from '../../shared/domain/items';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteItem';

export const handler = httpHandler(operation, (req) => deleteItem(req.principal, req.path.id));
