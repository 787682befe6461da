import { retryDelivery } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/retryWebhookDelivery';
import { route } from '../../shared/routes';

export const handler = httpHandler<unknown, unknown, { deliveryId: string }>(route('retryWebhookDelivery'), validators, (req) => retryDelivery(req.principal, req.path.deliveryId));
