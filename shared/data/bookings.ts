/**
 * Bookings (docs/bookings.md#data):
 *
 *   booking       C#<cid> / BOOKING#<id>     gsi1 C#<cid>#L#<loc:12>#BOOKINGS / <date>#<HH:MM>#<id>
 *                                            gsi2 C#<cid>#BOOKINGS / <date>#<HH:MM>#<id>
 *   code lookup   CODE#<code> / CODE         companyId, bookingId and a copy of the booking
 *
 * The code lookup keeps codes unique platform-wide and lets the public by-code operations, which
 * know no company, read the booking in one GetItem: every transaction that writes the booking
 * writes its copy (bookingWrite.ts). The items that follow a booking are in bookingLinks.ts,
 * noShowSweep.ts and tableDays.ts; its tabs, claims, orders and pre-order beside them.
 */
import type { Static } from '@sinclair/typebox';
import { AppError } from '../errors';
import { Page } from '../page';
import { getItem } from './batch';
import { linkSource, listSortKey, type LinkSource } from './bookingLinks';
import { activeStatuses, type BookingStatus } from '../schemas/bookingStates';
import { BookingView } from '../schemas/bookings';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { queryAll, readLog, type PageRequest } from './paging';
import { checkStep, putNewStep, putStep, type Step } from './transact';

/**
 * A booking (docs/bookings.md) as stored and shown: declared by BookingView.
 * `bookingDate`/`startTime`/`endTime` are the location's local date and wall times,
 * `startsAt`/`endsAt` the same instants in UTC; `tableId` is the primary table (tableIds[0]) or
 * null, `tab` the primary tab (tabs[0]);
 * `statusBeforeSeating` is what unseating returns to (null when not seated), `seatingOrderId` the
 * kitchen order seating made of the pre-order (null when none), `autoNoShowAt` when the no-show
 * sweeper will mark the booking if it is still confirmed or checked in (null when it will not).
 */
export type Booking = Static<typeof BookingView>;

/** A tab of the booking as the booking shows it: which resource it serves and its status. */
export type BookingTab = Booking['tab'];

export type TabStrategy = Booking['defaultTabStrategy'];

/**
 * Whether the booking still uses its tables (its location, when it has none): while it is active
 * (it holds them) or one of its tabs is open (a bill is still owed there). A table or location in
 * use cannot be deleted (docs/setup.md); bookingWrite.ts keeps the count of users.
 */
export const usesItsPlace = (b: Pick<Booking, 'status' | 'tabs'>) =>
  activeStatuses.includes(b.status) || b.tabs.some((t) => t.status === 'open');

/** The most bookings of one location and day a table map reads (60 tables × 30 turns is 1800). */
export const MAX_DAY_BOOKINGS = 2000;

const locationPartition = (companyId: number, locationId: number) =>
  `${keys.company(companyId)}#L#${keys.pad(locationId)}#BOOKINGS`;
const companyPartition = (companyId: number) => `${keys.company(companyId)}#BOOKINGS`;

export const bookingEntity = defineEntity({
  name: 'BOOKING',
  label: 'booking',
  key: (companyId: number, id: string) => companyKey(companyId, `BOOKING#${id}`),
  schema: BookingView,
  keyOf: (companyId, b) => [companyId, b.id] as const,
  indexes: (companyId, b) => ({
    gsi1pk: locationPartition(companyId, b.locationId),
    gsi1sk: listSortKey(b),
    gsi2pk: companyPartition(companyId),
    gsi2sk: listSortKey(b),
  }),
});

/** The confirmation code drawn for a new booking is taken: draw another. */
export class CodeTaken extends AppError {
  constructor() {
    super('CONFLICT', 'The confirmation code is taken');
  }
}

const codeKey = (code: string) => ({ pk: `CODE#${code}`, sk: 'CODE' });

/**
 * The code lookup of a booking as it is after the change: new with a new booking (a taken code
 * fails with CodeTaken), else replaced, under the booking's own version condition.
 */
export function codeStep(companyId: number, next: Booking, isNew: boolean): Step {
  const item = {
    ...codeKey(next.confirmationCode),
    entity: 'BOOKING_CODE',
    companyId,
    bookingId: next.id,
    booking: next,
  };
  return isNew ? putNewStep(item, () => new CodeTaken()) : putStep(item);
}

/** What a booking must still be for a change of an item that depends on it (a member, the pre-order) to commit. */
export interface BookingGuard {
  statuses: readonly BookingStatus[];
  /** The party size the change was decided for. */
  guestCount?: number;
}

/** Holds while the booking exists and is as the guard says; `onFailed` otherwise. */
export function bookingGuardStep(
  companyId: number,
  bookingId: string,
  guard: BookingGuard,
  onFailed: () => AppError,
): Step {
  const statuses = Object.fromEntries(guard.statuses.map((s, i) => [`:s${i}`, s]));
  const party = guard.guestCount === undefined ? '' : ' AND guestCount = :gc';
  const expression = `attribute_exists(pk) AND #status IN (${Object.keys(statuses).join(', ')})${party}`;
  const values = guard.guestCount === undefined ? statuses : { ...statuses, ':gc': guard.guestCount };
  return checkStep(
    bookingEntity.key(companyId, bookingId),
    { expression, names: { '#status': 'status' }, values },
    onFailed,
  );
}

export interface BookingListQuery extends PageRequest {
  /** Where the list reads (docs/bookings.md#lists): an index of bookings, or the link items of a table or a guest. */
  source: { by: 'location'; locationId: number } | { by: 'company' } | LinkSource;
  /** Local dates, inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** The filters the source's keys do not apply, checked on each page. */
  keep: (b: Booking) => boolean;
}
export type BookingSource = BookingListQuery['source'];

function span(companyId: number, q: BookingListQuery) {
  const range = { op: 'between' as const, low: `${q.from ?? '0000-01-01'}#`, high: `${q.to ?? '9999-12-31'}#~` };
  switch (q.source.by) {
    case 'location':
      return { index: 'gsi1' as const, partition: locationPartition(companyId, q.source.locationId), range };
    case 'company':
      return { index: 'gsi2' as const, partition: companyPartition(companyId), range };
    default:
      return { partition: linkSource(companyId, q.source), range };
  }
}

export const bookings = {
  /** The booking, or undefined (also for another company's id): 1 GetItem. */
  get: bookingEntity.get,
  /** A read of the booking, to send with others in one round trip. */
  read: bookingEntity.read,

  /** A booking by its confirmation code, for public operations that know no company: 1 GetItem (the lookup carries the booking). */
  async findByCode(code: string): Promise<{ companyId: number; booking: Booking } | undefined> {
    const lookup = await getItem(codeKey(code));
    return (
      lookup && {
        companyId: lookup.companyId as number,
        booking: bookingEntity.from(lookup.booking as Record<string, unknown>),
      }
    );
  },

  /**
   * One page of bookings: one Query of the source (plus, for tables and guests, one BatchGetItem
   * of the bookings the links name), then the other filters. A filtered page may hold fewer than
   * `limit` bookings while `nextCursor` goes on. `total` counts the bookings listed up to the end
   * of this page (the pages before it as full when it was reached by cursor), plus one when more
   * may follow.
   */
  async list(companyId: number, q: BookingListQuery): Promise<Page<Booking>> {
    const read = await readLog(span(companyId, q), q);
    const linked = q.source.by === 'table' || q.source.by === 'guest';
    const load = async (items: Record<string, unknown>[]) =>
      linked
        ? bookingEntity.getMany(items.map((i) => [companyId, i.bookingId as string] as [number, string]))
        : items.map(bookingEntity.from);
    const all = (await load([...read.head, ...read.items])).filter(q.keep);
    const headIds = new Set(read.head.map((i) => (linked ? i.bookingId : i.id) as string));
    const shown = all.filter((b) => !headIds.has(b.id));
    const before = q.cursor ? (read.page - 1) * read.limit : all.length - shown.length;
    const total = before + shown.length + (read.more ? 1 : 0);
    return new Page(shown, {
      page: read.page,
      limit: read.limit,
      total,
      totalPages: Math.ceil(total / read.limit),
      nextCursor: read.nextCursor,
    });
  },

  /**
   * Every booking of a location on a local date, by start time: one Query (more only past 1 MB).
   * At most MAX_DAY_BOOKINGS (TooMany beyond: a table map of more is not read whole).
   */
  onDate: (companyId: number, locationId: number, date: string): Promise<Booking[]> =>
    bookings.between(companyId, locationId, date, date, MAX_DAY_BOOKINGS),

  /**
   * Every booking of a location from one local date to another (inclusive), by date and start
   * time: one Query (more only past 1 MB). At most `max` (TooMany beyond): by default MAX_DAY_BOOKINGS for each of the three days the floor reads.
   */
  async between(
    companyId: number,
    locationId: number,
    from: string,
    to: string,
    max = 3 * MAX_DAY_BOOKINGS,
  ): Promise<Booking[]> {
    const items = await queryAll(
      {
        index: 'gsi1',
        partition: locationPartition(companyId, locationId),
        range: { op: 'between', low: `${from}#`, high: `${to}#~` },
      },
      max,
    );
    return items.map(bookingEntity.from);
  },
};
