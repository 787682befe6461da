import { listDeliveryAttempts } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listWebhookDeliveries';

export const handler = httpHandler(operation, (req) => listDeliveryAttempts(req.principal, req.path.id, req.query));
