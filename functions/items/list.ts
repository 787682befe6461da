import { listItems } from '../../shared/domain/items';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listItems';

export const handler = httpHandler(operation, (req) =>
  listItems(req.principal, req.query, req.headers['x-location-id']),
);
