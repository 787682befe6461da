import { createSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/createWebhookSubscription';

export const handler = httpHandler(operation, (req) => createSubscription(req.principal, req.body));
