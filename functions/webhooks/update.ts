import { updateSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/updateWebhookSubscription';

export const handler = httpHandler(operation, (req) => updateSubscription(req.principal, req.path.id, req.body));
