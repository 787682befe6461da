/**
 * Automatic assignment's choice: the table or tables a booking without any gets (docs/optimizer.md,
 * "Assignment"). Pure. Of the sets that seat the party and are free for its stay:
 *
 * 1. the fewest seats beyond the party (a couple takes a two-top before a four-top, a four-top
 *    before a four-top and a two-top pushed together);
 * 2. then the fewest sellable seat-minutes lost, counted in stays as long as the request's own
 *    (sellable.ts, with the stay's length in place of the default): a 90-minute party does not
 *    cut a table's evening into gaps a 90-minute party could no longer use when another table of
 *    the same size would keep them;
 * 3. then the fewest tables;
 * 4. then the fewest sellable seat-minutes lost in stays of the default length (what a longer
 *    party could still buy);
 * 5. then the earlier set in the floor's order (fit.ts tableSets: deterministic for a floor).
 */
import { freeSets, seatsNeeded, type TableHolds, type TableSet } from './fit';
import { sellableSeatMinutes, type SellingTerms } from './sellable';
import type { Interval } from './time';

const MINUTE = 60_000;

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
  /** Seats of the set beyond the party. */
  excessSeats: number;
  /** Sellable seat-minutes the stay takes from the floor, in stays as long as its own. */
  sellableLost: number;
  /** The same in stays of the default length. */
  defaultSellableLost: number;
}

/** The seat-minutes a stay takes from one table's sellable time, under these terms. */
function lostOn(floor: SeatingFloor, terms: SellingTerms, tableId: string, stay: Interval, bookingId: string) {
  const holds = (floor.holds.get(tableId) ?? []).filter((h) => h.bookingId !== bookingId);
  const seats = floor.seats.get(tableId) ?? 0;
  return sellableSeatMinutes(seats, holds, terms) - sellableSeatMinutes(seats, [...holds, stay], terms);
}

/** Negative when `a` is the better choice; a tie keeps the earlier set. */
const rank = (a: Choice, b: Choice) =>
  a.excessSeats - b.excessSeats ||
  a.sellableLost - b.sellableLost ||
  a.set.tableIds.length - b.set.tableIds.length ||
  a.defaultSellableLost - b.defaultSellableLost;

/** The best set for the request, or undefined when no set that seats the party is free then. */
export function chooseTables(floor: SeatingFloor, request: SeatingRequest): Choice | undefined {
  const bookingId = request.bookingId ?? '';
  const { stay } = request;
  // A stay shorter than a minute still counts as one, so that the measure stays defined.
  const own = { ...floor.terms, stayMinutes: Math.max(1, Math.round((stay.endMs - stay.startMs) / MINUTE)) };
  const memo = (terms: SellingTerms) => {
    const lost = new Map<string, number>();
    return (tableId: string) =>
      lost.get(tableId) ?? lost.set(tableId, lostOn(floor, terms, tableId, stay, bookingId)).get(tableId)!;
  };
  const ownLost = memo(own);
  const defaultLost = memo(floor.terms);
  let best: Choice | undefined;
  for (const set of freeSets(floor.sets, floor.holds, request.guestCount, stay, floor.terms.bufferMinutes, bookingId)) {
    const choice: Choice = {
      set,
      excessSeats: Math.max(0, set.max - seatsNeeded(request.guestCount)),
      sellableLost: set.tableIds.reduce((n, t) => n + ownLost(t), 0),
      defaultSellableLost: set.tableIds.reduce((n, t) => n + defaultLost(t), 0),
    };
    if (!best || rank(choice, best) < 0) best = choice;
  }
  return best;
}
