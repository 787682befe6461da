/**
 * Reading bookings: by id (also for the operations that change one), the filtered list
 * (docs/bookings.md, “Lists”; one Query per page), and a location's day by table.
 */
import type { Principal } from '../../auth/principal';
import {
  bookings,
  MAX_DAY_BOOKINGS,
  type Booking,
  type BookingListQuery,
  type BookingSource,
} from '../../data/bookings';
import { TooMany } from '../../data/paging';
import { notFound, unprocessable, validationFailed } from '../../errors';
import { Page } from '../../page';
import type { ListBookingsQuery } from '../../schemas/bookings';
import { assertLocationAllowed, existingLocation, listedAt, listLocation } from '../access';

/** The booking as read, for a caller who may act on its location: 404 for an unknown id or another company's, 403 for another location. */
export function visibleBooking(principal: Principal, id: string, found: Booking | undefined): Booking {
  if (!found) throw notFound(`Booking ${id}`);
  assertLocationAllowed(principal, found.locationId);
  return found;
}

/** The booking (1 GetItem), for a caller who may act on its location. */
export const bookingFor = async (principal: Principal, id: string): Promise<Booking> =>
  visibleBooking(principal, id, await bookings.get(principal.companyId, id));

export const getBooking = (principal: Principal, id: string): Promise<Booking> => bookingFor(principal, id);

/** The local dates a list covers: `bookingDate` exactly, or `startDate`..`endDate` (inclusive). */
function dateRange(q: ListBookingsQuery): { from?: string; to?: string } {
  if (q.bookingDate !== undefined) {
    if (q.startDate !== undefined || q.endDate !== undefined) {
      throw validationFailed('Pass bookingDate or a startDate/endDate range, not both', [
        { path: '/bookingDate', message: 'cannot be combined with startDate or endDate' },
      ]);
    }
    return { from: q.bookingDate, to: q.bookingDate };
  }
  if (q.startDate !== undefined && q.endDate !== undefined && q.startDate > q.endDate) {
    throw validationFailed('startDate is after endDate', [
      { path: '/endDate', message: 'must not be before startDate' },
    ]);
  }
  return {
    ...(q.startDate !== undefined ? { from: q.startDate } : {}),
    ...(q.endDate !== undefined ? { to: q.endDate } : {}),
  };
}

/**
 * Lists bookings. The most selective filter chooses what is read (docs/bookings.md#lists):
 * the confirmation code, else the table's links, else the guest's links, else the location's
 * index, else the company's; every other filter is checked on the page.
 */
export async function listBookings(
  principal: Principal,
  q: ListBookingsQuery,
  headerLocation?: string,
): Promise<Page<Booking>> {
  const locationId = listLocation(principal, q.locationId, headerLocation);
  const { from, to } = dateRange(q);
  const keep = (b: Booking) =>
    (locationId === undefined || b.locationId === locationId) &&
    (q.tableId === undefined || b.tableIds.includes(q.tableId)) &&
    (q.userId === undefined || b.primaryUserId === q.userId) &&
    (q.status === undefined || b.status === q.status) &&
    (q.bookingSource === undefined || b.bookingSource === q.bookingSource) &&
    (from === undefined || b.bookingDate >= from) &&
    (to === undefined || b.bookingDate <= to);

  if (q.confirmationCode !== undefined) {
    const found = await bookings.findByCode(q.confirmationCode);
    const hit = found && found.companyId === principal.companyId && keep(found.booking) ? [found.booking] : [];
    return new Page(hit, { page: 1, limit: q.limit, total: hit.length, totalPages: hit.length, nextCursor: null });
  }
  const source: BookingSource =
    q.tableId !== undefined
      ? { by: 'table', tableId: q.tableId }
      : q.userId !== undefined
        ? { by: 'guest', userId: q.userId }
        : locationId !== undefined
          ? { by: 'location', locationId }
          : { by: 'company' };
  const query: BookingListQuery = { page: q.page, limit: q.limit, cursor: q.cursor, source, from, to, keep };
  return listedAt(principal.companyId, locationId, await bookings.list(principal.companyId, query));
}

/** A table and its bookings of the day. */
interface TableDayBookings {
  tableId: string;
  bookings: Booking[];
}

export interface BookingsByTable {
  locationId: number;
  date: string;
  /** Tables that have bookings that day (in the order of their first booking), each with its bookings by start time. */
  tables: TableDayBookings[];
  /** Bookings of the day without a table. */
  unassigned: Booking[];
}

/** A location's bookings of a local day grouped by table (for a table map): cancelled and no-show bookings, which hold no table, are left out. */
export async function bookingsByTable(
  principal: Principal,
  locationId: number,
  date: string,
): Promise<BookingsByTable> {
  assertLocationAllowed(principal, locationId);
  const day = await bookings.onDate(principal.companyId, locationId, date).catch((err: unknown) => {
    if (!(err instanceof TooMany)) throw err;
    const message = `The location has more than ${MAX_DAY_BOOKINGS} bookings on ${date}: list them page by page with GET /api/v1/bookings?locationId=${locationId}&bookingDate=${date}`;
    throw unprocessable(message, [{ path: '/date', message }]);
  });
  if (day.length === 0) await existingLocation(principal.companyId, locationId);
  const shown = day.filter((b) => b.status !== 'cancelled' && b.status !== 'no_show');
  const byTable = new Map<string, Booking[]>();
  for (const b of shown) for (const tableId of b.tableIds) byTable.set(tableId, [...(byTable.get(tableId) ?? []), b]);
  return {
    locationId,
    date,
    tables: [...byTable].map(([tableId, list]) => ({ tableId, bookings: list })),
    unassigned: shown.filter((b) => b.tableIds.length === 0),
  };
}
