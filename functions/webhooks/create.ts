import { createSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/createWebhookSubscription';
import { route } from '../../shared/routes';
import type { CreateWebhookSubscriptionBody } from '../../shared/schemas/webhooks';

export const handler = httpHandler<CreateWebhookSubscriptionBody>(route('createWebhookSubscription'), validators, (req) => createSubscription(req.principal, req.body));
