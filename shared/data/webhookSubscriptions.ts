/**
 * Webhook subscriptions: where a company's events are sent, and the secrets that sign them.
 *
 * A subscription has a partition of its own, `C#<cid>#WHSUB#<id>` / `SUBSCRIPTION`, which its
 * attempts log shares (webhookAttempts.ts); listed by gsi1 `C#<cid>#WHSUBS` / `<createdAt>#<id>`,
 * counted by `C#<cid>` / `COUNT#WHSUB` (at most MAX_SUBSCRIPTIONS).
 */
import { Type, type Static } from '../schemas/typebox';
import { notFound, unprocessable } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { Item } from './batch';
import { tableName } from './client';
import { Nullable } from '../schemas/common';
import { WebhookSubscriptionView } from '../schemas/webhooks';
import { companyKey, defineEntity, extendView } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { counterStep, listPage, queryAll, type PageRequest } from './paging';
import { atVersion, changedMeanwhile, deleteStep, transact, updateStep, type Step } from './transact';

/**
 * A subscription as the API shows it (`events`: event names, or `*` for all;
 * `previousSecretExpiresAt`: until when the secret replaced by the last rotation still signs, null
 * when no rotation is pending): declared by WebhookSubscriptionView.
 */
export type WebhookSubscription = Static<typeof WebhookSubscriptionView>;

/**
 * A subscription as stored: as shown, with what signing needs. The secrets never leave the data
 * layer and the pipeline, except once in an answer: the API's reads split them off (`shown`).
 */
const StoredSubscription = extendView(WebhookSubscriptionView, {
  secret: Type.String(),
  previousSecret: Nullable(Type.String()),
});
export type StoredSubscription = Static<typeof StoredSubscription>;

/** How many subscriptions a company may have: every event is matched against all of them. */
export const MAX_SUBSCRIPTIONS = 50;

const listPartition = (companyId: number) => `${keys.company(companyId)}#WHSUBS`;
const counter = (companyId: number) => companyKey(companyId, 'COUNT#WHSUB');

/** A subscription with its secrets (StoredSubscription): listed (gsi1) by creation time. */
export const subscriptionEntity = defineEntity({
  name: 'WEBHOOK_SUBSCRIPTION',
  label: 'webhook subscription',
  key: (companyId: number, id: string) => ({ pk: `${keys.company(companyId)}#WHSUB#${id}`, sk: 'SUBSCRIPTION' }),
  schema: StoredSubscription,
  keyOf: (companyId, s) => [companyId, s.id] as const,
  indexes: (companyId, s) => ({ gsi1pk: listPartition(companyId), gsi1sk: `${s.createdAt}#${s.id}` }),
});

/** A subscription item with its secrets: only the pipeline reads these (to sign). */
export const storedSubscriptionOf = (item: Item): StoredSubscription => {
  const s = subscriptionEntity.from(item);
  return { ...s, previousSecret: s.previousSecret ?? null };
};

/** The subscription as the API shows it: without its secrets. */
const shown = ({ secret: _secret, previousSecret: _previous, ...s }: StoredSubscription): WebhookSubscription => s;

const changed = changedMeanwhile('webhook subscription');

/** Counts a new subscription, refused (422) at the limit. */
const countedStep = (companyId: number): Step =>
  updateStep(
    counter(companyId),
    { entity: 'COUNTER' },
    {
      add: { n: 1 },
      condition: { expression: 'attribute_not_exists(n) OR n < :max', values: { ':max': MAX_SUBSCRIPTIONS } },
      onConditionFailed: () => unprocessable(`A company may have at most ${MAX_SUBSCRIPTIONS} webhook subscriptions`),
    },
  );

/**
 * A new secret, the current one kept as `previousSecret`. The copy happens inside DynamoDB
 * (`SET previousSecret = secret`), so the API path never reads a secret: the one update a patch
 * of values cannot say.
 */
function rotationStep(companyId: number, next: WebhookSubscription, expectedVersion: number, secret: string): Step {
  const current = atVersion(expectedVersion);
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: subscriptionEntity.key(companyId, next.id),
        UpdateExpression:
          'SET #previous = #secret, #secret = :secret, #until = :until, version = :next, updatedAt = :at',
        ConditionExpression: current.expression,
        ExpressionAttributeNames: {
          '#previous': 'previousSecret',
          '#secret': 'secret',
          '#until': 'previousSecretExpiresAt',
        },
        ExpressionAttributeValues: {
          ...current.values,
          ':secret': secret,
          ':until': next.previousSecretExpiresAt,
          ':next': next.version,
          ':at': next.updatedAt,
        },
      },
    },
    onConditionFailed: changed,
  };
}

export const subscriptions = {
  async get(companyId: number, id: string): Promise<WebhookSubscription | undefined> {
    const found = await subscriptionEntity.get(companyId, id);
    return found && shown(found);
  },

  list(companyId: number, page: PageRequest): Promise<Page<WebhookSubscription>> {
    return listPage({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page, (i) =>
      shown(subscriptionEntity.from(i)),
    );
  },

  /** Every active subscription of the company, secrets included (the dispatcher's read). */
  async active(companyId: number): Promise<StoredSubscription[]> {
    const items = await queryAll({
      index: 'gsi1',
      partition: listPartition(companyId),
      filter: { expression: '#active = :yes', names: { '#active': 'active' }, values: { ':yes': true } },
    });
    return items.map(storedSubscriptionOf);
  },

  /** Adds the subscription with its secrets, counts it (at most MAX_SUBSCRIPTIONS) and records its event. */
  async create(companyId: number, s: StoredSubscription, event: DomainEvent): Promise<void> {
    await transact([subscriptionEntity.newItemStep(companyId, s), countedStep(companyId), outboxStep(event)]);
  },

  /**
   * Changes url, events, description and active if nobody changed the subscription since
   * `expectedVersion`: an update, not a put, so the secrets stay as they are without being read.
   */
  async update(
    companyId: number,
    next: WebhookSubscription,
    expectedVersion: number,
    event: DomainEvent,
  ): Promise<void> {
    const { url, events, description, active, version, updatedAt } = next;
    await transact([
      updateStep(
        subscriptionEntity.key(companyId, next.id),
        { url, events, description, active, version, updatedAt },
        { condition: atVersion(expectedVersion), onConditionFailed: changed },
      ),
      outboxStep(event),
    ]);
  },

  /** A new signing secret; the current one keeps signing until `next.previousSecretExpiresAt`. */
  async rotateSecret(
    companyId: number,
    next: WebhookSubscription,
    expectedVersion: number,
    secret: string,
    event: DomainEvent,
  ): Promise<void> {
    await transact([rotationStep(companyId, next, expectedVersion, secret), outboxStep(event)]);
  },

  /** Removes the subscription and its count; its deliveries stop (the pipeline cancels them). */
  async remove(companyId: number, id: string, event: DomainEvent): Promise<void> {
    await transact([
      deleteStep(subscriptionEntity.key(companyId, id), { expression: 'attribute_exists(pk)' }, () =>
        notFound('Webhook subscription'),
      ),
      counterStep(counter(companyId), -1),
      outboxStep(event),
    ]);
  },
};
