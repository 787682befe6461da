/**
 * Tabs (bills) of bookings (docs/bookings.md#data):
 *
 *   tab   C#<cid> / TAB#<id>   version; purchaseCount, paidCents, orderCount, anonymousMembers
 *         gsi1 C#<cid>#L#<loc:12>#OPENTABS / <openedAt>#<id>   only while the tab is open (close-all)
 *
 * Tabs change inside the transactions of their booking (tabSteps), of orders placed on them, of
 * purchases paying them (purchaseStep) and of the tab operations (anonymous members, close-all).
 * Each change is an UpdateItem conditioned on the status the booking says the tab has (or, for a
 * purchase, the version read), so a tab is never read just to be written. The claim a tab makes
 * on its table is in openTabs.ts.
 */
import type { Static } from '@sinclair/typebox';
import { conflict } from '../errors';
import type { TabStatus } from '../schemas/bookingStates';
import { TabView } from '../schemas/purchases';
import type { Page } from '../page';
import { companyKey, defineEntity, withOptional } from './entity';
import { keys } from './keys';
import { logPage, readLog, type PageRequest } from './paging';
import { updateStep, type Condition, type Step } from './transact';

/**
 * A tab as stored: as shown (TabView), except that `paidCents` (what its purchases paid towards the
 * bill, tips and fees not included) and `anonymousMembers` (guests added without a name) may be
 * absent on a tab stored before they existed: absent reads as 0. `bookingId` is null for a tab
 * opened without a booking (a walk-in or bar tab) until seating links it to one; `tableId` null for
 * a booking without tables; `purchaseCount` refuses unseating once there is one; `orderCount`
 * counts orders placed on the tab while open (the seating's pre-order dispatch is not one).
 */
const StoredTab = withOptional(TabView, ['paidCents', 'anonymousMembers']);
export type Tab = Static<typeof StoredTab>;

/** The index partition of a location's open tabs (sparse: a tab is in it only while open). */
const openTabsPartition = (companyId: number, locationId: number) =>
  `${keys.company(companyId)}#L#${keys.pad(locationId)}#OPENTABS`;

/** The open-tabs index keys of a tab that is (or becomes) open at `openedAt`; unset (REMOVE) otherwise. */
const openIndex = (companyId: number, locationId: number, id: string, open: boolean, openedAt: string) =>
  open
    ? { gsi1pk: openTabsPartition(companyId, locationId), gsi1sk: `${openedAt}#${id}` }
    : { gsi1pk: undefined, gsi1sk: undefined };

export const tabEntity = defineEntity({
  name: 'TAB',
  label: 'tab',
  key: (companyId: number, id: string) => companyKey(companyId, `TAB#${id}`),
  schema: StoredTab,
  keyOf: (companyId, t) => [companyId, t.id] as const,
  indexes: (companyId, t) =>
    t.status === 'open' ? openIndex(companyId, t.locationId, t.id, true, t.openedAt ?? t.createdAt) : {},
});

/** The fields of a tab that its booking's operations change (`bookingId` only when seating links a tab opened without one). */
type TabChange = Partial<Pick<Tab, 'status' | 'tableId' | 'bookingId' | 'openedAt' | 'closedAt'>>;

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

/**
 * The steps that make or change tabs of the location, at time `at`. A status change also moves
 * the tab in or out of the location's open-tabs index.
 */
export function tabSteps(companyId: number, locationId: number, writes: readonly TabWrite[], at: string): Step[] {
  return writes.map((w): Step => {
    if ('create' in w) return tabEntity.newItemStep(companyId, w.create);
    const condition: Condition = {
      expression: '#st = :expected',
      names: { '#st': 'status' },
      values: { ':expected': w.expectedStatus },
    };
    if (w.untouched) {
      condition.expression += ' AND purchaseCount = :zero AND orderCount = :zero';
      condition.values![':zero'] = 0;
    }
    if (w.unlinked) {
      condition.expression += ' AND (attribute_not_exists(bookingId) OR attribute_type(bookingId, :null))';
      condition.values![':null'] = 'NULL';
    }
    const index =
      w.set.status === undefined
        ? {}
        : openIndex(companyId, locationId, w.id, w.set.status === 'open', w.set.openedAt ?? at);
    return updateStep(
      tabEntity.key(companyId, w.id),
      { ...w.set, ...index, updatedAt: at },
      {
        add: { version: 1 },
        condition,
        onConditionFailed: () =>
          conflict(`Tab ${w.id} was changed by another request; read the booking again and retry`),
      },
    );
  });
}

/** An order placed on the tab: counted (unseating refuses then), only while the tab is open. */
export function orderPlacedStep(companyId: number, tabId: string, at: string): Step {
  return updateStep(
    tabEntity.key(companyId, tabId),
    { updatedAt: at },
    {
      add: { orderCount: 1, version: 1 },
      condition: { expression: '#st = :open', names: { '#st': 'status' }, values: { ':open': 'open' } },
      onConditionFailed: () =>
        conflict(
          `Tab ${tabId} is not open: orders are placed on the tab of a seated booking (use the pre-order before)`,
        ),
    },
  );
}

/** A purchase recorded on a tab read at `read.version`: its paid total moves and, when it is paid in full, it closes. */
export interface TabPayment {
  read: Pick<Tab, 'id' | 'locationId' | 'status' | 'version'>;
  paidCents: number;
  /** Paid in full while open: the tab closes at `at`. */
  closes: boolean;
}

const notAsRead = (id: string) => () =>
  conflict(`Tab ${id} was changed by another request (an order, a payment or seating); read it again and retry`);

/** The tab's side of a purchase: conditioned on the version read, so the bill it was checked against is still the bill. */
export function purchaseStep(companyId: number, p: TabPayment, at: string): Step {
  const { id, locationId, status, version } = p.read;
  const close = p.closes ? { status: 'closed', closedAt: at, ...openIndex(companyId, locationId, id, false, at) } : {};
  return updateStep(
    tabEntity.key(companyId, id),
    { paidCents: p.paidCents, ...close, updatedAt: at },
    {
      add: { purchaseCount: 1, version: 1 },
      condition: {
        expression: 'version = :read AND #st = :status',
        names: { '#st': 'status' },
        values: { ':read': version, ':status': status },
      },
      onConditionFailed: notAsRead(id),
    },
  );
}

/** Anonymous guests join a tab that is not closed. */
export function anonymousMembersStep(companyId: number, tabId: string, count: number, at: string): Step {
  return updateStep(
    tabEntity.key(companyId, tabId),
    { updatedAt: at },
    {
      add: { anonymousMembers: count, version: 1 },
      condition: {
        expression: 'attribute_exists(pk) AND #st <> :closed',
        names: { '#st': 'status' },
        values: { ':closed': 'closed' },
      },
      onConditionFailed: () => conflict(`Tab ${tabId} is closed`),
    },
  );
}

export const tabs = {
  get: tabEntity.get,
  /** A read of one tab, to send with others in one round trip. */
  read: (companyId: number, id: string) => tabEntity.read(companyId, id),
  /** Reads of several tabs (those that exist, in the order asked), to send with others in one round trip. */
  readMany: (companyId: number, ids: readonly string[]) =>
    tabEntity.readMany(ids.map((id) => [companyId, id] as [number, string])),
  /** A location's open tabs, oldest opened first: one Query of the open-tabs index per page. */
  async listOpen(companyId: number, locationId: number, page: PageRequest): Promise<Page<Tab>> {
    return logPage(
      await readLog({ index: 'gsi1', partition: openTabsPartition(companyId, locationId) }, page),
      tabEntity.from,
    );
  },
};
