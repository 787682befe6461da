import { retryDelivery } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/retryWebhookDelivery';

export const handler = httpHandler(operation, (req) => retryDelivery(req.principal, req.path.deliveryId));
