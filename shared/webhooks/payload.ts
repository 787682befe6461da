/**
 * What a receiver gets. The body is the event's payload (docs/webhooks.md) with `id` the delivery's id —
 * "unique webhook delivery ID": one per event and subscription, the same on every attempt and
 * equal to the `webhook-id` header — and `eventId` the event's own id, which is also its `id` in
 * the event log (GET /api/v1/events), so a receiver can match the two.
 */
import { createHash } from 'node:crypto';
import type { StoredDelivery } from '../data/webhookDeliveries';
import type { EventPayload } from '../events/catalog';

/**
 * The delivery id of an event for a subscription: a UUID (version 4 layout) derived from both ids,
 * so dispatching the same event twice finds the same delivery instead of making another.
 */
export function deliveryIdFor(eventId: string, subscriptionId: string): string {
  const bytes = createHash('sha256').update(`${eventId}/${subscriptionId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The body a receiver gets for an event (see above). */
export function webhookBody(deliveryId: string, payload: EventPayload): string {
  const { id: eventId, event, resource, resourceId, timestamp, apiVersion, data, changes } = payload;
  return JSON.stringify({ id: deliveryId, eventId, event, resource, resourceId, timestamp, apiVersion, data, changes });
}

/** A delivery of `payload` to a subscription, due at once. */
export function newDelivery(subscriptionId: string, payload: EventPayload, now: string): StoredDelivery {
  const id = deliveryIdFor(payload.id, subscriptionId);
  return {
    id,
    subscriptionId,
    eventId: payload.id,
    event: payload.event,
    status: 'pending',
    round: 1,
    attempts: 0,
    nextAttemptAt: now,
    lastAttemptAt: null,
    lastHttpStatus: null,
    lastError: null,
    deliveredAt: null,
    alertId: null,
    createdAt: now,
    updatedAt: now,
    body: webhookBody(id, payload),
  };
}
