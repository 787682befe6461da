/**
 * Orders on tabs and their kitchen dispatches:
 *
 *   order   C#<cid> / ORDER#<id>   gsi1 C#<cid>#TAB#<tabId>#ORDERS / <createdAt>#<id>   version
 *
 * Dispatches are embedded in their order (at most one per coursing), so an order and its
 * dispatches change together under one version.
 */
import type { Static } from '@sinclair/typebox';
import type { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { DispatchView, OrderLineView, OrderView } from '../schemas/bookings';
import { tableName } from './client';
import { slotCountStep, type SlotCountMove } from './capacitySettings';
import { coursingEntity } from './coursings';
import { companyKey, defineEntity, withOptional } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { logPage, queryAll, readLog, type PageRequest } from './paging';
import { orderPlacedStep } from './tabs';
import { checkStep, transact, type Step } from './transact';

/** A line of an order or a pre-order (prices in minor units; `vatRate` and `costCenter` the line's own, else its item's, absent when neither says): declared by OrderLineView. */
export type OrderLine = Static<typeof OrderLineView>;

/** A kitchen dispatch of an order (at most one per coursing): declared by DispatchView. */
export type Dispatch = Static<typeof DispatchView>;

/**
 * An order as stored: as shown (OrderView), except that `extendedWaitingTime` (the waiting time
 * running when the order was placed on the tab; null when none ran) may be absent: the order
 * seating makes of a pre-order stores none, and it reads as null. `kind` is `pre_order` for the
 * booking's pre-order, sent when it was seated, and `order` for one placed on the open tab;
 * `bookingId` the tab's booking when the order was placed (null on a tab opened without one).
 */
const StoredOrder = withOptional(OrderView, ['extendedWaitingTime']);
export type Order = Static<typeof StoredOrder>;

/** The extended waiting time that ran when an order was placed (docs/capacity.md). */
export type OrderDelay = NonNullable<Order['extendedWaitingTime']>;

const tabPartition = (companyId: number, tabId: string) => `${keys.company(companyId)}#TAB#${tabId}#ORDERS`;

export const orderEntity = defineEntity({
  name: 'ORDER',
  label: 'order',
  key: (companyId: number, id: string) => companyKey(companyId, `ORDER#${id}`),
  schema: StoredOrder,
  keyOf: (companyId, o) => [companyId, o.id] as const,
  indexes: (companyId, o) => ({ gsi1pk: tabPartition(companyId, o.tabId), gsi1sk: `${o.createdAt}#${o.id}` }),
});

/**
 * Reverses every dispatch of an order without reading it (unseating): each must still be pending
 * or accepted (`dispatches` is how many the order has: their number never changes), else `refused`.
 */
export function reverseDispatchesStep(
  companyId: number,
  orderId: string,
  dispatches: number,
  at: string,
  refused: () => AppError,
): Step {
  const each = Array.from({ length: dispatches }, (_, i) => i);
  const update = {
    TableName: tableName(),
    Key: orderEntity.key(companyId, orderId),
    UpdateExpression: `SET ${each.map((i) => `dispatches[${i}].#st = :reversed, dispatches[${i}].updatedAt = :at`).join(', ')}, updatedAt = :at ADD version :one`,
    ConditionExpression: [
      'attribute_exists(pk)',
      ...each.map((i) => `dispatches[${i}].#st IN (:pending, :accepted)`),
    ].join(' AND '),
    ExpressionAttributeNames: { '#st': 'status' },
    ExpressionAttributeValues: {
      ':reversed': 'reversed',
      ':at': at,
      ':one': 1,
      ':pending': 'pending',
      ':accepted': 'accepted',
    },
  };
  return { item: { Update: update }, onConditionFailed: refused };
}

/** A coursing an order line names, which must be one of the location's (else `onMissing`, a 404 naming the line). */
export interface CoursingCheck {
  coursingId: string;
  locationId: number;
  onMissing: () => AppError;
}

/** Holds while the coursing exists at the location: checked in the write instead of read before it. */
export const coursingCheckStep = (companyId: number, c: CoursingCheck): Step =>
  checkStep(
    coursingEntity.key(companyId, c.coursingId),
    { expression: 'locationId = :loc', values: { ':loc': c.locationId } },
    c.onMissing,
  );

/** The order as the API shows it: an order stored without a waiting time shows null. */
const shown = (o: Order): Order => ({ ...o, extendedWaitingTime: o.extendedWaitingTime ?? null });

export const orders = {
  get: async (companyId: number, id: string): Promise<Order | undefined> => {
    const found = await orderEntity.get(companyId, id);
    return found && shown(found);
  },
  read: orderEntity.read,

  /** A tab's orders, oldest first: one Query per page. Not counted: `total` is exact on the last page, a lower bound before it. */
  async listByTab(companyId: number, tabId: string, page: PageRequest): Promise<Page<Order>> {
    return logPage(await readLog({ index: 'gsi1', partition: tabPartition(companyId, tabId) }, page), (item) =>
      shown(orderEntity.from(item)),
    );
  },

  /** Every order of a tab (its bill is made of them): one Query; more than 1000 is 422 (docs/purchases.md). */
  async allOfTab(companyId: number, tabId: string): Promise<Order[]> {
    return (await queryAll({ index: 'gsi1', partition: tabPartition(companyId, tabId) }, 1000)).map((item) =>
      shown(orderEntity.from(item)),
    );
  },

  /**
   * Places an order on an open tab (409 when it is not open) whose coursings are the location's,
   * with its event and the moves of the slot counters it claims (409 when the slot is full).
   */
  async place(
    companyId: number,
    order: Order,
    coursings: readonly CoursingCheck[],
    event: DomainEvent,
    slotMoves: readonly SlotCountMove[] = [],
  ): Promise<void> {
    await transact([
      orderEntity.newItemStep(companyId, order),
      orderPlacedStep(companyId, order.tabId, order.createdAt),
      ...coursings.map((c) => coursingCheckStep(companyId, c)),
      ...slotMoves.map((m) => slotCountStep(companyId, m)),
      outboxStep(event),
    ]);
  },

  /** Writes an order changed since `expectedVersion` was read (409 if someone else changed it), with its event. */
  async update(companyId: number, next: Order, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([orderEntity.versionedPutStep(companyId, next, expectedVersion), outboxStep(event)]);
  },
};
