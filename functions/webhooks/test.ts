import { sendTestEvent } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/testWebhookSubscription';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: string }>(route('testWebhookSubscription'), validators, (req) => sendTestEvent(req.principal, req.path.id));
