/**
 * Which tabs a booking has for its tables, which tab each table's "open tab" claim points to, and
 * the tab and claim writes that carry a change out. Pure. The primary tab (tabs[0]) is made with
 * the booking and never replaced by a table change: it serves the primary table (tableIds[0], or
 * none) and keeps the pre-order. With the `per_resource` strategy every other table gets a tab of
 * its own; with `single`, only a split (while seated) gives them one.
 */
import type { Booking, BookingTab, TabStrategy } from '../../data/bookings';
import type { OpenTabChange } from '../../data/openTabs';
import type { TabWrite } from '../../data/tabs';
import type { TabStatus } from './states';

export interface TabsPlan {
  /** The booking's tabs afterwards, primary first, in the order of their tables. */
  tabs: BookingTab[];
  /** Tabs to make. */
  created: BookingTab[];
  /** Existing tabs whose table or status changes: [before, after]. */
  changed: [BookingTab, BookingTab][];
  /** Tables that lose an open tab of their own (the change needs confirmRemoveActiveTab). */
  activeRemoved: string[];
}

/** The tabs of a new booking: the primary, and with per_resource one per other table. */
export function initialTabs(
  tableIds: readonly string[],
  strategy: TabStrategy,
  open: boolean,
  newId: () => string,
): BookingTab[] {
  const status: TabStatus = open ? 'open' : 'pre_arrival';
  const [primary, ...rest] = tableIds;
  return [
    { id: newId(), tableId: primary ?? null, status },
    ...(strategy === 'per_resource' ? rest.map((tableId) => ({ id: newId(), tableId, status })) : []),
  ];
}

/**
 * The tabs after the tables or the strategy change. A non-primary tab whose table goes is closed
 * (and dropped from the booking's list); the primary follows the new primary table.
 */
export function planTabs(
  current: readonly BookingTab[],
  tableIds: readonly string[],
  strategy: TabStrategy,
  seated: boolean,
  newId: () => string,
): TabsPlan {
  const [primary, ...others] = current as [BookingTab, ...BookingTab[]];
  const [first, ...rest] = tableIds;
  const nextPrimary: BookingTab = { ...primary, tableId: first ?? null };
  const keepOthers = strategy === 'per_resource' || seated;
  const kept = new Map<string, BookingTab>();
  const closing: BookingTab[] = [];
  for (const tab of others) {
    if (keepOthers && tab.tableId !== null && rest.includes(tab.tableId) && !kept.has(tab.tableId))
      kept.set(tab.tableId, tab);
    else closing.push(tab);
  }
  const created: BookingTab[] =
    strategy === 'per_resource'
      ? rest
          .filter((t) => !kept.has(t))
          .map((tableId): BookingTab => ({ id: newId(), tableId, status: seated ? 'open' : 'pre_arrival' }))
      : [];
  const byTable = new Map([...kept, ...created.map((t) => [t.tableId!, t] as const)]);
  const tabs = [nextPrimary, ...rest.filter((t) => byTable.has(t)).map((t) => byTable.get(t)!)];

  const changed: [BookingTab, BookingTab][] = closing.map((t) => [t, { ...t, status: 'closed' }]);
  if (nextPrimary.tableId !== primary.tableId) changed.push([primary, nextPrimary]);
  const activeRemoved = [
    ...closing.filter((t) => t.status === 'open' && t.tableId !== null).map((t) => t.tableId!),
    ...(primary.status === 'open' && primary.tableId !== null && !tableIds.includes(primary.tableId)
      ? [primary.tableId]
      : []),
  ];
  return { tabs, created, changed, activeRemoved };
}

/** The booking with its tabs: `tab` is the primary, `tabs[0]`. */
export const withTabs = (b: Omit<Booking, 'tab' | 'tabs'>, tabs: BookingTab[]): Booking => ({
  ...b,
  tab: tabs[0]!,
  tabs,
});

/** The tab serving each table of the booking: its own tab, else the primary. */
export function openTabClaims(tabs: readonly BookingTab[], tableIds: readonly string[]): Map<string, string> {
  const own = new Map(
    tabs
      .slice(1)
      .filter((t) => t.tableId !== null)
      .map((t) => [t.tableId!, t.id]),
  );
  return new Map(tableIds.map((tableId) => [tableId, own.get(tableId) ?? tabs[0]!.id]));
}

export interface ClaimsDiff {
  claim: { tableId: string; tabId: string }[];
  repoint: { tableId: string; tabId: string }[];
  release: string[];
}

/** What changes between two sets of claims (either may be empty: not seated). */
export function diffClaims(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): ClaimsDiff {
  const diff: ClaimsDiff = { claim: [], repoint: [], release: [] };
  for (const [tableId, tabId] of after) {
    const was = before.get(tableId);
    if (was === undefined) diff.claim.push({ tableId, tabId });
    else if (was !== tabId) diff.repoint.push({ tableId, tabId });
  }
  for (const tableId of before.keys()) if (!after.has(tableId)) diff.release.push(tableId);
  return diff;
}

/** The tables the booking's open tabs claim: each table by the tab serving it, while that tab is open. */
export function claimsOf(b: Pick<Booking, 'tabs' | 'tableIds'>): Map<string, string> {
  const open = new Set(b.tabs.filter((t) => t.status === 'open').map((t) => t.id));
  return new Map([...openTabClaims(b.tabs, b.tableIds)].filter(([, tabId]) => open.has(tabId)));
}

/** The claim changes between two states of a booking (`prev` undefined: a new booking). */
export function claimChanges(prev: Pick<Booking, 'tabs' | 'tableIds'> | undefined, next: Booking): OpenTabChange[] {
  const diff = diffClaims(prev ? claimsOf(prev) : new Map(), claimsOf(next));
  return [
    ...diff.release.map((tableId) => ({ op: 'release' as const, tableId, bookingId: next.id })),
    ...diff.repoint.map((c) => ({ op: 'repoint' as const, ...c, bookingId: next.id })),
    ...diff.claim.map((c) => ({ op: 'claim' as const, ...c, bookingId: next.id })),
  ];
}

/** Writes making new tabs of the booking (for its primary guest), at time `at`. */
export const tabCreates = (b: Booking, created: readonly BookingTab[], at: string): TabWrite[] =>
  created.map((t) => ({
    create: {
      id: t.id,
      locationId: b.locationId,
      bookingId: b.id,
      tableId: t.tableId,
      status: t.status,
      primaryUserId: b.primaryUserId,
      purchaseCount: 0,
      orderCount: 0,
      openedAt: t.status === 'open' ? at : null,
      closedAt: null,
      createdAt: at,
      updatedAt: at,
      version: 1,
    },
  }));

/** The tab writes that carry out a plan of `planTabs` for the booking as it is after it (none without a plan). */
export function plannedTabWrites(plan: TabsPlan | undefined, next: Booking, at: string): TabWrite[] {
  const changed = plan?.changed ?? [];
  return [
    ...tabChanges(
      changed.map(([before]) => before),
      changed.map(([, after]) => after),
      at,
    ),
    ...tabCreates(next, plan?.created ?? [], at),
  ];
}

/** Writes moving existing tabs from their state in `before` to `after` (same ids); `at` stamps openedAt/closedAt. */
export function tabChanges(
  before: readonly BookingTab[],
  after: readonly BookingTab[],
  at: string,
  untouched = false,
): TabWrite[] {
  return after.flatMap((next): TabWrite[] => {
    const prev = before.find((t) => t.id === next.id);
    if (!prev || (prev.status === next.status && prev.tableId === next.tableId)) return [];
    return [
      {
        id: next.id,
        expectedStatus: prev.status,
        set: {
          ...(prev.status !== next.status ? { status: next.status } : {}),
          ...(prev.tableId !== next.tableId ? { tableId: next.tableId } : {}),
          ...(next.status === 'open' && prev.status !== 'open' ? { openedAt: at } : {}),
          ...(next.status === 'closed' ? { closedAt: at } : {}),
        },
        ...(untouched ? { untouched } : {}),
      },
    ];
  });
}
