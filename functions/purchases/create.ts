import { createPurchase } from '../../shared/domain/tabs/purchases';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createTabPurchase';

export const handler = httpHandler(operation, (req) => createPurchase(req.principal, req.path.tabId, req.body));
