/**
 * Tabs (bills) of bookings (docs/bookings.md#data):
 *
 *   tab   C#<cid> / TAB#<id>   version; purchaseCount, orderCount
 *
 * Tabs change only inside the transactions of their booking (tabSteps) and of orders placed on
 * them. Each change is an UpdateItem conditioned on the status the booking says the tab has, so a
 * tab is never read just to be written. The claim a tab makes on its table is in openTabs.ts.
 */
import { conflict } from '../errors';
import type { TabStatus } from '../schemas/bookingStates';
import { companyKey, defineEntity } from './entity';
import { updateStep, type Condition, type Step } from './transact';

export interface Tab {
  id: string;
  locationId: number;
  /** Null for a tab opened without a booking (a walk-in or bar tab) until seating links it to one. */
  bookingId: string | null;
  /** The table it serves; null for a booking without tables. */
  tableId: string | null;
  status: TabStatus;
  primaryUserId: number | null;
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

export const tabEntity = defineEntity({
  name: 'TAB',
  label: 'tab',
  key: (companyId: number, id: string) => companyKey(companyId, `TAB#${id}`),
  keyOf: (companyId, t: Tab) => [companyId, t.id] as const,
  fields: ['id', 'locationId', 'bookingId', 'tableId', 'status', 'primaryUserId', 'purchaseCount', 'orderCount', 'openedAt', 'closedAt', 'createdAt', 'updatedAt', 'version'],
});

/** The fields of a tab that its booking's operations change (`bookingId` only when seating links a tab opened without one). */
export type TabChange = Partial<Pick<Tab, 'status' | 'tableId' | 'bookingId' | 'openedAt' | 'closedAt'>>;

export type TabWrite =
  | { create: Tab }
  | {
      id: string;
      /** The status the tab must still have. */
      expectedStatus: TabStatus;
      set: TabChange;
      /** Also require that nothing was bought or ordered on it (unseating). */
      untouched?: boolean;
      /** Also require that it belongs to no booking (seating links it). */
      unlinked?: boolean;
    };

/** The steps that make or change tabs, at time `at`. */
export function tabSteps(companyId: number, writes: readonly TabWrite[], at: string): Step[] {
  return writes.map((w): Step => {
    if ('create' in w) return tabEntity.newItemStep(companyId, w.create);
    const condition: Condition = { expression: '#st = :expected', names: { '#st': 'status' }, values: { ':expected': w.expectedStatus } };
    if (w.untouched) {
      condition.expression += ' AND purchaseCount = :zero AND orderCount = :zero';
      condition.values![':zero'] = 0;
    }
    if (w.unlinked) {
      condition.expression += ' AND (attribute_not_exists(bookingId) OR attribute_type(bookingId, :null))';
      condition.values![':null'] = 'NULL';
    }
    return updateStep(tabEntity.key(companyId, w.id), { ...w.set, updatedAt: at }, {
      add: { version: 1 },
      condition,
      onConditionFailed: () => conflict(`Tab ${w.id} was changed by another request; read the booking again and retry`),
    });
  });
}

/** An order placed on the tab: counted (unseating refuses then), only while the tab is open. */
export function orderPlacedStep(companyId: number, tabId: string, at: string): Step {
  return updateStep(tabEntity.key(companyId, tabId), { updatedAt: at }, {
    add: { orderCount: 1, version: 1 },
    condition: { expression: '#st = :open', names: { '#st': 'status' }, values: { ':open': 'open' } },
    onConditionFailed: () => conflict(`Tab ${tabId} is not open: orders are placed on the tab of a seated booking (use the pre-order before)`),
  });
}

export const tabs = {
  get: tabEntity.get,
  /** A read of one tab, to send with others in one round trip. */
  read: (companyId: number, id: string) => tabEntity.read(companyId, id),
  /** Reads of several tabs (those that exist, in the order asked), to send with others in one round trip. */
  readMany: (companyId: number, ids: readonly string[]) => tabEntity.readMany(ids.map((id) => [companyId, id] as [number, string])),
};
