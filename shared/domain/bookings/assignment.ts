/**
 * Automatic assignment's choice: the table or tables a booking without any gets (docs/optimizer.md,
 * "Assignment"). Pure. Of the sets that seat the party and are free for its stay, the one that
 * keeps the most of the floor sellable (sellable.ts: the optimizer's objective), then wastes the
 * fewest seats, then uses the fewest tables: a couple does not take the eight-top the evening
 * needs, nor the two-top whose evening it would cut into two unsellable hours when another
 * two-top's would stay whole.
 */
import { freeSets, type TableHolds, type TableSet } from './fit';
import { oversize, sellableSeatMinutes, type SellingTerms } from './sellable';
import type { Interval } from './time';

/** What a choice is made on: the floor's sets, seats and holds, and the terms of the objective. */
export interface SeatingFloor {
  /** Seats (maxCapacity) of each table. */
  seats: ReadonlyMap<string, number>;
  /** The sets a party may sit at (fit.ts tableSets, of the pool). */
  sets: readonly TableSet[];
  holds: TableHolds;
  terms: SellingTerms;
}

export interface SeatingRequest {
  guestCount: number;
  stay: Interval;
  /** The booking's own id, when it exists already: its own holds do not count. */
  bookingId?: string;
}

export interface Choice {
  set: TableSet;
  /** Sellable seat-minutes the stay takes from the floor. */
  sellableLost: number;
  /** Seats beyond the party × minutes. */
  oversizeSeatMinutes: number;
}

/** The seat-minutes a stay takes from one table's sellable time. */
function lostOn(floor: SeatingFloor, tableId: string, stay: Interval, bookingId: string): number {
  const holds = (floor.holds.get(tableId) ?? []).filter((h) => h.bookingId !== bookingId);
  const seats = floor.seats.get(tableId) ?? 0;
  return sellableSeatMinutes(seats, holds, floor.terms) - sellableSeatMinutes(seats, [...holds, stay], floor.terms);
}

/** Negative when `a` is the better choice; ties keep the earlier set (fewer tables, fewer seats first). */
const rank = (a: Choice, b: Choice) =>
  a.sellableLost - b.sellableLost ||
  a.oversizeSeatMinutes - b.oversizeSeatMinutes ||
  a.set.tableIds.length - b.set.tableIds.length;

/** The best set for the request, or undefined when no set that seats the party is free then. */
export function chooseTables(floor: SeatingFloor, request: SeatingRequest): Choice | undefined {
  const bookingId = request.bookingId ?? '';
  const lost = new Map<string, number>();
  const lostAt = (tableId: string) =>
    lost.get(tableId) ?? lost.set(tableId, lostOn(floor, tableId, request.stay, bookingId)).get(tableId)!;
  let best: Choice | undefined;
  for (const set of freeSets(
    floor.sets,
    floor.holds,
    request.guestCount,
    request.stay,
    floor.terms.bufferMinutes,
    bookingId,
  )) {
    const choice = {
      set,
      sellableLost: set.tableIds.reduce((n, t) => n + lostAt(t), 0),
      oversizeSeatMinutes: oversize(set.max, request.guestCount, request.stay),
    };
    if (!best || rank(choice, best) < 0) best = choice;
  }
  return best;
}
