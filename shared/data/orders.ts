/**
 * Orders on tabs and their kitchen dispatches (decisions.md §7):
 *
 *   order   C#<cid> / ORDER#<id>   gsi1 C#<cid>#TAB#<tabId>#ORDERS / <createdAt>#<id>   version
 *
 * Dispatches are embedded in their order (at most one per coursing), so an order and its
 * dispatches change together under one version.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DispatchStatus } from '../domain/bookings/dispatches';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { db, tableName } from './client';
import { toAppError } from './errors';

import { keys, pick } from './keys';
import { logPage, readLog, type PageRequest } from './paging';
import { orderPlacedStep } from './tabs';
import { transact, versionedPutStep, type Step } from './transact';
import { outboxStep } from './outbox';

interface Modification {
  name: string;
  price: number;
}

/** A line of an order or a pre-order; prices in minor units. */
export interface OrderLine {
  itemId: number | null;
  name: string;
  price: number;
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

export interface Order {
  id: string;
  tabId: string;
  bookingId: string;
  locationId: number;
  /** `pre_order`: the booking's pre-order, sent when it was seated; `order`: placed on the open tab. */
  kind: 'order' | 'pre_order';
  items: OrderLine[];
  dispatches: Dispatch[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

const fields = ['id', 'tabId', 'bookingId', 'locationId', 'kind', 'items', 'dispatches', 'createdAt', 'updatedAt', 'version'] as const satisfies readonly (keyof Order)[];
export const toOrder = (i: Record<string, unknown>) => pick<Order>(i, fields);

const key = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `ORDER#${id}` });
/** For reads that batch an order with other items (unseating). */
export const orderKey = key;
const tabPartition = (companyId: number, tabId: string) => `${keys.company(companyId)}#TAB#${tabId}#ORDERS`;
const item = (companyId: number, o: Order) => ({
  ...key(companyId, o.id),
  gsi1pk: tabPartition(companyId, o.tabId),
  gsi1sk: `${o.createdAt}#${o.id}`,
  entity: 'ORDER',
  companyId,
  ...o,
});

/** An order to write inside a booking's transaction: new (no expectedVersion) or at the version read. */
export interface OrderWrite {
  order: Order;
  expectedVersion?: number;
}

export function orderSteps(companyId: number, writes: readonly OrderWrite[]): Step[] {
  return writes.map((w) =>
    w.expectedVersion === undefined
      ? { item: { Put: { TableName: tableName(), Item: item(companyId, w.order), ConditionExpression: 'attribute_not_exists(pk)' } } }
      : versionedPutStep(item(companyId, w.order), w.expectedVersion, 'order'),
  );
}

export const orders = {
  async get(companyId: number, id: string): Promise<Order | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, id) }));
      return out.Item ? toOrder(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** A tab's orders, oldest first: one Query per page. Not counted: `total` is exact on the last page, a lower bound before it. */
  async listByTab(companyId: number, tabId: string, page: PageRequest): Promise<Page<Order>> {
    return logPage(await readLog({ index: 'gsi1', partition: tabPartition(companyId, tabId) }, page), toOrder);
  },

  /** Places an order on an open tab (409 when it is not open), with its event. */
  async place(companyId: number, order: Order, event: DomainEvent): Promise<void> {
    await transact([...orderSteps(companyId, [{ order }]), orderPlacedStep(companyId, order.tabId, order.createdAt), outboxStep(event)]);
  },

  /** Writes an order changed since `expectedVersion` was read (409 if someone else changed it), with its event. */
  async update(companyId: number, next: Order, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([...orderSteps(companyId, [{ order: next, expectedVersion }]), outboxStep(event)]);
  },
};
