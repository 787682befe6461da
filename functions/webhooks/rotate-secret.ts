import { rotateSubscriptionSecret } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/rotateWebhookSecret';

export const handler = httpHandler(operation, (req) => rotateSubscriptionSecret(req.principal, req.path.id));
