/**
 * What keeps a table or a location from being deleted (docs/setup.md, "Deleting what is in use"),
 * named in the 409: booking groups, content, and the bookings that still use it (active, or with an
 * open tab). The guard itself is a condition of the delete's transaction; this module only reads,
 * and only once a delete is refused, to say why.
 */
import { bookings, usesItsPlace, type Booking, type BookingSource } from '../data/bookings';
import { AppError, type FieldProblem } from '../errors';

/** How many bookings a refusal names. */
const NAMED = 5;
/** How many bookings a refusal reads at most to find those it names (one Query and one BatchGetItem). */
const READ = 100;
/** How far back a refusal looks for bookings to name: any zone's today is within it. */
const LOOK_BACK_DAYS = 2;

/** Bookings that use a table or a location, found by a bounded read from a little before today on, by date. */
export interface BookingsInUse {
  found: Booking[];
  /** More may follow the bookings read. */
  more: boolean;
}

/** Up to 100 bookings of the source from two days ago on that still use their table or location, soonest first. */
export async function bookingsInUse(companyId: number, source: BookingSource): Promise<BookingsInUse> {
  const from = new Date(Date.now() - LOOK_BACK_DAYS * 86_400_000).toISOString().slice(0, 10);
  const page = await bookings.list(companyId, { source, from, keep: usesItsPlace, page: 1, limit: READ });
  return { found: page.items, more: page.pagination.nextCursor !== null };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function described(b: Booking): string {
  const open = b.tabs.filter((t) => t.status === 'open').map((t) => t.id);
  return `${b.id} (${b.bookingDate} ${b.startTime}, ${b.status.replace('_', ' ')}${open.length ? `, open tab ${open.join(', ')}` : ''})`;
}

/**
 * 409 naming what blocks the delete of `subject`: `blockers` (each saying what to do about it),
 * then `count` bookings that use it (`atLeast`: a lower bound), the first of `inUse.found` by id,
 * date and status (also in `details`, `/bookings/<i>`), and where to list them all.
 */
export function inUseConflict(
  subject: string,
  blockers: string[],
  using: { count: number; atLeast?: boolean; inUse: BookingsInUse; listing: string },
): AppError {
  const named = using.inUse.found.slice(0, NAMED);
  const parts = [...blockers];
  if (using.count > 0) {
    const many = using.count > named.length || using.atLeast === true;
    const first = named.length ? ` (${many ? 'first ' : ''}${named.map(described).join('; ')})` : '';
    const verb = using.count === 1 && !using.atLeast ? 'uses' : 'use';
    parts.push(
      `${using.atLeast ? 'at least ' : ''}${plural(using.count, 'booking')} still ${verb} it, active or with an open tab${first}: ` +
        `cancel, complete or move them and close their open tabs${many ? ` (GET ${using.listing} lists them)` : ''}`,
    );
  }
  const details: FieldProblem[] = named.map((b, i) => ({ path: `/bookings/${i}`, message: described(b) }));
  return new AppError('CONFLICT', `${subject} cannot be deleted: ${parts.join('; ')}`, details);
}
