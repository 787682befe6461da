import { listPrinterGroups } from '../../shared/domain/printing/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listPrinterGroups';

export const handler = httpHandler(operation, (req) =>
  listPrinterGroups(req.principal, req.query, req.headers['x-location-id']),
);
