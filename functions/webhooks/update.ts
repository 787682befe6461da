import { updateSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/updateWebhookSubscription';
import { route } from '../../shared/routes';
import type { UpdateWebhookSubscriptionBody } from '../../shared/schemas/webhooks';

export const handler = httpHandler<UpdateWebhookSubscriptionBody, unknown, { id: string }>(route('updateWebhookSubscription'), validators, (req) =>
  updateSubscription(req.principal, req.path.id, req.body),
);
