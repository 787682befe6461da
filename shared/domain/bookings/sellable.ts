/**
 * The objective of automatic assignment and of the optimizer (docs/optimizer.md): what the floor
 * can still sell. Pure.
 *
 * A table's free time is cut into windows by its holds and their buffers; a window sells as many
 * stays of the default length as fit in it with a buffer between them, and nothing of what is
 * left over (an hour between two dinners sells nobody). The floor's sellable seat-minutes are,
 * over its tables, seats × stays that still fit × the stay's minutes, counted within the date's
 * service (serviceHours.ts). The stay's length is a term: the optimizer counts in default stays;
 * automatic assignment (assignment.ts) in stays as long as the request's own, so that a gap a
 * shorter party could use is not counted as worthless. A seating is better when it places more
 * booked guests (the optimizer gives tables to bookings that have none), then wastes fewer seats
 * (seats beyond the party × minutes), then keeps more seat-minutes sellable, then moves fewer
 * bookings.
 */
import { seatsNeeded } from './fit';
import type { Interval } from './time';

const MINUTE = 60_000;

export interface SellingTerms {
  /** The spans the date's future bookings can use (serviceOf). */
  service: readonly Interval[];
  /** The length of the stays counted: the default duration, or a request's own (assignment.ts). */
  stayMinutes: number;
  bufferMinutes: number;
}

/** How many stays fit in the window [from, to): k stays fit when k·stay + (k−1)·buffer ≤ to − from. */
const staysIn = (from: number, to: number, stay: number, buffer: number) =>
  to <= from ? 0 : Math.floor((to - from + buffer) / (stay + buffer));

const byStart = (holds: readonly Interval[]) => holds.every((h, i) => i === 0 || holds[i - 1]!.startMs <= h.startMs);

/** How many stays of the terms' length still fit on a table with these holds (any order). */
export function staysLeft(holds: readonly Interval[], terms: SellingTerms): number {
  const stay = terms.stayMinutes * MINUTE;
  const buffer = terms.bufferMinutes * MINUTE;
  const sorted = byStart(holds) ? holds : [...holds].sort((a, b) => a.startMs - b.startMs);
  let stays = 0;
  for (const span of terms.service) {
    let from = span.startMs;
    for (const h of sorted) {
      const blockedFrom = h.startMs - buffer;
      const blockedTo = h.endMs + buffer;
      if (blockedTo <= span.startMs || blockedFrom >= span.endMs) continue;
      stays += staysIn(from, Math.min(blockedFrom, span.endMs), stay, buffer);
      from = Math.max(from, blockedTo);
    }
    stays += staysIn(from, span.endMs, stay, buffer);
  }
  return stays;
}

/** A table's sellable seat-minutes with these holds. */
export const sellableSeatMinutes = (seats: number, holds: readonly Interval[], terms: SellingTerms) =>
  seats * staysLeft(holds, terms) * terms.stayMinutes;

/** A seating's figures, in the order they are compared. */
export interface Score {
  /** Guests of the bookings considered that sit at tables that seat them. */
  placedCovers: number;
  sellableSeatMinutes: number;
  /** Seats beyond the party, times the booking's minutes, over the bookings placed. */
  oversizeSeatMinutes: number;
  /** Bookings whose tables the seating changes. */
  moves: number;
}

/** Negative when `a` is the better seating, positive when `b` is, 0 when they are as good. */
export const compareScores = (a: Score, b: Score) =>
  b.placedCovers - a.placedCovers ||
  a.oversizeSeatMinutes - b.oversizeSeatMinutes ||
  b.sellableSeatMinutes - a.sellableSeatMinutes ||
  a.moves - b.moves;

/** The seats a set has beyond the party, times the stay's minutes. */
export const oversize = (seats: number, guestCount: number, stay: Interval) =>
  Math.max(0, seats - seatsNeeded(guestCount)) * Math.round((stay.endMs - stay.startMs) / MINUTE);
