import { getReview } from '../../shared/domain/tabs/reviews';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getReview';

export const handler = httpHandler(operation, (req) => getReview(req.principal, req.path.purchaseIntentId));
