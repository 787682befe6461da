import { rotateSubscriptionSecret } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/rotateWebhookSecret';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { id: string }>(route('rotateWebhookSecret'), validators, (req) => rotateSubscriptionSecret(req.principal, req.path.id));
