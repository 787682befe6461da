/**
 * What the booking operations share: reading a booking for a caller, placing and releasing table
 * holds (with the retry that concurrent bookings of a table need), and turning tab plans into
 * the writes of a booking's transaction.
 */
import type { Principal } from '../../auth/principal';
import { bookings, Contention, type Booking, type BookingTab } from '../../data/bookings';
import type { DiningTable } from '../../data/tables';
import type { OpenTabChange, TabWrite } from '../../data/tabs';
import { AppError, notFound } from '../../errors';
import { assertLocationAllowed } from '../access';
import { holdDays, planHolds, type Interval, type TableDayWrite } from './holds';
import { ruleError, tooManyActiveBookings } from './rules';
import { activeStatuses } from './states';
import { diffClaims, openTabClaims } from './tabs';
import { localDateTime } from './time';

/** The booking, for a caller who may act on its location: 404 for an unknown id or another company's, 403 for another location. */
export async function bookingFor(principal: Principal, id: string): Promise<Booking> {
  const found = await bookings.get(principal.companyId, id);
  if (!found) throw notFound(`Booking ${id}`);
  assertLocationAllowed(principal, found.locationId);
  return found;
}

export const intervalOf = (b: Pick<Booking, 'startsAt' | 'endsAt'>): Interval => ({ startMs: Date.parse(b.startsAt), endMs: Date.parse(b.endsAt) });

/** Whether the booking holds its tables (and counts among its guest's active bookings). */
export const holdsTables = (b: Pick<Booking, 'status'>) => activeStatuses.includes(b.status);

/** How the guest's count of active bookings moves from `prev` (none: a new booking) to `next`; when it grows, at most to `max`. */
export const activeChange = (prev: Booking | undefined, next: Booking, max: number | null = null) => ({
  delta: Number(holdsTables(next)) - Number(prev ? holdsTables(prev) : false),
  cap: max === null ? undefined : { max, error: () => ruleError(tooManyActiveBookings(max)) },
});

/** Tries a write that places holds a few times: another booking of the same table-day may commit between the read and the write. */
export async function retryingContention<T>(attempt: () => Promise<T>, attempts = 6): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof Contention) || n >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * n));
    }
  }
}

export interface PlaceHolds {
  bookingId: string;
  tableIds: readonly string[];
  slot: Interval;
  zone: string;
  bufferMinutes: number;
  /** Where the booking held its tables until now (a move), else undefined. */
  before?: { tableIds: readonly string[]; slot: Interval } | undefined;
  /** Names and places of the tables, for the answer when one is taken. */
  tables: readonly DiningTable[];
  /** The request field that named the tables (`/tableIds` or `/tableId`). */
  field: string;
}

/** The place of a table in the request: `/tableIds/<i>`, or `/tableId` when the legacy field named it. */
export const tableAt = (field: string, tableIds: readonly string[], tableId: string) => (field === '/tableIds' ? `/tableIds/${tableIds.indexOf(tableId)}` : field);

/** 404 for a table the location does not have (another location's or company's included), naming its place. */
export const tableNotFound = (locationId: number, tableId: string, at: string) =>
  new AppError('NOT_FOUND', `Table ${tableId} not found at location ${locationId}`, [{ path: at, message: 'no table with this id at this location' }]);

/** Reads the table days the hold needs and answers their writes; 409 naming the table when one is taken. */
export async function holdWrites(companyId: number, r: PlaceHolds): Promise<TableDayWrite[]> {
  const days = holdDays(r.slot, r.bufferMinutes, r.zone);
  const wanted = new Map<string, { tableId: string; date: string }>();
  const want = (tableId: string, date: string) => wanted.set(`${tableId}|${date}`, { tableId, date });
  for (const tableId of r.tableIds) for (const date of days.guard) want(tableId, date);
  if (r.before) for (const tableId of r.before.tableIds) for (const date of holdDays(r.before.slot, 0, r.zone).hold) want(tableId, date);
  if (wanted.size === 0) return [];

  const read = await bookings.tableDays(companyId, [...wanted.values()]);
  const plan = planHolds({ bookingId: r.bookingId, read, tableIds: r.tableIds, slot: r.slot, holdDates: days.hold, bufferMinutes: r.bufferMinutes });
  if ('clash' in plan) {
    const { tableId, with: other } = plan.clash;
    const name = r.tables.find((t) => t.id === tableId)?.name ?? tableId;
    const from = localDateTime(other.startMs, r.zone);
    const to = localDateTime(other.endMs, r.zone);
    const message = `is booked ${from.date} ${from.time}-${to.time} (with ${r.bufferMinutes} minutes between bookings)`;
    throw new AppError('CONFLICT', `Table ${name} is already booked at that time`, [{ path: tableAt(r.field, r.tableIds, tableId), message }]);
  }
  return plan.writes;
}

/** The hold a booking has on its tables, to drop without reading (cancel, no-show, complete). */
export const releaseOf = (b: Booking) => ({ tableIds: b.tableIds, dates: holdDays(intervalOf(b), 0, b.timezone).hold });

export const withTabs = (b: Omit<Booking, 'tab' | 'tabs'>, tabs: BookingTab[]): Booking => ({ ...b, tab: tabs[0]!, tabs });

/** The tables the booking's open tabs claim: each table by the tab serving it, while that tab is open. */
export function claimsOf(b: Pick<Booking, 'tabs' | 'tableIds'>): Map<string, string> {
  const open = new Set(b.tabs.filter((t) => t.status === 'open').map((t) => t.id));
  return new Map([...openTabClaims(b.tabs, b.tableIds)].filter(([, tabId]) => open.has(tabId)));
}

/** The claim changes between two states of a booking. */
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
      preOrder: [],
      purchaseCount: 0,
      orderCount: 0,
      openedAt: t.status === 'open' ? at : null,
      closedAt: null,
      createdAt: at,
      updatedAt: at,
      version: 1,
    },
  }));

/** Writes moving existing tabs from their state in `before` to `after` (same ids); `at` stamps openedAt/closedAt. */
export function tabChanges(before: readonly BookingTab[], after: readonly BookingTab[], at: string, untouched = false): TabWrite[] {
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
