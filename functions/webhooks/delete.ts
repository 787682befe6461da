import { deleteSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/deleteWebhookSubscription';

export const handler = httpHandler(operation, (req) => deleteSubscription(req.principal, req.path.id));
