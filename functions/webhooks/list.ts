import { listSubscriptions } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import * as validators from '../../shared/http/validators/listWebhookSubscriptions';
import { route } from '../../shared/routes';
import type { ListWebhookSubscriptionsQuery } from '../../shared/schemas/webhooks';

export const handler = httpHandler<unknown, ListWebhookSubscriptionsQuery>(route('listWebhookSubscriptions'), validators, (req) => listSubscriptions(req.principal, req.query));
