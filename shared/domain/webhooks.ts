/**
 * Webhook subscriptions (docs/webhooks.md): where a company's events are sent, signed with a secret
 * that is shown only when it is made (creation, rotation). Deliveries are made by the pipeline
 * (shared/webhooks/); here a test event or a manual retry is only queued.
 */
import { randomUUID } from 'node:crypto';
import { isPlatformOnly } from '../auth/catalog';
import type { Principal } from '../auth/principal';
import { config } from '../config';
import { attempts, type DeliveryAttempt } from '../data/webhookAttempts';
import { deliveries, type StoredDelivery, type WebhookDelivery } from '../data/webhookDeliveries';
import { subscriptions, type WebhookSubscription } from '../data/webhookSubscriptions';
import { AppError, conflict, notFound, validationFailed } from '../errors';
import { newEvent, type EventName } from '../events/catalog';
import type { Page } from '../page';
import type {
  CreateWebhookSubscriptionBody,
  ListWebhookDeliveriesQuery,
  ListWebhookSubscriptionsQuery,
  UpdateWebhookSubscriptionBody,
} from '../schemas/webhooks';
import { newDelivery } from '../webhooks/payload';
import { newSecret } from '../webhooks/signing';
import { urlRefusal } from '../webhooks/urlPolicy';
import { changedFields } from './changes';
import {
  assertCompanyWide,
  canReadEvent,
  isEventName,
  loggedEventNames,
  readPermissionOf,
  readableEvents,
} from './events';

/** After a rotation the replaced secret keeps signing this long, so receivers can switch over. */
const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

export type WithSecret<T> = T & { secret: string };

async function assertUrlAllowed(url: string): Promise<void> {
  const refusal = await urlRefusal(url, config().stage);
  if (refusal) throw validationFailed('The webhook URL is refused', [{ path: '/url', message: refusal }]);
}

/**
 * Whether the credential may subscribe to the event: it can read its resource and, for an event
 * whose read permission only the platform grants (`company.created`: `companies.read`), holds it
 * as an internal operator or through the admin role; a key or role listing the platform's
 * permissions by itself (refused since, docs/access.md) subscribes to none of the platform's events.
 */
const canSubscribe = (principal: Principal, name: EventName): boolean =>
  canReadEvent(principal, name) &&
  (!isPlatformOnly(readPermissionOf(name)) || principal.internalOperator || principal.allPermissions === true);

/**
 * The events a subscription of this credential selects, as stored: each name it gives, and for
 * `*` every logged event whose resource the credential can read now (so a credential never
 * subscribes to what it could not read, and a later grant does not widen an old subscription).
 * 400 for an unknown name, 403 naming each event whose resource it cannot read.
 */
function subscribedEvents(principal: Principal, events: readonly string[]): string[] {
  const unknown = events.flatMap((name, i) =>
    name === '*' || isEventName(name) ? [] : [{ path: `/events/${i}`, message: `${name} is not an event name` }],
  );
  if (unknown.length) throw validationFailed('Unknown event names', unknown);
  const unreadable = events.flatMap((name, i) =>
    name === '*' || canSubscribe(principal, name as EventName)
      ? []
      : [{ path: `/events/${i}`, message: `needs ${readPermissionOf(name as EventName)}` }],
  );
  if (unreadable.length)
    throw new AppError('FORBIDDEN', 'This credential cannot read the resources of some of these events', unreadable);
  const selected = [
    ...new Set(
      events.flatMap((name) =>
        name === '*' ? readableEvents(principal).filter((n) => canSubscribe(principal, n)) : [name],
      ),
    ),
  ];
  if (selected.length === 0)
    throw new AppError('FORBIDDEN', 'This credential can read no event', [
      { path: '/events', message: 'no event type is readable with this credential' },
    ]);
  return selected;
}

/**
 * 403 unless the credential can read every event the subscription selects (`*`, stored before
 * subscriptions were expanded, selects all): moving a subscription to another URL, or switching
 * it back on, decides who receives those events.
 */
function assertReadsSelected(principal: Principal, events: readonly string[]): void {
  const selected = events.includes('*') ? loggedEventNames : events.filter(isEventName);
  const missing = [...new Set(selected.filter((n) => !canSubscribe(principal, n)).map(readPermissionOf))];
  if (missing.length) {
    throw new AppError(
      'FORBIDDEN',
      `The subscription selects events this credential cannot read (needs ${missing.join(', ')})`,
      [{ path: '/events', message: `needs ${missing.join(', ')}` }],
    );
  }
}

async function current(principal: Principal, id: string): Promise<WebhookSubscription> {
  assertCompanyWide(principal);
  const found = await subscriptions.get(principal.companyId, id);
  if (!found) throw notFound('Webhook subscription');
  return found;
}

const subscriptionEvent = (
  principal: Principal,
  name: 'created' | 'updated' | 'deleted',
  s: Pick<WebhookSubscription, 'id'>,
  changes: Record<string, unknown> | null = null,
  now?: Date,
) => newEvent(principal.companyId, `webhook-subscription.${name}`, s.id, { ...s }, changes, now);

export function listSubscriptions(
  principal: Principal,
  query: ListWebhookSubscriptionsQuery,
): Promise<Page<WebhookSubscription>> {
  assertCompanyWide(principal);
  return subscriptions.list(principal.companyId, query);
}

export const getSubscription = (principal: Principal, id: string): Promise<WebhookSubscription> =>
  current(principal, id);

export async function createSubscription(
  principal: Principal,
  input: CreateWebhookSubscriptionBody,
): Promise<WithSecret<WebhookSubscription>> {
  assertCompanyWide(principal);
  const events = subscribedEvents(principal, input.events ?? ['*']);
  await assertUrlAllowed(input.url);
  const now = new Date();
  const subscription: WebhookSubscription = {
    id: randomUUID(),
    url: input.url,
    events,
    description: input.description ?? null,
    active: true,
    previousSecretExpiresAt: null,
    version: 1,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const secret = newSecret();
  await subscriptions.create(
    principal.companyId,
    { ...subscription, secret, previousSecret: null },
    subscriptionEvent(principal, 'created', subscription, null, now),
  );
  return { ...subscription, secret };
}

/**
 * Changes url, events, description or active; a change that changes nothing writes nothing. New
 * events are checked as on create; a new url, or switching the subscription on, needs read
 * permission for every event it selects.
 */
export async function updateSubscription(
  principal: Principal,
  id: string,
  input: UpdateWebhookSubscriptionBody,
): Promise<WebhookSubscription> {
  assertCompanyWide(principal);
  const events = input.events && subscribedEvents(principal, input.events);
  const was = await current(principal, id);
  const next: WebhookSubscription = {
    ...was,
    ...input,
    ...(events ? { events } : {}),
    version: was.version + 1,
    updatedAt: new Date().toISOString(),
  };
  const changes = changedFields(was, next, ['url', 'events', 'description', 'active']);
  if (Object.keys(changes).length === 0) return was;
  if (changes.url !== undefined || changes.active === true) assertReadsSelected(principal, next.events);
  if (changes.url !== undefined) await assertUrlAllowed(next.url);
  await subscriptions.update(
    principal.companyId,
    next,
    was.version,
    subscriptionEvent(principal, 'updated', next, changes),
  );
  return next;
}

export async function deleteSubscription(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
  assertCompanyWide(principal);
  await subscriptions.remove(principal.companyId, id, subscriptionEvent(principal, 'deleted', { id }));
  return { id, deleted: true };
}

/** A new secret, shown this once; the replaced one keeps signing (beside it) for 24 hours. */
export async function rotateSubscriptionSecret(
  principal: Principal,
  id: string,
): Promise<WithSecret<WebhookSubscription>> {
  const was = await current(principal, id);
  const now = Date.now();
  const next: WebhookSubscription = {
    ...was,
    previousSecretExpiresAt: new Date(now + ROTATION_OVERLAP_MS).toISOString(),
    version: was.version + 1,
    updatedAt: new Date(now).toISOString(),
  };
  const secret = newSecret();
  const changes = { previousSecretExpiresAt: next.previousSecretExpiresAt };
  await subscriptions.rotateSecret(
    principal.companyId,
    next,
    was.version,
    secret,
    subscriptionEvent(principal, 'updated', next, changes),
  );
  return { ...next, secret };
}

const shown = ({ body: _body, ...delivery }: StoredDelivery): WebhookDelivery => delivery;

/**
 * Queues a `webhook.test` event for this subscription only (active or not, so an endpoint can be
 * checked before it is switched on). Not part of the event log.
 */
export async function sendTestEvent(principal: Principal, id: string): Promise<WebhookDelivery> {
  assertCompanyWide(principal);
  const now = new Date();
  const event = newEvent(
    principal.companyId,
    'webhook.test',
    id,
    { subscriptionId: id, message: 'A test event from Brigade' },
    null,
    now,
  );
  const delivery = newDelivery(id, event.payload, now.toISOString());
  await deliveries.createRequested(principal.companyId, delivery);
  return shown(delivery);
}

export async function listDeliveryAttempts(
  principal: Principal,
  id: string,
  query: ListWebhookDeliveriesQuery,
): Promise<Page<DeliveryAttempt>> {
  assertCompanyWide(principal);
  const page = await attempts.page(principal.companyId, id, query);
  if (!page) throw notFound('Webhook subscription');
  return page;
}

/** Attempts a failed, dead or cancelled delivery again now, with a fresh round of the retry schedule. */
export async function retryDelivery(principal: Principal, deliveryId: string): Promise<WebhookDelivery> {
  assertCompanyWide(principal);
  const was = await deliveries.get(principal.companyId, deliveryId);
  if (!was) throw notFound('Webhook delivery');
  if (was.status === 'pending' || was.status === 'delivered') {
    throw conflict(`The delivery is ${was.status}; only a failed, dead or cancelled delivery can be retried`);
  }
  const now = new Date().toISOString();
  const next: WebhookDelivery = {
    ...was,
    status: 'pending',
    round: was.round + 1,
    attempts: 0,
    nextAttemptAt: now,
    updatedAt: now,
  };
  await deliveries.retry(principal.companyId, was, next);
  return next;
}
