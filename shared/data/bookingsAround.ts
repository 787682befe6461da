/**
 * The bookings around a date, compact (docs/availability.md, “What availability reads”): what
 * availability decides on, and only that, for every booking that holds its tables.
 *
 *   bucket   C#<cid>#L#<loc:12>#AROUND / <bookingDate>#<HH of startTime>   b<id> = "<start>|<end>|<guests>|<status>|<tables>"
 *   marker   C#<cid> / AROUND#L#<loc:12>                                    the location's buckets are whole
 *
 * One attribute per booking, in the bucket of its local date and start hour: every transaction
 * that writes a booking (bookingWrite.ts) sets or removes its attribute there, without reading the
 * bucket, and leaves the bucket alone when nothing availability reads changed. Buckets keep each
 * write small (a write pays for the whole item it changes); one Query of the location's partition
 * reads the three days availability needs, about 70 bytes a booking instead of its 1-2 KB item.
 *
 * A location's buckets are whole once its marker exists: written with the location, or by the
 * backfill (bin/tools/backfill-around.ts) for locations older than the buckets. Until then
 * availability reads the bookings themselves.
 */
import { activeStatuses, type BookingStatus } from '../schemas/bookingStates';
import { readTogether, type ReadRequest } from './batch';
import { bookingEntity, bookings, type Booking } from './bookings';
import { keys } from './keys';
import { layoutToken } from './layout';
import { queryAll } from './paging';
import { putStep, type Step, transact, updateStep } from './transact';

const partition = (companyId: number, locationId: number) =>
  `${keys.company(companyId)}#L#${keys.pad(locationId)}#AROUND`;
const bucketKey = (companyId: number, b: Pick<Booking, 'locationId' | 'bookingDate' | 'startTime'>) => ({
  pk: partition(companyId, b.locationId),
  sk: `${b.bookingDate}#${b.startTime.slice(0, 2)}`,
});
const markerKey = (companyId: number, locationId: number) => ({
  pk: keys.company(companyId),
  sk: `AROUND#L#${keys.pad(locationId)}`,
});

const STATUS_CODES: Partial<Record<BookingStatus, string>> = {
  pending: 'p',
  confirmed: 'c',
  checked_in: 'k',
  seated: 's',
};
const STATUS_OF = Object.fromEntries(Object.entries(STATUS_CODES).map(([s, c]) => [c, s as BookingStatus]));

/** A UUID as 22 base64url characters, and back. */
const short = (uuid: string) => Buffer.from(uuid.replace(/-/g, ''), 'hex').toString('base64url');
function long(s: string): string {
  const hex = Buffer.from(s, 'base64url').toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A booking as availability sees it (domain/bookings/availability.ts `BookingAround`), as its bucket gives it back. */
export type AroundBooking = Pick<
  Booking,
  'id' | 'tableIds' | 'startsAt' | 'endsAt' | 'guestCount' | 'status' | 'bookingDate' | 'locked'
>;

const ATTRIBUTE = /^b[A-Za-z0-9_-]{22}$/;
const attributeOf = (bookingId: string) => `b${short(bookingId)}`;

/** The booking as its bucket holds it, or undefined when it holds no tables (it is not in a bucket). */
export function encodeAround(b: Booking): string | undefined {
  const status = STATUS_CODES[b.status];
  if (!status || !activeStatuses.includes(b.status)) return undefined;
  const ms = (iso: string) => Date.parse(iso).toString(36);
  return [
    ms(b.startsAt),
    ms(b.endsAt),
    String(b.guestCount),
    `${status}${b.locked ? 'L' : ''}`,
    b.tableIds.map(short).join('.'),
  ].join('|');
}

/** A bucket's attribute back into the booking availability sees. */
export function decodeAround(attribute: string, value: string, bookingDate: string): AroundBooking {
  const [start, end, guests, state, tables] = value.split('|') as [string, string, string, string, string];
  return {
    id: long(attribute.slice(1)),
    bookingDate,
    startsAt: new Date(Number.parseInt(start, 36)).toISOString(),
    endsAt: new Date(Number.parseInt(end, 36)).toISOString(),
    guestCount: Number(guests),
    status: STATUS_OF[state[0]!]!,
    locked: state.endsWith('L'),
    tableIds: tables ? tables.split('.').map(long) : [],
  };
}

/** The booking's attribute in its bucket, name and value; undefined when it holds no tables. */
export function aroundAttribute(b: Booking): [name: string, value: string] | undefined {
  const value = encodeAround(b);
  return value === undefined ? undefined : [attributeOf(b.id), value];
}

/**
 * The steps that keep the buckets right for bookings written together: one update per bucket
 * whose attributes change (a booking that moves bucket is removed from one and set in the other),
 * none when nothing availability reads changed.
 */
export function aroundSteps(companyId: number, changes: readonly { prev?: Booking; next: Booking }[]): Step[] {
  const buckets = new Map<string, { key: { pk: string; sk: string }; patch: Record<string, unknown> }>();
  const patchOf = (key: { pk: string; sk: string }) => {
    const id = `${key.pk}\u0000${key.sk}`;
    return (buckets.get(id) ?? buckets.set(id, { key, patch: {} }).get(id)!).patch;
  };
  for (const { prev, next } of changes) {
    const before = prev && encodeAround(prev);
    const after = encodeAround(next);
    const from = prev && bucketKey(companyId, prev);
    const to = bucketKey(companyId, next);
    const moved = from !== undefined && (from.pk !== to.pk || from.sk !== to.sk);
    if (before === after && !moved) continue;
    const name = attributeOf(next.id);
    if (before !== undefined && (moved || after === undefined)) patchOf(from!)[name] = undefined;
    if (after !== undefined) patchOf(to)[name] = after;
  }
  return [...buckets.values()].map(({ key, patch }) => updateStep(key, { ...patch, entity: 'BOOKINGS_AROUND' }));
}

const LAST_DATE = '9999-12-31';

/** The entries of the location's buckets from one local date to another (inclusive), with the bucket each is in. */
async function entriesBetween(
  companyId: number,
  locationId: number,
  from: string,
  to: string,
  consistent = false,
): Promise<{ bucket: string; booking: AroundBooking }[]> {
  const items = await queryAll(
    {
      partition: partition(companyId, locationId),
      range: { op: 'between', low: `${from}#`, high: `${to}#~` },
      consistent,
    },
    Infinity,
  );
  return items.flatMap((item) => {
    const bucket = String(item.sk);
    return Object.entries(item)
      .filter(([name, value]) => ATTRIBUTE.test(name) && typeof value === 'string')
      .map(([name, value]) => ({ bucket, booking: decodeAround(name, value as string, bucket.slice(0, 10)) }));
  });
}

export const bookingsAround = {
  /** Whether the location's buckets are whole: a read to send with others in one round trip. */
  markerRead: (companyId: number, locationId: number): ReadRequest<boolean> => {
    const key = markerKey(companyId, locationId);
    return { keys: [key], answer: (found) => found.get(key) !== undefined };
  },

  /** The bookings holding tables from one local date to another (inclusive): one Query of the location's buckets. */
  async between(companyId: number, locationId: number, from: string, to: string): Promise<AroundBooking[]> {
    return (await entriesBetween(companyId, locationId, from, to)).map((e) => e.booking);
  },

  /**
   * Makes a location's buckets whole from its bookings (a location older than the buckets), then
   * writes its marker: until then availability reads the bookings themselves. Each round puts every
   * booking's entry from `from` on (those holding tables) and removes the entries of the others,
   * then reads both again; bookings written meanwhile keep their buckets right themselves, so once
   * a round finds the buckets equal to the bookings they stay so. Answers the rounds it took.
   */
  async backfill(companyId: number, locationId: number, from: string, rounds = 5): Promise<number> {
    for (let round = 1; round <= rounds; round++) {
      // The index lists the bookings (it may lag); each is then read by key, strongly, with every
      // booking an entry names, so that what is compared is the bookings as they are.
      const [listed, entries] = await Promise.all([
        bookings.between(companyId, locationId, from, LAST_DATE, Infinity),
        entriesBetween(companyId, locationId, from, LAST_DATE, true),
      ]);
      const ids = [...new Set([...listed.map((b) => b.id), ...entries.map((e) => e.booking.id)])];
      const { items } = await readTogether(
        { items: bookingEntity.readMany(ids.map((id) => [companyId, id] as [number, string])) },
        { consistent: true },
      );
      // An entry is right when its booking holds tables and it says what the booking would, where the booking would.
      const right = (b: Booking) => `${bucketKey(companyId, b).sk}|${encodeAround(b)}`;
      const wanted = new Map(items.filter((b) => encodeAround(b) !== undefined).map((b) => [b.id, right(b)]));
      const stale = entries.filter(
        (e) => wanted.get(e.booking.id) !== `${e.bucket}|${encodeAround(e.booking as Booking)}`,
      );
      const held = new Set(entries.filter((e) => !stale.includes(e)).map((e) => e.booking.id));
      const missing = items.filter((b) => wanted.has(b.id) && !held.has(b.id));
      if (stale.length === 0 && missing.length === 0) {
        // With a layout token, if it had none: availability keeps its layout from now on (shared/data/layout.ts).
        await transact([
          bookingsAround.markerStep(companyId, locationId),
          layoutToken.changedStep(companyId, locationId),
        ]);
        return round;
      }
      // Stale entries are removed from the bucket they are in, then the current ones put.
      const removals = stale.map((e) =>
        updateStep({ pk: partition(companyId, locationId), sk: e.bucket }, { [attributeOf(e.booking.id)]: undefined }),
      );
      const puts = aroundSteps(
        companyId,
        missing.map((next) => ({ next })),
      );
      for (const step of [...removals, ...puts]) await transact([step]);
    }
    throw new Error(
      `the buckets of location ${locationId} did not settle in ${rounds} rounds: bookings change too fast; run again`,
    );
  },

  /** The marker of a location whose buckets are whole (a new location's, in its creation's transaction). */
  markerStep: (companyId: number, locationId: number): Step =>
    putStep({ ...markerKey(companyId, locationId), entity: 'BOOKINGS_AROUND_MARKER', locationId }),
};
