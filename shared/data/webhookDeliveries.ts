/**
 * Webhook deliveries: one per event and subscription, `C#<cid>` / `WHDELIVERY#<id>`, kept as long
 * as the events. Where the due index carries deliveries (the local stage: config.ts
 * `deliveryQueue`), one waiting for an attempt (pending or failed) is in it, gsi2
 * `WHDUE#<shard>` / `<nextAttemptAt>#<cid>#<id>`: the local stage's queue. Where SQS carries them
 * (every deployed stage) no delivery is in it: nothing there reads it, and an index entry holds a
 * copy of the whole item, rendered body included.
 *
 * The delivery record is the truth, a queue message only a reminder: an attempt is made by the
 * worker that wins the claim (a conditional update with a lease), and only the claim holder writes
 * its outcome. A test event or a manual retry writes a delivery request (outbox.ts) in the same
 * transaction, which the pipeline queues.
 */
import { config } from '../config';
import { Type, type Static } from '../schemas/typebox';
import { conflict } from '../errors';
import { WebhookDeliveryView } from '../schemas/webhooks';
import { newAlertSteps, type Alert } from './alerts';
import { getItem, type Item } from './batch';
import { companyKey, defineEntity, extendView } from './entity';
import { deliveryRequestStep, keptAsEvents, type DeliveryRef } from './outbox';
import { queryUntil } from './paging';
import { transact, updateStep, writeAlone, type Condition, type Step } from './transact';
import { attempts, type DeliveryAttempt } from './webhookAttempts';
import { storedSubscriptionOf, subscriptionEntity, type StoredSubscription } from './webhookSubscriptions';

/**
 * A delivery as the API shows it: declared by WebhookDeliveryView. Its `id` is the webhook's `id`
 * and `webhook-id`, the same on every attempt; `round` is 1 for the automatic schedule, each manual
 * retry starting the next; `attempts` counts those of this round; `nextAttemptAt` is when the next
 * one is due (pending, failed), null otherwise; `alertId` the alert raised when it died.
 */
export type WebhookDelivery = Static<typeof WebhookDeliveryView>;
export type DeliveryStatus = WebhookDelivery['status'];

/**
 * A delivery as stored, with the body it sends: rendered once, so every attempt sends the same
 * bytes, and a copy, so the delivery does not depend on the event log's retention. The API's reads
 * split the body off (`shown`).
 */
const StoredDelivery = extendView(WebhookDeliveryView, { body: Type.String() });
export type StoredDelivery = Static<typeof StoredDelivery>;

/** The result of one attempt, written with the attempt's log entry (and the alert, when it died). */
export interface AttemptRecord {
  delivery: Pick<
    WebhookDelivery,
    | 'status'
    | 'attempts'
    | 'nextAttemptAt'
    | 'lastAttemptAt'
    | 'lastHttpStatus'
    | 'lastError'
    | 'deliveredAt'
    | 'alertId'
    | 'updatedAt'
  >;
  attempt: DeliveryAttempt;
  alert?: Alert | undefined;
}

/** Shards of the due index, so deliveries of the whole platform do not share one partition. */
const DUE_SHARDS = 8;
const dueShard = (shard: number) => `WHDUE#${shard}`;
const shardOf = (deliveryId: string) => parseInt(deliveryId.slice(0, 1), 16) % DUE_SHARDS;
/** Whether this stage's deliveries wait for their attempts in the due index (config.ts `deliveryQueue`). */
const dueIndexed = () => config().deliveryQueue === 'due-index';
const dueKeys = (companyId: number, deliveryId: string, at: string) => ({
  gsi2pk: dueShard(shardOf(deliveryId)),
  gsi2sk: `${at}#${companyId}#${deliveryId}`,
});
const NOT_DUE = { gsi2pk: undefined, gsi2sk: undefined };
/**
 * What an update writes for a delivery due at `at`: its place in the due index, or, where the index
 * carries nothing, the removal of the index's attributes. That removal writes no index entry when
 * the item has none, and takes the deliveries made before the index was left out of it at their
 * next write.
 */
const due = (companyId: number, deliveryId: string, at: string) =>
  dueIndexed() ? dueKeys(companyId, deliveryId, at) : NOT_DUE;
const isOpen = (status: DeliveryStatus) => status === 'pending' || status === 'failed';

export const deliveryEntity = defineEntity({
  name: 'WEBHOOK_DELIVERY',
  label: 'webhook delivery',
  key: (companyId: number, id: string) => companyKey(companyId, `WHDELIVERY#${id}`),
  schema: StoredDelivery,
  keyOf: (companyId, d) => [companyId, d.id] as const,
  indexes: (companyId, d) => ({
    ...(dueIndexed() && isOpen(d.status) && d.nextAttemptAt !== null ? dueKeys(companyId, d.id, d.nextAttemptAt) : {}),
    ttl: keptAsEvents(d.createdAt),
  }),
});

const storedDeliveryOf = (item: Item): StoredDelivery => deliveryEntity.from(item);

/** The delivery as the API shows it: without its body. */
const shown = ({ body: _body, ...d }: StoredDelivery): WebhookDelivery => d;

export const refOf = (companyId: number, d: Pick<WebhookDelivery, 'id' | 'subscriptionId' | 'round'>): DeliveryRef => ({
  companyId,
  subscriptionId: d.subscriptionId,
  deliveryId: d.id,
  round: d.round,
});

/** The delivery is still in the round it was read in, and open. */
const openCondition = (d: WebhookDelivery): Condition => ({
  expression: '#round = :round AND #status IN (:pending, :failed)',
  names: { '#round': 'round', '#status': 'status' },
  values: { ':round': d.round, ':pending': 'pending', ':failed': 'failed' },
});

/**
 * A change of the delivery written alone, if `condition` holds: whether it was written. `ours`
 * recognises the change in the item that failed the condition: the SDK's retry of a write that
 * committed but whose answer was lost fails the condition on the write itself (docs/entities.md).
 */
async function changedIf(
  companyId: number,
  d: WebhookDelivery,
  patch: Item,
  condition: Condition,
  ours: (current: Item) => boolean = () => false,
): Promise<boolean> {
  const write = await writeAlone(updateStep(deliveryEntity.key(companyId, d.id), patch, { condition }));
  return write.written || (write.current !== undefined && ours(write.current));
}

export const deliveries = {
  async get(companyId: number, id: string): Promise<WebhookDelivery | undefined> {
    const found = await deliveryEntity.get(companyId, id);
    return found && shown(found);
  },

  /** Adds the delivery unless it exists (dispatching the same event twice); returns the existing one then. */
  async create(
    companyId: number,
    d: StoredDelivery,
  ): Promise<{ created: true } | { created: false; existing: StoredDelivery }> {
    const put = await writeAlone(deliveryEntity.newItemStep(companyId, d));
    // A put-if-absent fails only on an item that exists, and answers it.
    return put.written ? { created: true } : { created: false, existing: storedDeliveryOf(put.current!) };
  },

  /** A delivery for one subscription only (a test event), queued by a request in the same transaction. */
  async createRequested(companyId: number, d: StoredDelivery): Promise<void> {
    await transact([
      subscriptionEntity.existsStep([companyId, d.subscriptionId]),
      deliveryEntity.newItemStep(companyId, d),
      deliveryRequestStep(refOf(companyId, d), d.createdAt),
    ]);
  },

  /** Starts the next round of a failed, dead or cancelled delivery now, and queues it. */
  async retry(companyId: number, current: WebhookDelivery, next: WebhookDelivery): Promise<void> {
    const at = next.updatedAt;
    const patch = {
      status: next.status,
      round: next.round,
      attempts: next.attempts,
      nextAttemptAt: next.nextAttemptAt,
      updatedAt: at,
      ttl: keptAsEvents(at),
      claim: undefined,
      ...due(companyId, current.id, at),
    };
    const finished: Condition = {
      expression: '#round = :round AND #status IN (:failed, :dead, :cancelled)',
      names: { '#round': 'round', '#status': 'status' },
      values: { ':round': current.round, ':failed': 'failed', ':dead': 'dead', ':cancelled': 'cancelled' },
    };
    await transact([
      updateStep(deliveryEntity.key(companyId, current.id), patch, {
        condition: finished,
        onConditionFailed: () => conflict('The delivery changed meanwhile; read it again'),
      }),
      subscriptionEntity.existsStep([companyId, current.subscriptionId]),
      deliveryRequestStep(refOf(companyId, next), at),
    ]);
  },

  /** The delivery and its subscription (secrets included), read strongly consistent and at once. */
  async load(
    ref: DeliveryRef,
  ): Promise<{ delivery?: StoredDelivery | undefined; subscription?: StoredSubscription | undefined }> {
    const [delivery, subscription] = await Promise.all([
      getItem(deliveryEntity.key(ref.companyId, ref.deliveryId), { consistent: true }),
      getItem(subscriptionEntity.key(ref.companyId, ref.subscriptionId), { consistent: true }),
    ]);
    return {
      delivery: delivery && storedDeliveryOf(delivery),
      subscription: subscription && storedSubscriptionOf(subscription),
    };
  },

  /**
   * Takes a due delivery for one attempt: moves it out of reach (due again at `leaseUntil`, should
   * the worker die) and marks it with `claim`. False when it was not due or someone else took it;
   * true when the item already carries this `claim` (our claim committed, its answer was lost).
   */
  claim(companyId: number, d: WebhookDelivery, claim: string, now: string, leaseUntil: string): Promise<boolean> {
    const open = openCondition(d);
    const condition = {
      expression: `${open.expression} AND #attempts = :attempts AND #next <= :now`,
      names: { ...open.names, '#attempts': 'attempts', '#next': 'nextAttemptAt' },
      values: { ...open.values, ':attempts': d.attempts, ':now': now },
    };
    return changedIf(
      companyId,
      d,
      { nextAttemptAt: leaseUntil, claim, ...due(companyId, d.id, leaseUntil) },
      condition,
      (current) => current.claim === claim,
    );
  },

  /** Writes an attempt's outcome, if this worker still holds the claim. */
  async record(companyId: number, d: StoredDelivery, claim: string, r: AttemptRecord): Promise<boolean> {
    const lost = conflict('The claim on the delivery was lost');
    const outcome = {
      ...r.delivery,
      claim: undefined,
      ...(isOpen(r.delivery.status) ? due(companyId, d.id, r.delivery.nextAttemptAt!) : NOT_DUE),
    };
    const steps: Step[] = [
      updateStep(deliveryEntity.key(companyId, d.id), outcome, {
        condition: { expression: '#claim = :claim', names: { '#claim': 'claim' }, values: { ':claim': claim } },
        onConditionFailed: () => lost,
      }),
      attempts.logStep(companyId, d.subscriptionId, r.attempt),
      ...(r.alert ? newAlertSteps(companyId, r.alert) : []),
    ];
    try {
      await transact(steps);
      return true;
    } catch (err) {
      // The lease ran out and another worker took over: its attempt counts, not this one.
      if (err === lost) return false;
      throw err;
    }
  },

  /** Stops a delivery whose subscription is gone. */
  async cancel(companyId: number, d: WebhookDelivery, reason: string, at: string): Promise<void> {
    await changedIf(
      companyId,
      d,
      { status: 'cancelled', nextAttemptAt: null, lastError: reason, updatedAt: at, claim: undefined, ...NOT_DUE },
      openCondition(d),
    );
  },

  /**
   * The next deliveries to attempt, soonest first in each shard, with when each is due (the local
   * stage's queue; on AWS the delivery queue holds a message per delivery instead, and the index
   * holds no delivery).
   */
  async upcoming(limitPerShard: number): Promise<(DeliveryRef & { dueAt: string })[]> {
    const shards = await Promise.all(
      Array.from({ length: DUE_SHARDS }, (_, shard) =>
        queryUntil({ index: 'gsi2', partition: dueShard(shard) }, limitPerShard),
      ),
    );
    return shards.flatMap(({ items }) =>
      items.map((i) => ({ ...refOf(Number(i.companyId), deliveryEntity.from(i)), dueAt: String(i.nextAttemptAt) })),
    );
  },
};
