import { Type } from '@sinclair/typebox';
import * as webhooks from '../schemas/webhooks';
import { row } from './route';

const subscriptions = '/api/v1/webhooks/subscriptions';

export const webhooksRoutes = [
  row({ operationId: 'listWebhookSubscriptions', method: 'GET', path: subscriptions, permission: 'webhooks.read', handler: 'functions/webhooks/list.ts', area: 'webhooks', schemas: { query: webhooks.ListWebhookSubscriptionsQuery, response: Type.Array(webhooks.WebhookSubscriptionView) } }),
  row({ operationId: 'createWebhookSubscription', method: 'POST', path: subscriptions, permission: 'webhooks.manage', handler: 'functions/webhooks/create.ts', area: 'webhooks', schemas: { body: webhooks.CreateWebhookSubscriptionBody, response: webhooks.WebhookSubscriptionWithSecretView } }),
  row({ operationId: 'getWebhookSubscription', method: 'GET', path: `${subscriptions}/{id}`, permission: 'webhooks.read', handler: 'functions/webhooks/get.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, response: webhooks.WebhookSubscriptionView } }),
  row({ operationId: 'updateWebhookSubscription', method: 'PATCH', path: `${subscriptions}/{id}`, permission: 'webhooks.manage', handler: 'functions/webhooks/update.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, body: webhooks.UpdateWebhookSubscriptionBody, response: webhooks.WebhookSubscriptionView } }),
  row({ operationId: 'deleteWebhookSubscription', method: 'DELETE', path: `${subscriptions}/{id}`, permission: 'webhooks.manage', handler: 'functions/webhooks/delete.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, response: webhooks.DeletedWebhookSubscriptionView } }),
  row({ operationId: 'rotateWebhookSecret', method: 'POST', path: `${subscriptions}/{id}/rotate-secret`, permission: 'webhooks.manage', handler: 'functions/webhooks/rotate-secret.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, response: webhooks.WebhookSubscriptionWithSecretView } }),
  row({ operationId: 'testWebhookSubscription', summary: 'Send a test event to a subscription', method: 'POST', path: `${subscriptions}/{id}/test`, permission: 'webhooks.manage', handler: 'functions/webhooks/test.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, response: webhooks.WebhookDeliveryView } }),
  row({ operationId: 'listWebhookDeliveries', summary: "List a subscription's delivery attempts", method: 'GET', path: `${subscriptions}/{id}/deliveries`, permission: 'webhooks.read', handler: 'functions/webhooks/deliveries.ts', area: 'webhooks', schemas: { path: webhooks.WebhookSubscriptionIdPath, query: webhooks.ListWebhookDeliveriesQuery, response: Type.Array(webhooks.DeliveryAttemptView) } }),
  row({ operationId: 'retryWebhookDelivery', summary: 'Retry a failed, dead or cancelled delivery', method: 'POST', path: '/api/v1/webhooks/deliveries/{deliveryId}/retry', permission: 'webhooks.manage', handler: 'functions/webhooks/retry.ts', area: 'webhooks', schemas: { path: webhooks.WebhookDeliveryIdPath, response: webhooks.WebhookDeliveryView } }),
  row({ operationId: 'listEvents', summary: 'List the event log (30 days)', method: 'GET', path: '/api/v1/events', permission: 'events.read', handler: 'functions/events/list.ts', area: 'webhooks', schemas: { query: webhooks.ListEventsQuery, response: Type.Array(webhooks.LoggedEventView) } }),
] as const;
