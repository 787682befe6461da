/**
 * Whether bookings may hold the same table: two holds clash when they overlap once each is
 * followed by the location's buffer (the time to turn the table). Pure; the data layer keeps each
 * table's holds per local day and writes them with a version condition, so concurrent bookings of
 * one table cannot both pass this check.
 */
export interface Hold {
  bookingId: string;
  startMs: number;
  endMs: number;
}

/** A hold, or any stay (its booking's id, when it has one, is not read). */
type Stay = Pick<Hold, 'startMs' | 'endMs'> & { bookingId?: string };

/** Half-open intervals [start, end + buffer): back-to-back bookings with a full buffer do not clash. */
export function clashes(a: Stay, b: Stay, bufferMinutes: number): boolean {
  const buffer = bufferMinutes * 60_000;
  return a.startMs < b.endMs + buffer && b.startMs < a.endMs + buffer;
}

/** The first existing hold (other than the candidate's own booking) that the candidate clashes with. */
export function firstClash(existing: readonly Hold[], candidate: Hold, bufferMinutes: number): Hold | undefined {
  return existing.find((h) => h.bookingId !== candidate.bookingId && clashes(h, candidate, bufferMinutes));
}
