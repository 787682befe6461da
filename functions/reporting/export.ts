import { exportPurchases } from '../../shared/domain/reporting/operations';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/exportPurchases';

export const handler = httpHandler(operation, (req) => exportPurchases(req.principal, req.query, req.headers));
