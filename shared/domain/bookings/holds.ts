/**
 * Table holds kept per table and local day (docs/bookings.md, "No double booking"). Pure: the
 * caller reads the table-day items named here and writes back what `planHolds` answers, each
 * with a condition on the version it read.
 *
 * A hold is stored in every local day its interval touches. A booking reads (and writes, so that
 * the version moves) every day its interval *plus the buffer on either side* touches: any hold it
 * could clash with overlaps that range, so it is stored in one of those days, and two clashing
 * bookings therefore always write a common item.
 */
import { DateTime } from 'luxon';
import { firstClash, type Hold } from './occupancy';

/** A table's holds on one local day: booking id → [startMs, endMs). */
export type DayHolds = Record<string, [number, number]>;

/** A table-day item as read: `version` null when it does not exist yet. */
export interface TableDay {
  tableId: string;
  date: string;
  holds: DayHolds;
  version: number | null;
}

/** A table-day item to write: its new holds, conditioned on the version read. */
export interface TableDayWrite {
  tableId: string;
  date: string;
  holds: DayHolds;
  expectedVersion: number | null;
}

export interface Interval {
  startMs: number;
  endMs: number;
}

const MINUTE = 60_000;

/** The local dates (YYYY-MM-DD) in `zone` that the half-open interval [startMs, endMs) touches. */
export function localDates({ startMs, endMs }: Interval, zone: string): string[] {
  const last = DateTime.fromMillis(Math.max(startMs, endMs - 1), { zone }).toISODate()!;
  const dates: string[] = [];
  for (let day = DateTime.fromMillis(startMs, { zone }).startOf('day'); dates.at(-1) !== last; day = day.plus({ days: 1 })) dates.push(day.toISODate()!);
  return dates;
}

/** The days a hold is stored in (`hold`) and the days a booking must read and write to place it (`guard`, a superset). */
export function holdDays(slot: Interval, bufferMinutes: number, zone: string): { hold: string[]; guard: string[] } {
  const buffer = bufferMinutes * MINUTE;
  return { hold: localDates(slot, zone), guard: localDates({ startMs: slot.startMs - buffer, endMs: slot.endMs + buffer }, zone) };
}

/** The distinct holds in some table-day items (a hold that spans midnight is in two). */
export function holdsOf(days: readonly TableDay[]): Hold[] {
  const byBooking = new Map<string, Hold>();
  for (const day of days) for (const [bookingId, [startMs, endMs]] of Object.entries(day.holds)) byBooking.set(bookingId, { bookingId, startMs, endMs });
  return [...byBooking.values()];
}

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
}

export type HoldPlan = { writes: TableDayWrite[] } | { clash: { tableId: string; with: Hold } };

/**
 * Places the booking's hold on its tables, moving it off the ones (or the days) it leaves: every
 * item read is written back (its version moves), without the booking's old hold, with the new one
 * where it belongs. Answers the first clash instead when a table is taken.
 */
export function planHolds(r: HoldRequest): HoldPlan {
  const candidate: Hold = { bookingId: r.bookingId, ...r.slot };
  for (const tableId of r.tableIds) {
    const clash = firstClash(holdsOf(r.read.filter((d) => d.tableId === tableId)), candidate, r.bufferMinutes);
    if (clash) return { clash: { tableId, with: clash } };
  }
  const writes = r.read.map((day): TableDayWrite => {
    const holds = { ...day.holds };
    delete holds[r.bookingId];
    if (r.tableIds.includes(day.tableId) && r.holdDates.includes(day.date)) holds[r.bookingId] = [r.slot.startMs, r.slot.endMs];
    return { tableId: day.tableId, date: day.date, holds, expectedVersion: day.version };
  });
  return { writes };
}
