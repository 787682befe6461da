import { listTerminals } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listTerminals';

export const handler = httpHandler(operation, (req) =>
  listTerminals(req.principal, req.query, req.headers['x-location-id']),
);
