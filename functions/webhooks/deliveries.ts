import { listDeliveryAttempts } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listWebhookDeliveries';
import { route } from '../../shared/routes';
import type { ListWebhookDeliveriesQuery } from '../../shared/schemas/webhooks';

export const handler = httpHandler<unknown, ListWebhookDeliveriesQuery, { id: string }>(route('listWebhookDeliveries'), validators, (req) =>
  listDeliveryAttempts(req.principal, req.path.id, req.query),
);
