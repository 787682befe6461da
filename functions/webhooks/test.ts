import { sendTestEvent } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/testWebhookSubscription';

export const handler = httpHandler(operation, (req) => sendTestEvent(req.principal, req.path.id));
