import { getSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/getWebhookSubscription';

export const handler = httpHandler(operation, (req) => getSubscription(req.principal, req.path.id));
