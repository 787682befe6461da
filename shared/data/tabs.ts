/**
 * Tabs (bills) of bookings, and the claim that keeps one open tab per table:
 *
 *   tab        C#<cid> / TAB#<id>                       version; purchaseCount, orderCount
 *   open tab   C#<cid>#TABLE#<tableId> / OPENTAB        tabId, bookingId: the tab open on the table
 *
 * Tabs change only inside the transactions of their booking (tabSteps) and of orders placed on
 * them. Each change is an UpdateItem conditioned on the status the booking says the tab has, so a
 * tab is never read just to be written.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { TabStatus } from '../domain/bookings/states';
import { getItems } from './batch';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { orderKey, toOrder, type Order, type OrderLine } from './orders';
import { transact, type Step } from './transact';
import { outboxStep } from './outbox';

export interface Tab {
  id: string;
  locationId: number;
  bookingId: string;
  /** The table it serves; null for a booking without tables. */
  tableId: string | null;
  status: TabStatus;
  primaryUserId: number | null;
  /** Items ordered ahead of the visit, sent to the kitchen when the booking is seated. */
  preOrder: OrderLine[];
  /** Purchases recorded against the tab (the purchases area counts them; 0 until it exists). */
  purchaseCount: number;
  /** Orders placed on the tab while open (the seating's pre-order dispatch is not one). */
  orderCount: number;
  openedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const fields = [
  'id', 'locationId', 'bookingId', 'tableId', 'status', 'primaryUserId', 'preOrder', 'purchaseCount', 'orderCount', 'openedAt', 'closedAt',
  'createdAt', 'updatedAt', 'version',
] as const satisfies readonly (keyof Tab)[];
const toTab = (i: Record<string, unknown>) => pick<Tab>(i, fields);

const key = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `TAB#${id}` });
const openTabKey = (companyId: number, tableId: string) => ({ pk: `${keys.company(companyId)}#TABLE#${tableId}`, sk: 'OPENTAB' });

/** The table already has an open tab (another party sits there). */
export class TableOccupied extends AppError {
  constructor(readonly tableId: string) {
    super('CONFLICT', `Table ${tableId} already has an open tab`);
  }
}

/** The fields of a tab that its booking's operations change. */
export type TabChange = Partial<Pick<Tab, 'status' | 'tableId' | 'preOrder' | 'openedAt' | 'closedAt'>>;

export type TabWrite =
  | { create: Tab }
  | {
      id: string;
      /** The status the tab must still have. */
      expectedStatus: TabStatus;
      set: TabChange;
      /** Also require the version read (the caller acts on the tab's contents, such as its pre-order). */
      expectedVersion?: number;
      /** Also require that nothing was bought or ordered on it (unseating). */
      untouched?: boolean;
    };

const changedTab = (id: string) => conflict(`Tab ${id} was changed by another request; read the booking again and retry`);

/** The steps that make or change tabs, at time `at`. */
export function tabSteps(companyId: number, writes: readonly TabWrite[], at: string): Step[] {
  return writes.map((w): Step => {
    if ('create' in w) {
      return { item: { Put: { TableName: tableName(), Item: { ...key(companyId, w.create.id), entity: 'TAB', companyId, ...w.create }, ConditionExpression: 'attribute_not_exists(pk)' } } };
    }
    const set = Object.entries({ ...w.set, updatedAt: at });
    const names: Record<string, string> = { '#status': 'status', '#version': 'version' };
    const values: Record<string, unknown> = { ':expected': w.expectedStatus, ':one': 1 };
    set.forEach(([name, value], i) => {
      names[`#f${i}`] = name;
      values[`:f${i}`] = value;
    });
    let condition = '#status = :expected';
    if (w.expectedVersion !== undefined) {
      condition += ' AND #version = :version';
      values[':version'] = w.expectedVersion;
    }
    if (w.untouched) {
      condition += ' AND purchaseCount = :zero AND orderCount = :zero';
      values[':zero'] = 0;
    }
    return {
      item: {
        Update: {
          TableName: tableName(),
          Key: key(companyId, w.id),
          UpdateExpression: `SET ${set.map((_, i) => `#f${i} = :f${i}`).join(', ')} ADD #version :one`,
          ConditionExpression: condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
      onConditionFailed: () => changedTab(w.id),
    };
  });
}

/** A change of a table's open-tab claim, made by a booking. */
export interface OpenTabChange {
  op: 'claim' | 'repoint' | 'release';
  tableId: string;
  /** The tab that claims the table (claim, repoint). */
  tabId?: string;
  bookingId: string;
}

/** A claim is made only on a free table; a booking moves or drops only its own claims. */
export function openTabSteps(companyId: number, changes: readonly OpenTabChange[]): Step[] {
  return changes.map((c): Step => {
    const Key = openTabKey(companyId, c.tableId);
    if (c.op === 'release') {
      return {
        item: { Delete: { TableName: tableName(), Key, ConditionExpression: 'bookingId = :b', ExpressionAttributeValues: { ':b': c.bookingId } } },
        onConditionFailed: () => conflict(`Table ${c.tableId} is not held by this booking's tab`),
      };
    }
    const Item = { ...Key, entity: 'OPEN_TAB', companyId, tableId: c.tableId, tabId: c.tabId, bookingId: c.bookingId };
    return c.op === 'claim'
      ? { item: { Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' } }, onConditionFailed: () => new TableOccupied(c.tableId) }
      : {
          item: { Put: { TableName: tableName(), Item, ConditionExpression: 'bookingId = :b', ExpressionAttributeValues: { ':b': c.bookingId } } },
          onConditionFailed: () => conflict(`Table ${c.tableId} is not held by this booking's tab`),
        };
  });
}

/** An order placed on the tab: counted (unseating refuses then), only while the tab is open. */
export function orderPlacedStep(companyId: number, tabId: string, at: string): Step {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: key(companyId, tabId),
        UpdateExpression: 'SET updatedAt = :at ADD orderCount :one, #version :one',
        ConditionExpression: '#status = :open',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: { ':at': at, ':one': 1, ':open': 'open' },
      },
    },
    onConditionFailed: () => conflict(`Tab ${tabId} is not open: orders are placed on the tab of a seated booking (use the pre-order before)`),
  };
}

export const tabs = {
  async get(companyId: number, id: string): Promise<Tab | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, id) }));
      return out.Item ? toTab(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** Replaces the pre-order of a tab that is still before arrival (409 once it opened), with its event. */
  async setPreOrder(companyId: number, tabId: string, preOrder: OrderLine[], at: string, event: DomainEvent): Promise<void> {
    await transact([...tabSteps(companyId, [{ id: tabId, expectedStatus: 'pre_arrival', set: { preOrder } }], at), outboxStep(event)]);
  },

  /** Tabs by id, in the order asked (missing ones left out), and an order, in one BatchGetItem (unseating reads both). */
  async getManyWithOrder(companyId: number, ids: readonly string[], orderId: string | null): Promise<{ tabs: Tab[]; order: Order | undefined }> {
    const wanted = [...ids.map((id) => key(companyId, id)), ...(orderId ? [orderKey(companyId, orderId)] : [])];
    const found = await getItems(wanted);
    const byId = new Map(found.filter((i) => i.entity === 'TAB').map((i) => [i.id as string, toTab(i)]));
    const order = found.find((i) => i.entity === 'ORDER');
    return { tabs: ids.flatMap((id) => byId.get(id) ?? []), order: order && toOrder(order) };
  },
};
