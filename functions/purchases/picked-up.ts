import { markPickedUp } from '../../shared/domain/tabs/purchases';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/markPurchasePickedUp';

export const handler = httpHandler(operation, (req) => markPickedUp(req.principal, req.path.purchaseIntentId));
