import { deleteSubscription } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/deleteWebhookSubscription';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: string }>(route('deleteWebhookSubscription'), validators, (req) => deleteSubscription(req.principal, req.path.id));
