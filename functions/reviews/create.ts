import { createReview } from '../../shared/domain/tabs/reviews';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createReview';

export const handler = httpHandler(operation, (req) => createReview(req.principal, req.body));
