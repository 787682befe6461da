import { createItem } from '../../shared/domain/items';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createItem';

export const handler = httpHandler(operation, (req) => createItem(req.principal, req.body));
