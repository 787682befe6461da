/**
 * A location's floor on a date, read in one round trip, and what is decided on it: the day's
 * availability (GET /api/v1/locations/{locationId}/availability), and the floor that automatic
 * assignment and the optimizer choose tables on (docs/availability.md, docs/optimizer.md).
 *
 * One round trip: the location, its booking settings, the booking group and the guest's count of
 * active bookings (when named) in one BatchGetItem, sent together with one Query of the
 * location's tables, one Query of its bookings from the day before to the day after (a stay of
 * the evening before can reach into the date, one of the date into the next, and buffers reach
 * either way; availability reads them from their compact buckets, shared/data/bookingsAround.ts)
 * and one Query of the waitlist offers of those days that hold tables now (their
 * tables are taken as a booking's, docs/waitlist.md). The optimizer plans without them: a move
 * it plans onto an offered table is refused by that table's day and reported as not made.
 * Availability keeps the location's layout (and re-seating's answers) between calls under the
 * location's layout token, and reads the token instead (`readAvailabilityFloor`, layoutCache.ts).
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { activeBookingsRead } from '../../data/bookingLinks';
import { bookingGroups, type BookingGroup } from '../../data/bookingGroups';
import { bookings, type Booking } from '../../data/bookings';
import { bookingsAround } from '../../data/bookingsAround';
import { bookingSettings, type BookingSettings } from '../../data/bookingSettings';
import { guests } from '../../data/guests';
import { layoutToken } from '../../data/layout';
import { locationEntity, type Location } from '../../data/locations';
import { demand } from '../../data/demand';
import { diningTables, type DiningTable } from '../../data/tables';
import { waitlist, type WaitlistOffer } from '../../data/waitlist';
import { AppError } from '../../errors';
import type { AvailabilityQuery } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import type { SeatingFloor } from './assignment';
import {
  daySlots,
  inForce,
  reseatingMatters,
  staysToReseat,
  withReseating,
  type AvailabilityRequest,
  type AvailabilitySlot,
  type BookingAround,
} from './availability';
import { holdsByTable, partySets } from './fit';
import { holdsTables } from './holds';
import { reseatFloor, reseating } from './reseat';
import {
  askFor,
  declines,
  demandDates,
  forecasts,
  policyPrices,
  sellingFloor,
  type SellingDemand,
  type SellingPrices,
} from './selling';
import type { SellingTerms } from './sellable';
import { addDays, openSpans, serviceOf } from './serviceHours';
import { settingsInForce } from './settings';
import { loadSolver, type Solver } from './solver';
import { intervalOf, type Interval } from './time';
import { layoutCache, type Layout, type ReseatAnswers } from './layoutCache';

export interface Floor<B extends BookingAround = Booking> {
  location: Location;
  /** The settings in force (the defaults when none are stored). */
  settings: BookingSettings;
  group?: BookingGroup;
  /** Every table of the location. */
  tables: DiningTable[];
  /**
   * The location's bookings of the date and of the days either side: every booking, any status (as
   * read by `readFloor`), or those holding tables as availability sees them (`readAvailabilityFloor`).
   */
  bookings: B[];
  /** The named guest's active bookings at the location. */
  activeBookingsOfGuest?: number;
  /** Waitlist offers holding tables now (docs/waitlist.md): their tables are taken for their stays as a booking's are. */
  offers?: BookingAround[];
}

/** What automatic assignment decides on (placement.ts assignedPlacement): a Floor, or as much of one as a create reads. */
export interface AssignmentFloor {
  location: Pick<Location, 'timezone' | 'operatingHours'>;
  settings: BookingSettings;
  tables: readonly DiningTable[];
  bookings: readonly BookingAround[];
  offers?: readonly BookingAround[];
}

export interface FloorOptions {
  bookingGroupId?: string | undefined;
  primaryUserId?: number | undefined;
}

/** Waitlist offers as the holds they are: their tables taken for their stays, never moved by re-seating (locked). */
export const heldByOffers = (offers: readonly WaitlistOffer[]): BookingAround[] =>
  offers.map((o) => ({
    id: o.bookingId,
    tableIds: o.tableIds,
    startsAt: o.startsAt,
    endsAt: o.endsAt,
    guestCount: 0,
    status: 'confirmed',
    locked: true,
  }));

/**
 * A hold a table's day shows that the bookings read did not (their index lags the table days), as
 * a hold to keep clear of: never moved by re-seating (locked).
 */
export const heldByTableDay = (
  tableId: string,
  hold: { bookingId: string; startMs: number; endMs: number },
): BookingAround => ({
  id: `taken:${hold.bookingId}`,
  tableIds: [tableId],
  startsAt: new Date(hold.startMs).toISOString(),
  endsAt: new Date(hold.endMs).toISOString(),
  guestCount: 0,
  status: 'confirmed',
  locked: true,
});

/** The floor of a date, in one round trip; 404 for a location, booking group or guest the company does not have. */
export async function readFloor(
  companyId: number,
  locationId: number,
  date: string,
  options: FloorOptions = {},
): Promise<Floor> {
  const { bookingGroupId, primaryUserId } = options;
  const [read, tables, around, offers] = await Promise.all([
    readTogether({
      location: locationEntity.read(companyId, locationId),
      settings: bookingSettings.read(companyId, locationId),
      group: bookingGroupId ? bookingGroups.read(companyId, locationId, bookingGroupId) : noRead(undefined),
      ...guestReads(companyId, locationId, primaryUserId),
    }),
    diningTables.all(companyId, locationId),
    bookings.between(companyId, locationId, addDays(date, -1), addDays(date, 1)),
    offersAround(companyId, locationId, date),
  ]);
  const location = found(locationId, options, read);
  return {
    location,
    settings: settingsInForce(read.settings, locationId),
    ...(read.group ? { group: read.group } : {}),
    tables,
    bookings: around,
    offers: heldByOffers(offers),
    ...(read.active !== undefined ? { activeBookingsOfGuest: read.active } : {}),
  };
}

/** The named guest and their active bookings at the location, to read with others. */
const guestReads = (companyId: number, locationId: number, primaryUserId: number | undefined) => ({
  guest: primaryUserId ? guests.read(companyId, primaryUserId) : noRead(undefined),
  active: primaryUserId ? activeBookingsRead(companyId, primaryUserId, locationId) : noRead(undefined),
});

/** The waitlist offers of the date and the days either side that hold tables now. */
const offersAround = (companyId: number, locationId: number, date: string) =>
  waitlist.offeredBetween(companyId, locationId, addDays(date, -1), addDays(date, 1), new Date().toISOString());

/** The location read, or 404 for it, the booking group or the guest the request names and the company does not have. */
function found(
  locationId: number,
  { bookingGroupId, primaryUserId }: FloorOptions,
  read: { location: Location | undefined; group: BookingGroup | undefined; guest: unknown },
): Location {
  if (!read.location)
    throw new AppError('NOT_FOUND', `Location ${locationId} not found`, [
      { path: '/locationId', message: 'no such location' },
    ]);
  if (bookingGroupId && !read.group)
    throw new AppError('NOT_FOUND', `Booking group ${bookingGroupId} not found at location ${locationId}`, [
      { path: '/bookingGroupId', message: 'no such booking group at this location' },
    ]);
  if (primaryUserId && !read.guest)
    throw new AppError('NOT_FOUND', `Guest ${primaryUserId} not found`, [
      { path: '/primaryUserId', message: 'no guest with this id' },
    ]);
  return read.location;
}

/**
 * The floor availability decides on. Every call reads, in one round trip, what changes with every
 * booking: the bookings that hold tables (from their compact buckets, shared/data/bookingsAround.ts,
 * a few read units where the booking items cost dozens), the offers, the named guest, and the
 * location's layout token. The layout (the location, its settings, tables and booking groups) comes
 * from the container's cache while the token is unchanged (layoutCache.ts); else a second round
 * trip reads it, strongly consistent, and keeps it. A location whose buckets are not whole yet
 * (older than them and not backfilled) has its bookings read as `readFloor` does, and no layout kept.
 */
async function readAvailabilityFloor(
  companyId: number,
  locationId: number,
  date: string,
  options: FloorOptions = {},
): Promise<Floor<BookingAround> & { keptUnder?: string }> {
  const from = addDays(date, -1);
  const to = addDays(date, 1);
  const [read, around, offers] = await Promise.all([
    readTogether({
      token: layoutToken.read(companyId, locationId),
      ...guestReads(companyId, locationId, options.primaryUserId),
    }),
    bookingsAround.between(companyId, locationId, from, to),
    offersAround(companyId, locationId, date),
  ]);
  const { whole, keptUnder, ...layout } = await layoutOf(companyId, locationId, read.token, options.bookingGroupId);
  const group = options.bookingGroupId === undefined ? undefined : layout.groups.get(options.bookingGroupId);
  return {
    location: found(locationId, options, { location: layout.location, group, guest: read.guest }),
    settings: layout.settings,
    ...(group ? { group } : {}),
    tables: layout.tables,
    bookings: whole ? around : await bookings.between(companyId, locationId, from, to),
    offers: heldByOffers(offers),
    ...(read.active !== undefined ? { activeBookingsOfGuest: read.active } : {}),
    ...(keptUnder !== undefined ? { keptUnder } : {}),
  };
}

/**
 * The location's layout as it is under `token`: the one kept, or read now (after the token, strongly
 * consistent) and kept when the location exists, has a token and its buckets are whole. A kept
 * layout without the booking group asked for reads the group alone.
 */
async function layoutOf(
  companyId: number,
  locationId: number,
  token: string | undefined,
  groupId: string | undefined,
): Promise<Omit<Layout, 'location'> & { location: Location | undefined; whole: boolean; keptUnder?: string }> {
  const kept = token === undefined ? undefined : layoutCache.get(companyId, locationId, token);
  if (kept) {
    if (groupId !== undefined && !kept.groups.has(groupId)) {
      const { group } = await readTogether(
        { group: bookingGroups.read(companyId, locationId, groupId) },
        { consistent: true },
      );
      if (group) kept.groups.set(groupId, group);
    }
    return { ...kept, whole: true, keptUnder: token };
  }
  const [read, tables] = await Promise.all([
    readTogether(
      {
        location: locationEntity.read(companyId, locationId),
        settings: bookingSettings.read(companyId, locationId),
        group: groupId === undefined ? noRead(undefined) : bookingGroups.read(companyId, locationId, groupId),
        whole: bookingsAround.markerRead(companyId, locationId),
      },
      { consistent: true },
    ),
    diningTables.allNow(companyId, locationId),
  ]);
  const { location, whole } = read;
  const settings = settingsInForce(read.settings, locationId);
  const groups = new Map(read.group && groupId !== undefined ? [[groupId, read.group]] : []);
  const keeps = token !== undefined && whole && location !== undefined;
  if (keeps) layoutCache.keep(companyId, locationId, token, { location, settings, tables, groups });
  return { location, settings, tables, groups, whole, ...(keeps ? { keptUnder: token } : {}) };
}

/** What the objective counts on the date: its service, the stay sold (the default duration), the buffer. */
export function sellingTerms(floor: Pick<AssignmentFloor, 'location' | 'settings'>, date: string): SellingTerms {
  const { location, settings } = floor;
  const spans = openSpans(settings.operatingHours ?? location.operatingHours, date, location.timezone);
  return {
    service: serviceOf(spans, date, location.timezone),
    stayMinutes: settings.defaultDurationMinutes,
    bufferMinutes: settings.bufferMinutes,
  };
}

/**
 * The floor automatic assignment chooses on for a party (assignment.ts chooseTables): the sets of
 * every table that seat it (fit.ts partySets, as availability counts them), the holds around the
 * date, the objective's terms.
 */
export function seatingFloor(floor: AssignmentFloor, date: string, guestCount: number): SeatingFloor {
  const held = [...floor.bookings, ...(floor.offers ?? [])]
    .filter(holdsTables)
    .map((b) => ({ id: b.id, tableIds: b.tableIds, ...intervalOf(b) }));
  return {
    seats: new Map(floor.tables.map((t) => [t.id, t.maxCapacity])),
    sets: partySets(floor.tables, guestCount),
    holds: holdsByTable(held),
    terms: sellingTerms(floor, date),
  };
}

/**
 * The date's slots as the operation answers them: `daySlots`, then the slots no free set seats
 * asked of re-seating (reseat.ts), as a create would re-seat. `answersKept` finds re-seating's
 * answers on this very floor (`floorDigest`, layoutCache.ts), asked only when some slot needs
 * re-seating: a stay answered there is not asked again, and one asked is added; only a stay with
 * no answer loads the solver.
 */
export async function availableSlots(
  request: AvailabilityRequest,
  answersKept?: () => ReseatAnswers | undefined,
): Promise<AvailabilitySlot[]> {
  const slots = daySlots(request);
  if (!reseatingMatters(slots)) return slots;
  const known = answersKept?.();
  const stayKey = (stay: Interval) => `${stay.startMs}/${stay.endMs}`;
  // The solver is loaded only when some stay re-seating is asked about has no answer kept.
  const unknown = staysToReseat(slots).some((stay) => !known?.has(stayKey(stay)));
  const solver = unknown ? await loadSolver() : undefined;
  const { rules, date, partySize } = request;
  const seating = solver && reseatFloor(date, request.bookings, rules.tables, rules.settings.bufferMinutes);
  return withReseating(slots, (stay) => {
    const key = stayKey(stay);
    const answer =
      known?.get(key) ?? reseating(solver!, seating!, { id: '', guestCount: partySize, ...stay }) !== undefined;
    known?.set(key, answer);
    return answer;
  });
}

/**
 * What re-seating's answers on a date depend on besides the location's layout: the date, the party,
 * the booking group, and every hold around the date as read (bookings and offers, each by every field
 * re-seating reads). Two calls with the same digest under the same layout token get the same answers.
 */
export function floorDigest(
  date: string,
  partySize: number,
  groupId: string | undefined,
  around: readonly BookingAround[],
): string {
  const holds = around
    .map((b) =>
      JSON.stringify([
        b.id,
        b.tableIds,
        b.startsAt,
        b.endsAt,
        b.guestCount,
        b.status,
        b.bookingDate ?? null,
        b.locked ?? null,
      ]),
    )
    .sort();
  return createHash('sha256')
    .update(JSON.stringify([date, partySize, groupId ?? null, holds]))
    .digest('base64url');
}

/** A date's demand for the selling policy (selling.ts): the date's, and the same weekday's before it. */
export async function readDemand(companyId: number, locationId: number, date: string): Promise<SellingDemand> {
  const { days } = await readTogether({ days: demand.read(companyId, locationId, demandDates(date)) });
  const [today = {}, ...history] = days;
  return { today, history };
}

/** The selling policy's prices for a party on the date's floor (its bookings and offers), or undefined when it is neutral. Create and availability both ask this. */
export function pricesOn(
  solver: Solver,
  floor: Pick<AssignmentFloor, 'location' | 'settings' | 'tables' | 'bookings' | 'offers'>,
  date: string,
  partySize: number,
  sold: SellingDemand,
): SellingPrices | undefined {
  const around = [...floor.bookings, ...(floor.offers ?? [])];
  const seats = sellingFloor(date, floor.location.timezone, floor.tables, around, floor.settings.bufferMinutes);
  return policyPrices(solver, seats, sold, partySize);
}

/** The same, the solver loaded first. */
export const policyFor = async (
  floor: Pick<AssignmentFloor, 'location' | 'settings' | 'tables' | 'bookings' | 'offers'>,
  date: string,
  partySize: number,
  sold: SellingDemand,
): Promise<SellingPrices | undefined> => pricesOn(await loadSolver(), floor, date, partySize, sold);

/** The slots the selling policy declines for the party, marked `selling_policy`, as a create would be declined. */
export function withSellingPolicy(
  slots: readonly AvailabilitySlot[],
  prices: SellingPrices,
  date: string,
  zone: string,
  partySize: number,
): AvailabilitySlot[] {
  return slots.map((slot) => {
    if (!slot.available) return slot;
    const ask = askFor(date, zone, partySize, { startMs: Date.parse(slot.startsAt), endMs: Date.parse(slot.endsAt) });
    if (!declines(prices, ask)) return slot;
    const { overbooked: _, ...rest } = slot;
    return { ...rest, available: false, reason: 'selling_policy' };
  });
}

export interface Availability {
  locationId: number;
  date: string;
  partySize: number;
  bookingGroupId: string | null;
  timezone: string;
  slotIntervalMinutes: number;
  durationMinutes: number;
  slots: AvailabilitySlot[];
}

/** The date's slots for a party at the location (or one of its booking groups; for a named guest, their limit too). */
export async function getAvailability(
  principal: Principal,
  locationId: number,
  query: AvailabilityQuery,
): Promise<Availability> {
  assertLocationAllowed(principal, locationId);
  const { keptUnder, ...floor } = await readAvailabilityFloor(principal.companyId, locationId, query.date, query);
  const rules = inForce(floor.location.operatingHours, floor.settings, floor.tables, floor.group);
  const around = [...floor.bookings, ...(floor.offers ?? [])];
  // Re-seating's answers on this floor, kept with the layout (layoutCache.ts): exact while both stand.
  // The floor's digest is taken only when a slot needs re-seating.
  const answersKept = () =>
    keptUnder === undefined
      ? undefined
      : layoutCache.reseatAnswers(
          principal.companyId,
          locationId,
          keptUnder,
          floorDigest(query.date, query.partySize, floor.group?.id, around),
        );
  const request: AvailabilityRequest = {
    date: query.date,
    zone: floor.location.timezone,
    nowMs: Date.now(),
    partySize: query.partySize,
    rules,
    bookings: around,
    ...(floor.activeBookingsOfGuest !== undefined ? { activeBookingsOfGuest: floor.activeBookingsOfGuest } : {}),
  };
  let slots = await availableSlots(request, answersKept);
  // The selling policy, on: the slots it would decline (a create for the party without tables, not a walk-in).
  if (floor.settings.sellingPolicyEnabled && slots.some((s) => s.available)) {
    const sold = await readDemand(principal.companyId, locationId, query.date);
    const prices = forecasts(sold) ? await policyFor(floor, query.date, query.partySize, sold) : undefined;
    if (prices) slots = withSellingPolicy(slots, prices, query.date, floor.location.timezone, query.partySize);
  }
  return {
    locationId,
    date: query.date,
    partySize: query.partySize,
    bookingGroupId: floor.group?.id ?? null,
    timezone: floor.location.timezone,
    slotIntervalMinutes: rules.settings.slotIntervalMinutes,
    durationMinutes: rules.settings.defaultDurationMinutes,
    slots,
  };
}
