/**
 * Webhook subscriptions, their deliveries and the log of delivery attempts.
 *
 * Items (every key starts with the company):
 * - subscription   `C#<cid>#WHSUB#<id>` / `SUBSCRIPTION`, listed by gsi1 `C#<cid>#WHSUBS` / `<createdAt>#<id>`
 * - attempt        `C#<cid>#WHSUB#<subscriptionId>` / `ATTEMPT#<startedAt>#<id>` (TTL): the attempts log
 *                  shares the subscription's partition, so one Query answers "does it exist" and a page
 * - delivery       `C#<cid>` / `WHDELIVERY#<id>`, one per event and subscription; while it waits for an
 *                  attempt it is in the due index gsi2 `WHDUE#<shard>` / `<nextAttemptAt>#<cid>#<id>`
 * - delivery request  an outbox item (`C#<cid>#WHREQUESTS`) that asks the pipeline to queue one
 *                  delivery (a test event, a manual retry), written in the same transaction
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { conflict, notFound, unprocessable } from '../errors';
import type { DomainEvent, EventPayload } from '../events/catalog';
import type { Page } from '../page';
import { newAlertSteps, type Alert } from './alerts';
import { db, tableName } from './client';
import { toAppError } from './errors';

import { keys, pick } from './keys';
import { counterStep, listPage, logPage, queryAll, readLog, type PageRequest } from './paging';
import { transact, type Step } from './transact';
import { EVENT_RETENTION_SECONDS, outboxStep } from './outbox';

export interface WebhookSubscription {
  id: string;
  url: string;
  /** Event names, or `*` for all. */
  events: string[];
  description: string | null;
  active: boolean;
  /** Until when the secret replaced by the last rotation still signs (null: no rotation pending). */
  previousSecretExpiresAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** What signing needs. Never leaves the data layer and the pipeline, except once in an answer. */
export interface SubscriptionSecrets {
  secret: string;
  previousSecret: string | null;
}

export type StoredSubscription = WebhookSubscription & SubscriptionSecrets;

export type DeliveryStatus = 'pending' | 'failed' | 'delivered' | 'dead' | 'cancelled';

export interface WebhookDelivery {
  /** The webhook's `id` and `webhook-id`, the same on every attempt. */
  id: string;
  subscriptionId: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  /** 1 for the automatic schedule; each manual retry starts the next round. */
  round: number;
  /** Attempts made in this round. */
  attempts: number;
  /** When the next attempt is due (pending, failed); null otherwise. */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  /** The alert raised when the delivery died. */
  alertId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A delivery with the body it sends: rendered once, so every attempt sends the same bytes, and a
 * copy, so the delivery does not depend on the event log's retention.
 */
export interface StoredDelivery extends WebhookDelivery {
  body: string;
}

/** One attempt to deliver, as the attempts log shows it. */
export interface DeliveryAttempt {
  id: string;
  deliveryId: string;
  eventId: string;
  event: string;
  round: number;
  attempt: number;
  /** The delivery's status this attempt left it in: delivered, failed (another attempt follows) or dead. */
  status: 'delivered' | 'failed' | 'dead';
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
  startedAt: string;
  finishedAt: string;
  nextAttemptAt: string | null;
}

/** What queues carry: enough to load a delivery and its subscription by key. */
export interface DeliveryRef {
  companyId: number;
  subscriptionId: string;
  deliveryId: string;
  round: number;
}

/** How many subscriptions a company may have: every event is matched against all of them. */
export const MAX_SUBSCRIPTIONS = 50;

/** Shards of the due index, so deliveries of the whole platform do not share one partition. */
export const DUE_SHARDS = 8;

const subscriptionFields = ['id', 'url', 'events', 'description', 'active', 'previousSecretExpiresAt', 'version', 'createdAt', 'updatedAt'] as const;
const deliveryFields = [
  'id', 'subscriptionId', 'eventId', 'event', 'status', 'round', 'attempts', 'nextAttemptAt', 'lastAttemptAt',
  'lastHttpStatus', 'lastError', 'deliveredAt', 'alertId', 'createdAt', 'updatedAt',
] as const;
const attemptFields = [
  'id', 'deliveryId', 'eventId', 'event', 'round', 'attempt', 'status', 'httpStatus', 'error', 'durationMs', 'startedAt', 'finishedAt', 'nextAttemptAt',
] as const;

const toSubscription = (i: Record<string, unknown>) => pick<WebhookSubscription>(i, subscriptionFields);
const toStoredSubscription = (i: Record<string, unknown>): StoredSubscription => ({
  ...toSubscription(i),
  secret: String(i.secret),
  previousSecret: (i.previousSecret as string | null | undefined) ?? null,
});
const toDelivery = (i: Record<string, unknown>) => pick<WebhookDelivery>(i, deliveryFields);
const toStoredDelivery = (i: Record<string, unknown>): StoredDelivery => ({ ...toDelivery(i), body: String(i.body) });

const SUBSCRIPTION_SK = 'SUBSCRIPTION';
const ATTEMPT_PREFIX = 'ATTEMPT#';

const subscriptionPartition = (companyId: number, id: string) => `${keys.company(companyId)}#WHSUB#${id}`;
const subscriptionKey = (companyId: number, id: string) => ({ pk: subscriptionPartition(companyId, id), sk: SUBSCRIPTION_SK });
const subscriptionList = (companyId: number) => `${keys.company(companyId)}#WHSUBS`;
const subscriptionCounter = (companyId: number) => ({ pk: keys.company(companyId), sk: 'COUNT#WHSUB' });
const deliveryKey = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `WHDELIVERY#${id}` });

const shardOf = (deliveryId: string) => parseInt(deliveryId.slice(0, 1), 16) % DUE_SHARDS;
const dueKeys = (companyId: number, deliveryId: string, at: string) => ({ gsi2pk: `WHDUE#${shardOf(deliveryId)}`, gsi2sk: `${at}#${companyId}#${deliveryId}` });
const NOT_DUE = { gsi2pk: undefined, gsi2sk: undefined };

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
/** Deliveries and attempts are kept as long as the events they carry. */
const retained = (iso: string) => epochSeconds(iso) + EVENT_RETENTION_SECONDS;
/** A delivery request only has to reach the stream. */
const REQUEST_RETENTION_SECONDS = 24 * 3600;

interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** One UpdateItem's expression from a patch: SET the defined values, REMOVE the undefined ones. */
function updateOf(patch: Record<string, unknown>, condition?: Condition) {
  const names: Record<string, string> = { ...condition?.names };
  const values: Record<string, unknown> = { ...condition?.values };
  const set: string[] = [];
  const remove: string[] = [];
  Object.entries(patch).forEach(([field, value], i) => {
    names[`#u${i}`] = field;
    if (value === undefined) remove.push(`#u${i}`);
    else {
      values[`:u${i}`] = value;
      set.push(`#u${i} = :u${i}`);
    }
  });
  return {
    UpdateExpression: [set.length ? `SET ${set.join(', ')}` : '', remove.length ? `REMOVE ${remove.join(', ')}` : ''].filter(Boolean).join(' '),
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    ...(condition ? { ConditionExpression: condition.expression } : {}),
  };
}

const isConditionFailure = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

async function send<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toAppError(err);
  }
}

/** An update that only happens if its condition holds; false when it did not. */
async function conditionalUpdate(key: { pk: string; sk: string }, patch: Record<string, unknown>, condition: Condition): Promise<boolean> {
  try {
    await db().send(new UpdateCommand({ TableName: tableName(), Key: key, ...updateOf(patch, condition) }));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw toAppError(err);
  }
}

function subscriptionExistsStep(companyId: number, id: string): Step {
  return {
    item: { ConditionCheck: { TableName: tableName(), Key: subscriptionKey(companyId, id), ConditionExpression: 'attribute_exists(pk)' } },
    onConditionFailed: () => notFound('Webhook subscription'),
  };
}

/** The outbox item that asks the pipeline to queue one delivery (see shared/webhooks/outbox.ts). */
function deliveryRequestStep(ref: DeliveryRef, at: string): Step {
  const { companyId, ...deliveryRequest } = ref;
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: {
          pk: `${keys.company(companyId)}#WHREQUESTS`,
          sk: `${at}#${ref.deliveryId}#${ref.round}`,
          entity: 'OUTBOX',
          companyId,
          deliveryRequest,
          ttl: epochSeconds(at) + REQUEST_RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/** What an outbox item asks of the pipeline: fan an event out, or queue one delivery. */
export type OutboxMessage = { kind: 'event'; event: DomainEvent } | { kind: 'delivery'; ref: DeliveryRef };

/** Reads an outbox item (as the stream's new image holds it, unmarshalled). */
export function outboxMessageOf(item: Record<string, unknown>): OutboxMessage {
  const companyId = Number(item.companyId);
  const request = item.deliveryRequest as Omit<DeliveryRef, 'companyId'> | undefined;
  if (request) return { kind: 'delivery', ref: { companyId, subscriptionId: request.subscriptionId, deliveryId: request.deliveryId, round: Number(request.round) } };
  return { kind: 'event', event: { companyId, payload: item.payload as EventPayload } };
}

export const subscriptions = {
  async get(companyId: number, id: string): Promise<WebhookSubscription | undefined> {
    const out = await send(() => db().send(new GetCommand({ TableName: tableName(), Key: subscriptionKey(companyId, id) })));
    return out.Item ? toSubscription(out.Item) : undefined;
  },

  list(companyId: number, page: PageRequest): Promise<Page<WebhookSubscription>> {
    return listPage({ index: 'gsi1', partition: subscriptionList(companyId), counter: subscriptionCounter(companyId) }, page, toSubscription);
  },

  /** Every active subscription of the company, secrets included (the dispatcher's read). */
  async active(companyId: number): Promise<StoredSubscription[]> {
    const items = await queryAll({ index: 'gsi1', partition: subscriptionList(companyId), filter: { expression: '#active = :yes', names: { '#active': 'active' }, values: { ':yes': true } } });
    return items.map(toStoredSubscription);
  },

  /** Adds the subscription, counts it (at most MAX_SUBSCRIPTIONS) and records its event. */
  async create(companyId: number, s: StoredSubscription, event: DomainEvent): Promise<void> {
    await transact([
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: {
              ...subscriptionKey(companyId, s.id),
              gsi1pk: subscriptionList(companyId),
              gsi1sk: `${s.createdAt}#${s.id}`,
              entity: 'WEBHOOK_SUBSCRIPTION',
              companyId,
              ...s,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: subscriptionCounter(companyId),
            UpdateExpression: 'ADD n :one SET entity = :e',
            ConditionExpression: 'attribute_not_exists(n) OR n < :max',
            ExpressionAttributeValues: { ':one': 1, ':e': 'COUNTER', ':max': MAX_SUBSCRIPTIONS },
          },
        },
        onConditionFailed: () => unprocessable(`A company may have at most ${MAX_SUBSCRIPTIONS} webhook subscriptions`),
      },
      outboxStep(event),
    ]);
  },

  /** Changes url, events, description and active if nobody changed the subscription since `expectedVersion`. */
  async update(companyId: number, next: WebhookSubscription, expectedVersion: number, event: DomainEvent): Promise<void> {
    const { url, events, description, active, version, updatedAt } = next;
    await transact([
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: subscriptionKey(companyId, next.id),
            ...updateOf({ url, events, description, active, version, updatedAt }, versionCondition(expectedVersion)),
          },
        },
        onConditionFailed: changedMeanwhile,
      },
      outboxStep(event),
    ]);
  },

  /** A new signing secret; the current one keeps signing until `next.previousSecretExpiresAt`. */
  async rotateSecret(companyId: number, next: WebhookSubscription, expectedVersion: number, secret: string, event: DomainEvent): Promise<void> {
    const condition = versionCondition(expectedVersion);
    await transact([
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: subscriptionKey(companyId, next.id),
            // The current secret is copied inside DynamoDB: the API path never reads it.
            UpdateExpression: 'SET #previous = #secret, #secret = :secret, #until = :until, #version = :next, #at = :at',
            ConditionExpression: condition.expression,
            ExpressionAttributeNames: { ...condition.names, '#previous': 'previousSecret', '#secret': 'secret', '#until': 'previousSecretExpiresAt', '#at': 'updatedAt' },
            ExpressionAttributeValues: { ...condition.values, ':secret': secret, ':until': next.previousSecretExpiresAt, ':next': next.version, ':at': next.updatedAt },
          },
        },
        onConditionFailed: changedMeanwhile,
      },
      outboxStep(event),
    ]);
  },

  /** Removes the subscription and its count; its deliveries stop (the pipeline cancels them). */
  async remove(companyId: number, id: string, event: DomainEvent): Promise<void> {
    await transact([
      {
        item: { Delete: { TableName: tableName(), Key: subscriptionKey(companyId, id), ConditionExpression: 'attribute_exists(pk)' } },
        onConditionFailed: () => notFound('Webhook subscription'),
      },
      counterStep(subscriptionCounter(companyId), -1),
      outboxStep(event),
    ]);
  },
};

function versionCondition(expected: number): Condition {
  return { expression: 'attribute_exists(pk) AND #version = :expected', names: { '#version': 'version' }, values: { ':expected': expected } };
}
const changedMeanwhile = () => conflict('The webhook subscription was changed by another request; read it again and retry');

const OPEN: DeliveryStatus[] = ['pending', 'failed'];
const openCondition = (d: WebhookDelivery): Condition => ({
  expression: '#round = :round AND #status IN (:pending, :failed)',
  names: { '#round': 'round', '#status': 'status' },
  values: { ':round': d.round, ':pending': 'pending', ':failed': 'failed' },
});

/** The result of one attempt, written with the attempt's log entry (and the alert, when it died). */
export interface AttemptRecord {
  delivery: Pick<WebhookDelivery, 'status' | 'attempts' | 'nextAttemptAt' | 'lastAttemptAt' | 'lastHttpStatus' | 'lastError' | 'deliveredAt' | 'alertId' | 'updatedAt'>;
  attempt: DeliveryAttempt;
  alert?: Alert | undefined;
}

export const deliveries = {
  /** Adds the delivery unless it exists (dispatching the same event twice); returns the existing one then. */
  async create(companyId: number, d: StoredDelivery): Promise<{ created: true } | { created: false; existing: StoredDelivery }> {
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: deliveryItem(companyId, d),
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { created: true };
    } catch (err) {
      // The document client leaves the item of a failed condition in DynamoDB's own JSON.
      const existing = (err as { Item?: Record<string, AttributeValue> }).Item;
      if (isConditionFailure(err) && existing) return { created: false, existing: toStoredDelivery(unmarshall(existing)) };
      throw toAppError(err);
    }
  },

  /** A delivery for one subscription only (a test event), queued by a request in the same transaction. */
  async createRequested(companyId: number, d: StoredDelivery): Promise<void> {
    await transact([
      subscriptionExistsStep(companyId, d.subscriptionId),
      { item: { Put: { TableName: tableName(), Item: deliveryItem(companyId, d), ConditionExpression: 'attribute_not_exists(pk)' } } },
      deliveryRequestStep(refOf(companyId, d), d.createdAt),
    ]);
  },

  async get(companyId: number, id: string): Promise<WebhookDelivery | undefined> {
    const out = await send(() => db().send(new GetCommand({ TableName: tableName(), Key: deliveryKey(companyId, id) })));
    return out.Item ? toDelivery(out.Item) : undefined;
  },

  /** Starts the next round of a failed, dead or cancelled delivery now, and queues it. */
  async retry(companyId: number, current: WebhookDelivery, next: WebhookDelivery): Promise<void> {
    const at = next.updatedAt;
    await transact([
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: deliveryKey(companyId, current.id),
            ...updateOf(
              { status: next.status, round: next.round, attempts: next.attempts, nextAttemptAt: next.nextAttemptAt, updatedAt: at, ttl: retained(at), claim: undefined, ...dueKeys(companyId, current.id, at) },
              {
                expression: '#round = :round AND #status IN (:failed, :dead, :cancelled)',
                names: { '#round': 'round', '#status': 'status' },
                values: { ':round': current.round, ':failed': 'failed', ':dead': 'dead', ':cancelled': 'cancelled' },
              },
            ),
          },
        },
        onConditionFailed: () => conflict('The delivery changed meanwhile; read it again'),
      },
      subscriptionExistsStep(companyId, current.subscriptionId),
      deliveryRequestStep(refOf(companyId, next), at),
    ]);
  },

  /** The delivery and its subscription, read consistently in one call. */
  async load(ref: DeliveryRef): Promise<{ delivery?: StoredDelivery | undefined; subscription?: StoredSubscription | undefined }> {
    const out = await send(() =>
      db().send(
        new TransactGetCommand({
          TransactItems: [
            { Get: { TableName: tableName(), Key: deliveryKey(ref.companyId, ref.deliveryId) } },
            { Get: { TableName: tableName(), Key: subscriptionKey(ref.companyId, ref.subscriptionId) } },
          ],
        }),
      ),
    );
    const [delivery, subscription] = (out.Responses ?? []).map((r) => r?.Item);
    return { delivery: delivery && toStoredDelivery(delivery), subscription: subscription && toStoredSubscription(subscription) };
  },

  /**
   * Takes a due delivery for one attempt: moves it out of reach (due again at `leaseUntil`, should
   * the worker die) and marks it with `claim`. False when it was not due or someone else took it.
   */
  claim(companyId: number, d: WebhookDelivery, claim: string, now: string, leaseUntil: string): Promise<boolean> {
    const open = openCondition(d);
    return conditionalUpdate(
      deliveryKey(companyId, d.id),
      { nextAttemptAt: leaseUntil, claim, ...dueKeys(companyId, d.id, leaseUntil) },
      {
        expression: `${open.expression} AND #attempts = :attempts AND #next <= :now`,
        names: { ...open.names, '#attempts': 'attempts', '#next': 'nextAttemptAt' },
        values: { ...open.values, ':attempts': d.attempts, ':now': now },
      },
    );
  },

  /** Writes an attempt's outcome, if this worker still holds the claim. */
  async record(companyId: number, d: StoredDelivery, claim: string, r: AttemptRecord): Promise<boolean> {
    const open = r.delivery.status === 'pending' || r.delivery.status === 'failed';
    const steps: Step[] = [
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: deliveryKey(companyId, d.id),
            ...updateOf(
              { ...r.delivery, claim: undefined, ...(open ? dueKeys(companyId, d.id, r.delivery.nextAttemptAt!) : NOT_DUE) },
              { expression: '#claim = :claim', names: { '#claim': 'claim' }, values: { ':claim': claim } },
            ),
          },
        },
      },
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: {
              pk: subscriptionPartition(companyId, d.subscriptionId),
              sk: `${ATTEMPT_PREFIX}${r.attempt.startedAt}#${r.attempt.id}`,
              entity: 'WEBHOOK_ATTEMPT',
              companyId,
              subscriptionId: d.subscriptionId,
              ...r.attempt,
              ttl: retained(r.attempt.startedAt),
            },
          },
        },
      },
      ...(r.alert ? newAlertSteps(companyId, r.alert) : []),
    ];
    try {
      await transact(steps);
      return true;
    } catch (err) {
      // Only the claim's condition can fail: the lease ran out and another worker took over.
      if (isCanceledByCondition(err)) return false;
      throw err;
    }
  },

  /** Stops a delivery whose subscription is gone. */
  async cancel(companyId: number, d: WebhookDelivery, reason: string, at: string): Promise<void> {
    await conditionalUpdate(deliveryKey(companyId, d.id), { status: 'cancelled', nextAttemptAt: null, lastError: reason, updatedAt: at, claim: undefined, ...NOT_DUE }, openCondition(d));
  },

  /**
   * The next deliveries to attempt, soonest first in each shard, with when each is due (the local
   * stage's queue; on AWS the delivery queue holds a message per delivery instead).
   */
  async upcoming(limitPerShard: number): Promise<(DeliveryRef & { dueAt: string })[]> {
    const shards = await Promise.all(
      Array.from({ length: DUE_SHARDS }, (_, shard) =>
        send(() =>
          db().send(
            new QueryCommand({
              TableName: tableName(),
              IndexName: 'gsi2',
              KeyConditionExpression: 'gsi2pk = :pk',
              ExpressionAttributeValues: { ':pk': `WHDUE#${shard}` },
              Limit: limitPerShard,
            }),
          ),
        ),
      ),
    );
    return shards.flatMap((out) => (out.Items ?? []).map((i) => ({ ...refOf(Number(i.companyId), toDelivery(i)), dueAt: String(i.nextAttemptAt) })));
  },
};

/** True when a transaction failed because one of its conditions did not hold. */
function isCanceledByCondition(err: unknown): boolean {
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (err as Error).name === 'TransactionCanceledException' && !!reasons?.some((r) => r.Code === 'ConditionalCheckFailed');
}

function deliveryItem(companyId: number, d: StoredDelivery) {
  const open = OPEN.includes(d.status) && d.nextAttemptAt !== null;
  return {
    ...deliveryKey(companyId, d.id),
    ...(open ? dueKeys(companyId, d.id, d.nextAttemptAt!) : {}),
    entity: 'WEBHOOK_DELIVERY',
    companyId,
    ...d,
    ttl: retained(d.createdAt),
  };
}

export const refOf = (companyId: number, d: Pick<WebhookDelivery, 'id' | 'subscriptionId' | 'round'>): DeliveryRef => ({
  companyId,
  subscriptionId: d.subscriptionId,
  deliveryId: d.id,
  round: d.round,
});

export const attempts = {
  /**
   * A page of a subscription's attempts, newest first; undefined when the subscription does not
   * exist. The subscription item sorts after its attempts, so a page read newest-first from the
   * top of the partition meets it first: no separate read.
   */
  async page(companyId: number, subscriptionId: string, req: PageRequest): Promise<Page<DeliveryAttempt> | undefined> {
    const span = {
      partition: subscriptionPartition(companyId, subscriptionId),
      range: { op: 'between' as const, low: ATTEMPT_PREFIX, high: SUBSCRIPTION_SK },
      newestFirst: true,
    };
    // With a cursor the page starts past the subscription item; the cursor itself is checked to
    // be one of this partition (this company, this subscription).
    const read = await readLog(span, req, req.cursor ? 0 : 1);
    if (!req.cursor && read.head[0]?.sk !== SUBSCRIPTION_SK) return undefined;
    return logPage(read, (i) => pick<DeliveryAttempt>(i, attemptFields));
  },
};

