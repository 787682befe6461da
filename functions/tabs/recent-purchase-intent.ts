import { recentPurchase } from '../../shared/domain/tabs/purchases';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getRecentPurchaseIntent';

export const handler = httpHandler(operation, (req) => recentPurchase(req.principal, req.path.tabId));
