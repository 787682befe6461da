import * as webhooks from '../schemas/webhooks';
import { row } from './route';

const subscriptions = '/api/v1/webhooks/subscriptions';

export const webhooksRoutes = [
  row({ operationId: 'listWebhookSubscriptions', method: 'GET', path: subscriptions, permission: 'webhooks.read', handler: 'functions/webhooks/list.ts', area: 'webhooks', schemas: { query: webhooks.ListWebhookSubscriptionsQuery } }),
  row({ operationId: 'createWebhookSubscription', method: 'POST', path: subscriptions, permission: 'webhooks.manage', handler: 'functions/webhooks/create.ts', area: 'webhooks', schemas: { body: webhooks.CreateWebhookSubscriptionBody } }),
  row({ operationId: 'getWebhookSubscription', method: 'GET', path: `${subscriptions}/{id}`, permission: 'webhooks.read', handler: 'functions/webhooks/get.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath } }),
  row({ operationId: 'updateWebhookSubscription', method: 'PATCH', path: `${subscriptions}/{id}`, permission: 'webhooks.manage', handler: 'functions/webhooks/update.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, body: webhooks.UpdateWebhookSubscriptionBody } }),
  row({ operationId: 'deleteWebhookSubscription', method: 'DELETE', path: `${subscriptions}/{id}`, permission: 'webhooks.manage', handler: 'functions/webhooks/delete.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath } }),
  row({ operationId: 'rotateWebhookSecret', method: 'POST', path: `${subscriptions}/{id}/rotate-secret`, permission: 'webhooks.manage', handler: 'functions/webhooks/rotate-secret.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath } }),
  row({ operationId: 'testWebhookSubscription', method: 'POST', path: `${subscriptions}/{id}/test`, permission: 'webhooks.manage', handler: 'functions/webhooks/test.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath } }),
  row({ operationId: 'listWebhookDeliveries', method: 'GET', path: `${subscriptions}/{id}/deliveries`, permission: 'webhooks.read', handler: 'functions/webhooks/deliveries.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, query: webhooks.ListWebhookDeliveriesQuery } }),
  row({ operationId: 'retryWebhookDelivery', method: 'POST', path: '/api/v1/webhooks/deliveries/{deliveryId}/retry', permission: 'webhooks.manage', handler: 'functions/webhooks/retry.ts', area: 'webhooks', schemas: { path: webhooks.WebhookDeliveryIdPath } }),
  row({ operationId: 'listEvents', method: 'GET', path: '/api/v1/events', permission: 'events.read', handler: 'functions/events/list.ts', area: 'webhooks', schemas: { query: webhooks.ListEventsQuery } }),
] as const;
