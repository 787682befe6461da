import { getSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/getWebhookSubscription';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: string }>(route('getWebhookSubscription'), validators, (req) => getSubscription(req.principal, req.path.id));
