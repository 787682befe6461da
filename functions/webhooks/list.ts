import { listSubscriptions } from '../../shared/domain/webhooks';
import { httpHandler } from '../../shared/http/handler';
import { operation } from '../../shared/http/operations/listWebhookSubscriptions';

export const handler = httpHandler(operation, (req) => listSubscriptions(req.principal, req.query));
