/**
 * The dispatcher: one outbox message → queued deliveries. An event goes to every active
 * subscription of its company that selects it and existed when it happened; a delivery request
 * (test event, manual retry) queues its one delivery. The same code runs in the dispatcher Lambda
 * (queue = the SQS delivery queue) and on the local stage (queue = the due index the worker polls).
 *
 * Safe to repeat (the stream and SQS deliver at least once; the local reader re-reads from the
 * stream's start): a delivery's id is derived from the event and the subscription, and it is
 * created only if absent.
 */
import type { DeliveryRef, OutboxMessage } from '../data/outbox';
import { deliveries, refOf } from '../data/webhookDeliveries';
import { subscriptions, type StoredSubscription } from '../data/webhookSubscriptions';
import type { EventPayload } from '../events/catalog';
import { newDelivery } from './payload';

/** Hands deliveries to the delivery queue. */
export type Enqueue = (refs: DeliveryRef[]) => Promise<void>;

const selects = (s: StoredSubscription, p: EventPayload) =>
  s.createdAt <= p.timestamp && (s.events.includes('*') || s.events.includes(p.event));

export async function dispatch(
  message: OutboxMessage,
  enqueue: Enqueue,
  now: () => Date = () => new Date(),
): Promise<void> {
  if (message.kind === 'delivery') return enqueue([message.ref]);
  const { companyId, payload } = message.event;
  const targets = (await subscriptions.active(companyId)).filter((s) => selects(s, payload));
  const queued = await Promise.all(
    targets.map(async (s) => {
      const delivery = newDelivery(s.id, payload, now().toISOString());
      const made = await deliveries.create(companyId, delivery);
      if (made.created) return refOf(companyId, delivery);
      // Made by an earlier run that may have stopped before queueing it: queue it again (the
      // delivery worker's claim makes a duplicate message harmless). Anything further along is
      // already in the queue or done.
      const { existing } = made;
      return existing.status === 'pending' && existing.round === 1 && existing.attempts === 0
        ? refOf(companyId, existing)
        : undefined;
    }),
  );
  await enqueue(queued.filter((r): r is DeliveryRef => r !== undefined));
}
