/**
 * Orders on tabs and their kitchen dispatches:
 *
 *   order   C#<cid> / ORDER#<id>   gsi1 C#<cid>#TAB#<tabId>#ORDERS / <createdAt>#<id>   version
 *
 * Dispatches are embedded in their order (at most one per coursing), so an order and its
 * dispatches change together under one version.
 */
import type { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { DispatchStatus } from '../schemas/bookingStates';
import type { CostCenter } from '../schemas/items';
import { tableName } from './client';
import { slotCountStep, type SlotCountMove } from './capacitySettings';
import { coursingEntity } from './coursings';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { logPage, queryAll, readLog, type PageRequest } from './paging';
import { orderPlacedStep } from './tabs';
import { checkStep, transact, type Step } from './transact';

interface Modification {
  name: string;
  price: number;
}

/** A line of an order or a pre-order; prices in minor units. */
export interface OrderLine {
  itemId: number | null;
  name: string;
  price: number;
  /** Percent: the line's own, else its item's; absent when neither says. */
  vatRate?: number;
  /** The line's own, else its item's; absent when neither says. */
  costCenter?: CostCenter | null;
  quantity: number;
  coursingId: string | null;
  modifications: Modification[];
}

export interface Dispatch {
  id: string;
  coursingId: string | null;
  status: DispatchStatus;
  items: OrderLine[];
  updatedAt: string;
}

/** The extended waiting time that ran when an order was placed (docs/capacity.md). */
export interface OrderDelay {
  delayInMinutes: number | null;
  endsAt: string;
}

export interface Order {
  id: string;
  tabId: string;
  /** The tab's booking when the order was placed (null on a tab opened without one). */
  bookingId: string | null;
  locationId: number;
  /** `pre_order`: the booking's pre-order, sent when it was seated; `order`: placed on the open tab. */
  kind: 'order' | 'pre_order';
  items: OrderLine[];
  dispatches: Dispatch[];
  /**
   * The extended waiting time running when the order was placed on the tab; null when none ran.
   * The order seating makes of a pre-order stores none (it reads as null).
   */
  extendedWaitingTime?: OrderDelay | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const tabPartition = (companyId: number, tabId: string) => `${keys.company(companyId)}#TAB#${tabId}#ORDERS`;

export const orderEntity = defineEntity({
  name: 'ORDER',
  label: 'order',
  key: (companyId: number, id: string) => companyKey(companyId, `ORDER#${id}`),
  keyOf: (companyId, o: Order) => [companyId, o.id] as const,
  fields: [
    'id',
    'tabId',
    'bookingId',
    'locationId',
    'kind',
    'items',
    'dispatches',
    'extendedWaitingTime',
    'createdAt',
    'updatedAt',
    'version',
  ],
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
