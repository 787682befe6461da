import { listPurchases } from '../../shared/domain/tabs/purchases';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listTabPurchases';

export const handler = httpHandler(operation, (req) => listPurchases(req.principal, req.path.tabId, req.query));
