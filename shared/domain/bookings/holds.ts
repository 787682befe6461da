/**
 * Table holds kept per table and local day (docs/bookings.md, "No double booking"). Pure: the
 * operation reads the table-day items `holdReads` names (before the zone and the settings are
 * known, those of every date `possibleHoldDates` names) and writes back what `holdWrites` answers,
 * each with a condition on the version it read.
 *
 * A hold is stored in every local day its interval touches. A booking reads (and writes, so that
 * the version moves) every day its interval *plus the buffer on either side* touches: any hold it
 * could clash with overlaps that range, so it is stored in one of those days, and two clashing
 * bookings therefore always write a common item.
 */
import { DateTime } from 'luxon';
import type { Booking } from '../../data/bookings';
import type { DiningTable } from '../../data/tables';
import type { TableDay, TableDayWrite } from '../../data/tableDays';
import { AppError } from '../../errors';
import { bookingSettingsFields } from '../../schemas/bookingSettings';
import { firstClash, type Hold } from './occupancy';
import { tableAt, type RequestedTables } from './requestTables';
import { activeStatuses } from './states';
import { intervalOf, localDateTime, type Interval } from './time';

const MINUTE = 60_000;

/** The longest buffer the booking settings allow: the guard days of any hold lie within it of the hold. */
export const MAX_BUFFER_MINUTES = bookingSettingsFields.bufferMinutes.maximum!;

/** Whether the booking holds its tables (and so counts among its guest's active bookings, rules.ts). */
export const holdsTables = (b: Pick<Booking, 'status'>) => activeStatuses.includes(b.status);

/** The local dates (YYYY-MM-DD) in `zone` that the half-open interval [startMs, endMs) touches. */
export function localDates({ startMs, endMs }: Interval, zone: string): string[] {
  const last = DateTime.fromMillis(Math.max(startMs, endMs - 1), { zone }).toISODate()!;
  const dates: string[] = [];
  for (
    let day = DateTime.fromMillis(startMs, { zone }).startOf('day');
    dates.at(-1) !== last;
    day = day.plus({ days: 1 })
  )
    dates.push(day.toISODate()!);
  return dates;
}

/** The days a hold is stored in (`hold`) and the days a booking must read and write to place it (`guard`, a superset). */
export function holdDays(slot: Interval, bufferMinutes: number, zone: string): { hold: string[]; guard: string[] } {
  const buffer = bufferMinutes * MINUTE;
  return {
    hold: localDates(slot, zone),
    guard: localDates({ startMs: slot.startMs - buffer, endMs: slot.endMs + buffer }, zone),
  };
}

/** Whether a stored hold has lapsed at `nowMs` (only a hold with an expiry, a waitlist offer's, ever does). */
const lapsed = (stored: readonly number[], nowMs: number) => stored[2] !== undefined && stored[2] <= nowMs;

/** The distinct holds in some table-day items (a hold that spans midnight is in two) that still hold at `nowMs`. */
export function holdsOf(days: readonly TableDay[], nowMs = Date.now()): Hold[] {
  const byBooking = new Map<string, Hold>();
  for (const day of days) {
    for (const [bookingId, stored] of Object.entries(day.holds))
      if (!lapsed(stored, nowMs)) byBooking.set(bookingId, { bookingId, startMs: stored[0], endMs: stored[1] });
  }
  return [...byBooking.values()];
}

/** The hold a booking has on its tables, to drop without reading (cancel, no-show, complete). */
export const releaseOf = (b: Booking) => ({ tableIds: b.tableIds, dates: holdDays(intervalOf(b), 0, b.timezone).hold });

export interface HoldRequest {
  bookingId: string;
  /** Every table-day item read: the guard days of the new tables, and the days the old holds are in. */
  read: readonly TableDay[];
  /** The tables the booking holds from now on, and when. */
  tableIds: readonly string[];
  slot: Interval;
  /** The days the new hold is stored in (holdDays(…).hold). */
  holdDates: readonly string[];
  bufferMinutes: number;
  /** When the new hold lapses by itself (a waitlist offer); undefined: it holds until released. */
  expiresMs?: number | undefined;
  /** The moment the plan is made at (lapsed holds clash with nothing and are dropped); now by default. */
  nowMs?: number;
}

export type HoldPlan = { writes: TableDayWrite[] } | { clash: { tableId: string; with: Hold } };

/**
 * Places the booking's hold on its tables, moving it off the ones (or the days) it leaves: every
 * item read is written back (its version moves), without the booking's old hold, with the new one
 * where it belongs. Answers the first clash instead when a table is taken.
 */
export function planHolds(r: HoldRequest): HoldPlan {
  const nowMs = r.nowMs ?? Date.now();
  const candidate: Hold = { bookingId: r.bookingId, ...r.slot };
  for (const tableId of r.tableIds) {
    const clash = firstClash(
      holdsOf(
        r.read.filter((d) => d.tableId === tableId),
        nowMs,
      ),
      candidate,
      r.bufferMinutes,
    );
    if (clash) return { clash: { tableId, with: clash } };
  }
  const writes = r.read.map((day): TableDayWrite => {
    const holds = Object.fromEntries(
      Object.entries(day.holds).filter(([id, stored]) => id !== r.bookingId && !lapsed(stored, nowMs)),
    );
    if (r.tableIds.includes(day.tableId) && r.holdDates.includes(day.date))
      holds[r.bookingId] =
        r.expiresMs === undefined ? [r.slot.startMs, r.slot.endMs] : [r.slot.startMs, r.slot.endMs, r.expiresMs];
    return { tableId: day.tableId, date: day.date, holds, expectedVersion: day.version };
  });
  return { writes };
}

/** A booking placing (or moving) its hold. */
export interface Placement {
  bookingId: string;
  /** The tables the request names, and the field that named them. */
  requested: RequestedTables;
  slot: Interval;
  zone: string;
  bufferMinutes: number;
  /** Where the booking held its tables until now (a move), else undefined. */
  before?: { tableIds: readonly string[]; slot: Interval } | undefined;
  /** When the hold lapses by itself (a waitlist offer's); undefined: it holds until released. */
  expiresMs?: number | undefined;
}

/** The table-day items a placement reads: the guard days of its tables, and the days its old hold is in. */
export function holdReads(p: Placement): { tableId: string; date: string }[] {
  const wanted = new Map<string, { tableId: string; date: string }>();
  const want = (tableId: string, date: string) => wanted.set(`${tableId}|${date}`, { tableId, date });
  const { guard } = holdDays(p.slot, p.bufferMinutes, p.zone);
  for (const tableId of p.requested.tableIds) for (const date of guard) want(tableId, date);
  if (p.before)
    for (const tableId of p.before.tableIds)
      for (const date of holdDays(p.before.slot, 0, p.zone).hold) want(tableId, date);
  return [...wanted.values()];
}

/**
 * The writes that place the hold, given the items `holdReads` named as read; 409 naming the
 * table's place in the request (and `tables`' name for it) when one is taken.
 */
export function holdWrites(p: Placement, read: readonly TableDay[], tables: readonly DiningTable[]): TableDayWrite[] {
  const { tableIds } = p.requested;
  const plan = planHolds({
    bookingId: p.bookingId,
    read,
    tableIds,
    slot: p.slot,
    holdDates: holdDays(p.slot, 0, p.zone).hold,
    bufferMinutes: p.bufferMinutes,
    expiresMs: p.expiresMs,
  });
  if ('writes' in plan) return plan.writes;
  const { tableId, with: other } = plan.clash;
  const name = tables.find((t) => t.id === tableId)?.name ?? tableId;
  const from = localDateTime(other.startMs, p.zone);
  const to = localDateTime(other.endMs, p.zone);
  const message = `is booked ${from.date} ${from.time}-${to.time} (with ${p.bufferMinutes} minutes between bookings)`;
  throw new AppError('CONFLICT', `Table ${name} is already booked at that time`, [
    { path: tableAt(p.requested, tableId), message },
  ]);
}

/** The length of a booking whose end is not given: at most the longest default duration the settings allow. */
export const MAX_DEFAULT_DURATION_MINUTES = bookingSettingsFields.defaultDurationMinutes.maximum!;

/**
 * The local dates a hold could touch (guard days included) before the location's zone and
 * settings are read: from the wall time of the start less the longest buffer to the end's wall
 * time (`endTime`, on the next day when not after the start; else the start plus
 * `minutes`) plus the longest buffer, with an hour either side for a clock change. An operation
 * reads these table days with everything else, then uses those `holdReads` names (a day of a
 * zone whose clocks jump further is read then: holdPlacement.ts).
 */
export function possibleHoldDates(
  bookingDate: string,
  startTime: string,
  end: { endTime: string } | { minutes: number },
): string[] {
  const start = DateTime.fromISO(`${bookingDate}T${startTime}`, { zone: 'UTC' });
  const endAt =
    'endTime' in end
      ? DateTime.fromISO(`${bookingDate}T${end.endTime}`, { zone: 'UTC' }).plus({
          days: end.endTime <= startTime ? 1 : 0,
        })
      : start.plus({ minutes: end.minutes });
  const margin = { minutes: MAX_BUFFER_MINUTES + 60 };
  return localDates({ startMs: start.minus(margin).toMillis(), endMs: endAt.plus(margin).toMillis() + 1 }, 'UTC');
}
