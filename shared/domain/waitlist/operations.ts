/**
 * The booking waitlist's operations (docs/waitlist.md): join, list, get and offer a spot (staff),
 * and the guest's by-code reads and answers: accept (the booking, with its tab, in the same
 * transaction as the entry's change), decline, leave. Each change is one transaction with its event
 * (an offer that re-seats bookings to free its tables writes their moves in the same one).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { bookings, CodeTaken, type Booking } from '../../data/bookings';
import { bookingSettings } from '../../data/bookingSettings';
import { writeBooking, writeBookings, type BookingWrite } from '../../data/bookingWrite';
import { guests } from '../../data/guests';
import { locationEntity, type Location } from '../../data/locations';
import { SWEEP_CONCURRENCY } from '../../data/noShowSweep';
import { diningTables } from '../../data/tables';
import { Contention, tableDays, type TableDay, type TableDayWrite } from '../../data/tableDays';
import {
  entrySteps,
  waitlist,
  WaitlistCodeTaken,
  waitlistSteps,
  type WaitlistEntry,
  type WaitlistOffer,
  type WaitlistWrite,
} from '../../data/waitlist';
import { AppError, conflict, notFound, unprocessable, validationFailed, type FieldProblem } from '../../errors';
import { newEvent, type EventName } from '../../events/catalog';
import { Page } from '../../page';
import { mapPool } from '../../pool';
import {
  DEFAULT_OFFER_HOLD_MINUTES,
  type JoinWaitlistBody,
  type ListWaitlistQuery,
  type OfferWaitlistBody,
} from '../../schemas/waitlist';
import { assertLocationAllowed, listedAt, listLocation } from '../access';
import { newConfirmationCode } from '../bookings/confirmationCode';
import { heldByOffers, heldByTableDay } from '../bookings/floor';
import { placeHolds, retryingContention } from '../bookings/holdPlacement';
import {
  holdDays,
  holdReads,
  MAX_BUFFER_MINUTES,
  MAX_DEFAULT_DURATION_MINUTES,
  planHolds,
  possibleHoldDates,
  type Placement,
} from '../bookings/holds';
import { groupHoldWrites, movedPlacement } from '../bookings/moves';
import { retabled } from '../bookings/optimize';
import { assertTablesFound, type RequestedTables } from '../bookings/requestTables';
import { reseatFloor, reseating } from '../bookings/reseat';
import { activeChange, assertBookingRules } from '../bookings/rules';
import { addDays } from '../bookings/serviceHours';
import { settingsInForce } from '../bookings/settings';
import { loadSolver } from '../bookings/solver';
import { claimChanges, initialTabs, tabCreates, withTabs } from '../bookings/tabs';
import { stayOf } from '../bookings/stay';
import { localDateTime, slotLasting } from '../bookings/time';
import { isLocalPhone, normalizeEmail, parsePhone } from '../contact';
import { asOf, moved, nextStatus, offerLapsed, type WaitlistAction } from './states';

const event = (companyId: number, name: EventName, e: WaitlistEntry, changes: Record<string, unknown> | null = null) =>
  newEvent(companyId, name, e.id, { ...e }, changes);

const locationMissing = (locationId: number) =>
  new AppError('NOT_FOUND', `Location ${locationId} not found`, [{ path: '/locationId', message: 'no such location' }]);

/** The guest fields as stored (email lower-cased, phone in E.164, a local phone read in the location's country); 400 naming the field. */
function checkedContact(
  input: JoinWaitlistBody,
  location: Location,
): Pick<WaitlistEntry, 'guestName' | 'guestEmail' | 'guestPhone'> {
  const problems: FieldProblem[] = [];
  let guestPhone: string | null = null;
  if (input.guestPhone) {
    const parsed = parsePhone(input.guestPhone, isLocalPhone(input.guestPhone) ? location.country : undefined);
    if (parsed.ok) guestPhone = parsed.e164;
    else problems.push({ path: '/guestPhone', message: parsed.problem });
  }
  if (problems.length) throw validationFailed('The waitlist entry is not valid', problems);
  return {
    guestName: input.guestName ?? null,
    guestEmail: input.guestEmail ? normalizeEmail(input.guestEmail) : null,
    guestPhone,
  };
}

/** 400 for what the schema cannot say: a guest must be named, and the window must not end before it starts. */
function checkedJoin(input: JoinWaitlistBody): void {
  const problems: FieldProblem[] = [];
  if (!input.primaryUserId && !input.guestName && !input.guestEmail && !input.guestPhone) {
    problems.push({
      path: '/guestName',
      message: 'name the guest (guestName, guestEmail or guestPhone) or pass primaryUserId',
    });
  }
  if (input.windowEnd && input.windowEnd < input.windowStart)
    problems.push({ path: '/windowEnd', message: 'must not be before windowStart (a window does not cross midnight)' });
  if (problems.length) throw validationFailed('The waitlist entry is not valid', problems);
}

/** Runs a create whose drawn code may be taken again with a new one. */
async function withFreshCode<T>(create: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await create();
    } catch (err) {
      if (!(err instanceof WaitlistCodeTaken) && !(err instanceof CodeTaken)) throw err;
    }
  }
}

/** POST /api/v1/booking-waitlist: the party joins the location's list for a date and a window of start times. */
export async function joinWaitlist(principal: Principal, input: JoinWaitlistBody): Promise<WaitlistEntry> {
  assertLocationAllowed(principal, input.locationId);
  checkedJoin(input);
  const { companyId } = principal;
  const read = await readTogether({
    location: locationEntity.read(companyId, input.locationId),
    guest: input.primaryUserId ? guests.read(companyId, input.primaryUserId) : noRead(undefined),
  });
  if (!read.location) throw locationMissing(input.locationId);
  if (input.primaryUserId && !read.guest)
    throw new AppError('NOT_FOUND', `Guest ${input.primaryUserId} not found`, [
      { path: '/primaryUserId', message: 'no guest with this id' },
    ]);
  const today = localDateTime(Date.now(), read.location.timezone).date;
  if (input.desiredDate < today)
    throw unprocessable('The desired date has passed', [
      { path: '/desiredDate', message: `must be ${today} (today at the location) or later` },
    ]);
  const contact = checkedContact(input, read.location);
  const { guest } = read;
  const now = new Date().toISOString();
  return withFreshCode(async () => {
    const entry: WaitlistEntry = {
      id: randomUUID(),
      locationId: input.locationId,
      code: newConfirmationCode(),
      status: 'waiting',
      partySize: input.partySize,
      desiredDate: input.desiredDate,
      windowStart: input.windowStart,
      windowEnd: input.windowEnd ?? input.windowStart,
      primaryUserId: input.primaryUserId ?? null,
      guestName: contact.guestName ?? guest?.name ?? null,
      guestEmail: contact.guestEmail ?? guest?.email ?? null,
      guestPhone: contact.guestPhone ?? guest?.phone ?? null,
      notes: input.notes ?? null,
      offer: null,
      bookingId: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await waitlist.write(companyId, { next: entry, events: [event(companyId, 'waitlist.joined', entry)] });
    return entry;
  });
}

/** GET /api/v1/booking-waitlist: by desired date, then joining order; a lapsed offer lists as expired. */
export async function listWaitlist(
  principal: Principal,
  q: ListWaitlistQuery,
  headerLocation?: string,
): Promise<Page<WaitlistEntry>> {
  const locationId = listLocation(principal, q.locationId, headerLocation);
  const nowMs = Date.now();
  const page = await listedAt(
    principal.companyId,
    locationId,
    await waitlist.list(principal.companyId, { ...q, locationId, now: new Date(nowMs).toISOString() }),
  );
  return new Page(
    page.items.map((e) => asOf(e, nowMs)),
    page.pagination,
  );
}

/**
 * The entry as it is now: a lapsed offer is expired here and now (its hold released, its event
 * written). An entry changed meanwhile by another request is read again.
 */
async function current(companyId: number, entry: WaitlistEntry): Promise<WaitlistEntry> {
  if (!offerLapsed(entry, Date.now())) return entry;
  const next = moved(entry, 'expire', new Date().toISOString());
  try {
    await waitlist.write(companyId, {
      prev: entry,
      next,
      release: entry.offer!,
      events: [event(companyId, 'waitlist.expired', next, { status: 'expired' })],
    });
    return next;
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'CONFLICT') throw err;
    const again = await waitlist.get(companyId, entry.id);
    if (!again) throw notFound('Waitlist entry');
    return asOf(again, Date.now());
  }
}

/** How far back the sweep looks for lapsed offers: a sweeper that was down this long catches up. */
const SWEEP_LOOKBACK_HOURS = 24;

/**
 * Expires the offers that have lapsed (their holds released, `waitlist.expired` sent), reading the
 * offer-lapse sweep items of the last hours (no Scan), each in its own transaction: SWEEP_CONCURRENCY
 * companies at once, a company's entries one after another (their offers may share table days);
 * run by the no-show sweeper's schedule (functions/sweeper/no-shows.ts). An entry changed
 * meanwhile is left to its next reader or run. Answers how many were expired.
 */
export async function sweepLapsedOffers(nowMs = Date.now()): Promise<number> {
  const due = await waitlist.lapsedOffers(nowMs - SWEEP_LOOKBACK_HOURS * 3_600_000, nowMs);
  const expired = await mapPool(
    due,
    SWEEP_CONCURRENCY,
    async ({ companyId, entryId }) => {
      // The entry's own offer decides, not the item's time (an item may outlive a change of the offer).
      const entry = await waitlist.get(companyId, entryId);
      if (!entry || !offerLapsed(entry, nowMs)) return false;
      return (await current(companyId, entry)).status === 'expired';
    },
    (d) => d.companyId,
  );
  return expired.filter(Boolean).length;
}

/** The company's entry (404 also for another company's), on a location the credential may act on (403), as it is now. */
async function entryFor(principal: Principal, id: string): Promise<WaitlistEntry> {
  const entry = await waitlist.get(principal.companyId, id);
  if (!entry) throw notFound('Waitlist entry');
  assertLocationAllowed(principal, entry.locationId);
  return current(principal.companyId, entry);
}

/** GET /api/v1/booking-waitlist/{id}. */
export const getWaitlistEntry = (principal: Principal, id: string): Promise<WaitlistEntry> => entryFor(principal, id);

/** Plans of a re-seating at most, each after a table found taken since the bookings were read (their index lags the table days). */
const RESEAT_PLANS = 4;

const dayKey = (d: { tableId: string; date: string }) => `${d.tableId}|${d.date}`;

/** What an offer writes when its tables are free only once the bookings holding them move. */
interface ReseatedOffer {
  /** Every table day touched, written once: the moved bookings' holds and the offer's (with its expiry). */
  days: TableDayWrite[];
  /** Each moved booking on its new tables, with `booking.updated`; a change since read is Contention. */
  moved: BookingWrite[];
}

/**
 * The offer's named tables freed by re-seating the date's movable bookings that hold them (of the
 * date, not locked, not seated; other offers never move), with the fewest moves (reseat.ts, the
 * party at exactly `p.requested.tableIds`); undefined when they cannot be freed. Reads the floor
 * (every table, the bookings of the day before to the day after, the offers holding tables), the
 * solver, and the table days the moves touch.
 */
async function reseatedOffer(
  companyId: number,
  locationId: number,
  bookingDate: string,
  guestCount: number,
  p: Placement & { expiresMs: number },
  read: readonly TableDay[],
  nowMs: number,
): Promise<ReseatedOffer | undefined> {
  const from = addDays(bookingDate, -1);
  const to = addDays(bookingDate, 1);
  const [tables, around, offers, solver] = await Promise.all([
    diningTables.all(companyId, locationId),
    bookings.between(companyId, locationId, from, to),
    waitlist.offeredBetween(companyId, locationId, from, to, new Date(nowMs).toISOString()),
    loadSolver(),
  ]);
  // Another offer's tables are held until it is taken or lapses: they never move.
  const held = heldByOffers(offers);
  const byId = new Map(around.map((b) => [b.id, b]));
  const byKey = new Map(read.map((d) => [dayKey(d), d]));
  const { zone, bufferMinutes } = p;
  const holdDates = (slot: Placement['slot']) => holdDays(slot, 0, zone).hold;
  for (let plans = 0; plans < RESEAT_PLANS; plans++) {
    const floor = reseatFloor(bookingDate, [...around, ...held], tables, bufferMinutes);
    const seated = reseating(solver, floor, { id: p.bookingId, guestCount, ...p.slot, sets: [p.requested.tableIds] });
    if (!seated) return undefined;
    const moves = seated.moves.map((m) => {
      const prev = byId.get(m.bookingId)!;
      return { prev, to: m.to, placement: movedPlacement(prev, m.to, zone, bufferMinutes) };
    });
    const wanted = [
      ...new Map([p, ...moves.map((m) => m.placement)].flatMap(holdReads).map((k) => [dayKey(k), k])).values(),
    ];
    const missing = wanted.filter((k) => !byKey.has(dayKey(k)));
    if (missing.length > 0)
      for (const d of (await readTogether({ days: tableDays.read(companyId, missing) })).days) byKey.set(dayKey(d), d);
    // The moves first (each booking off its old tables onto its new ones), then the offer's hold, which lapses, on what they leave.
    const group = groupHoldWrites(
      moves.map((m) => ({
        bookingId: m.prev.id,
        tableIds: m.to,
        slot: m.placement.slot,
        holdDates: holdDates(m.placement.slot),
      })),
      wanted.map((k) => byKey.get(dayKey(k))!),
      bufferMinutes,
    );
    const plan =
      'clash' in group
        ? group
        : planHolds({
            bookingId: p.bookingId,
            read: group.writes.map((w) => ({
              tableId: w.tableId,
              date: w.date,
              holds: w.holds,
              version: w.expectedVersion,
            })),
            tableIds: p.requested.tableIds,
            slot: p.slot,
            holdDates: holdDates(p.slot),
            bufferMinutes,
            expiresMs: p.expiresMs,
            nowMs,
          });
    if ('writes' in plan) {
      const at = new Date(nowMs).toISOString();
      return {
        days: plan.writes,
        moved: moves.map((m): BookingWrite => ({ ...retabled(companyId, m.prev, m.to, at, []), moved: true })),
      };
    }
    // A hold the bookings read does not show yet: it stays where it is, and the seating is planned again around it.
    const { tableId, with: other } = plan.clash;
    held.push(heldByTableDay(tableId, other));
  }
  return undefined;
}

/**
 * POST /api/v1/booking-waitlist/{id}/offer: holds the tables at the time for `holdMinutes` (a real
 * table-day hold, under the id the booking will have) and tells the guest (the entry's code). A
 * table taken then only by bookings that may move is freed by re-seating them (`reseatedOffer`),
 * written in one transaction with the offer. 409 when a table is taken then and cannot be freed,
 * or the entry is not waiting (or expired); 422 for a time that has passed, tables that seat fewer
 * than the party, or a party the location's settings refuse.
 */
export async function offerWaitlistSpot(
  principal: Principal,
  id: string,
  input: OfferWaitlistBody,
): Promise<WaitlistEntry> {
  const { companyId } = principal;
  const entry = await entryFor(principal, id);
  nextStatus(entry.status, 'offer');
  const bookingDate = entry.desiredDate;
  const requested: RequestedTables = { field: '/tableIds', tableIds: input.tableIds };
  const holdMinutes = input.holdMinutes ?? DEFAULT_OFFER_HOLD_MINUTES;
  const bookingId = randomUUID();
  const dates = possibleHoldDates(
    bookingDate,
    input.startTime,
    input.endTime ? { endTime: input.endTime } : { minutes: MAX_DEFAULT_DURATION_MINUTES },
  );
  return retryingContention(async () => {
    const read = await readTogether({
      location: locationEntity.read(companyId, entry.locationId),
      settings: bookingSettings.read(companyId, entry.locationId),
      tables: diningTables.readMany(companyId, entry.locationId, input.tableIds),
      days: tableDays.read(
        companyId,
        input.tableIds.flatMap((tableId) => dates.map((date) => ({ tableId, date }))),
      ),
    });
    if (!read.location) throw locationMissing(entry.locationId);
    assertTablesFound(entry.locationId, requested, read.tables);
    const seats = read.tables.reduce((n, t) => n + t.maxCapacity, 0);
    if (seats < entry.partySize)
      throw unprocessable(`The tables seat ${seats}, fewer than the party of ${entry.partySize}`, [
        { path: '/tableIds', message: `seat ${seats} guests at most` },
      ]);
    const settings = settingsInForce(read.settings, entry.locationId);
    const zone = read.location.timezone;
    const slot = input.endTime
      ? stayOf(
          bookingDate,
          input.startTime,
          input.endTime,
          zone,
          settings.operatingHours ?? read.location.operatingHours,
        )
      : slotLasting(bookingDate, input.startTime, settings.defaultDurationMinutes, zone);
    const nowMs = Date.now();
    if (slot.startMs <= nowMs)
      throw unprocessable('The offered time has passed', [{ path: '/startTime', message: 'must be in the future' }]);
    // Staff offer the spot by hand: the party's size is held to the settings, the advance rules are not (as for a party at the door).
    assertBookingRules(settings, { guestCount: entry.partySize, startMs: slot.startMs, nowMs, atTheDoor: true });
    const expiresMs = nowMs + holdMinutes * 60_000;
    const placement = { bookingId, requested, slot, zone, bufferMinutes: settings.bufferMinutes, expiresMs };
    let days: TableDayWrite[];
    let movedBookings: BookingWrite[] = [];
    try {
      days = await placeHolds(companyId, placement, read.days, read.tables);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'CONFLICT' || err instanceof Contention) throw err;
      // A named table is taken: free it by re-seating the bookings that hold it, else the same 409.
      const reseated = await reseatedOffer(
        companyId,
        entry.locationId,
        bookingDate,
        entry.partySize,
        placement,
        read.days,
        nowMs,
      );
      if (!reseated) throw err;
      days = reseated.days;
      movedBookings = reseated.moved;
    }
    const at = new Date(nowMs).toISOString();
    const offer: WaitlistOffer = {
      bookingId,
      tableIds: input.tableIds,
      bookingDate,
      startTime: input.startTime,
      endTime: slot.endTime,
      timezone: zone,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      holdDates: holdDays(slot, 0, zone).hold,
      offeredAt: at,
      expiresAt: new Date(expiresMs).toISOString(),
    };
    const next = moved(entry, 'offer', at, { offer });
    const change: WaitlistWrite = {
      prev: entry,
      next,
      tableDays: days,
      events: [event(companyId, 'waitlist.offered', next, { status: 'offered', offer })],
    };
    const [first, ...rest] = movedBookings;
    // With moves: one transaction for the moved bookings and the entry's change (its steps ride in the first move's `also`).
    if (first) await writeBookings(companyId, [{ ...first, also: waitlistSteps(companyId, change) }, ...rest]);
    else await waitlist.write(companyId, change);
    return next;
  });
}

/** What the guest sees of their entry through its code: no staff notes, no contact details. */
export interface PublicWaitlistEntry {
  id: string;
  code: string;
  locationId: number;
  status: WaitlistEntry['status'];
  partySize: number;
  desiredDate: string;
  windowStart: string;
  windowEnd: string;
  guestName: string | null;
  offer: Omit<WaitlistOffer, 'bookingId' | 'holdDates'> | null;
  bookingId: string | null;
  /** The booking an accepted offer made (accept's answer). */
  booking?: Pick<
    Booking,
    'id' | 'confirmationCode' | 'status' | 'bookingDate' | 'startTime' | 'endTime' | 'timezone' | 'guestCount' | 'tab'
  >;
}

export function publicEntry(e: WaitlistEntry, booking?: Booking): PublicWaitlistEntry {
  const { id, code, locationId, status, partySize, desiredDate, windowStart, windowEnd, guestName, bookingId } = e;
  const offer = e.offer && (({ bookingId: _b, holdDates: _d, ...shown }) => shown)(e.offer);
  const shown: PublicWaitlistEntry = {
    id,
    code,
    locationId,
    status,
    partySize,
    desiredDate,
    windowStart,
    windowEnd,
    guestName,
    offer,
    bookingId,
  };
  if (booking) {
    const { confirmationCode, bookingDate, startTime, endTime, timezone, guestCount, tab } = booking;
    shown.booking = {
      id: booking.id,
      confirmationCode,
      status: booking.status,
      bookingDate,
      startTime,
      endTime,
      timezone,
      guestCount,
      tab,
    };
  }
  return shown;
}

/** The entry a code names, as it is now (a lapsed offer expired), with its company; 404 for an unknown code. */
async function entryByCode(code: string): Promise<{ companyId: number; entry: WaitlistEntry }> {
  const found = await waitlist.findByCode(code);
  if (!found) throw notFound('Waitlist entry');
  return { companyId: found.companyId, entry: await current(found.companyId, found.entry) };
}

/** GET /api/v1/booking-waitlist/by-code/{code} (public). */
export async function getWaitlistByCode(code: string): Promise<PublicWaitlistEntry> {
  return publicEntry((await entryByCode(code)).entry);
}

/** The booking an accepted offer makes: the offer's tables and times, the entry's party and guest, with its tab(s). */
function bookingOfOffer(
  e: WaitlistEntry,
  o: WaitlistOffer,
  status: Booking['status'],
  autoNoShowAt: string | null,
  at: string,
): Booking {
  const tabs = initialTabs(o.tableIds, 'single', false, randomUUID);
  const nothing = {
    occasion: null,
    specialRequests: null,
    internalNotes: null,
    paymentType: null,
    depositAmountCents: null,
    statusBeforeSeating: null,
    seatingOrderId: null,
  };
  const notYet = { cancellationReason: null, seatedAt: null, completedAt: null, cancelledAt: null };
  return withTabs(
    {
      id: o.bookingId,
      locationId: e.locationId,
      bookingDate: o.bookingDate,
      startTime: o.startTime,
      endTime: o.endTime,
      timezone: o.timezone,
      startsAt: o.startsAt,
      endsAt: o.endsAt,
      guestCount: e.partySize,
      tableId: o.tableIds[0] ?? null,
      tableIds: o.tableIds,
      defaultTabStrategy: 'single',
      primaryUserId: e.primaryUserId,
      guestName: e.guestName,
      guestEmail: e.guestEmail,
      guestPhone: e.guestPhone,
      bookingSource: 'waitlist',
      status,
      confirmationCode: newConfirmationCode(),
      locked: false,
      autoNoShowAt,
      ...nothing,
      ...notYet,
      createdAt: at,
      updatedAt: at,
      version: 1,
    },
    tabs,
  );
}

/**
 * POST /api/v1/booking-waitlist/by-code/{code}/accept (public): the offered spot becomes a
 * booking (confirmed or pending as the location's confirmation mode says) with its tab, in one
 * transaction with the entry's change; 409 when the offer has expired or its table was taken.
 */
export async function acceptWaitlistOffer(code: string): Promise<PublicWaitlistEntry> {
  const { companyId, entry } = await entryByCode(code);
  // Accepted already (a guest's retry): the same answer, nothing written.
  if (entry.status === 'accepted' && entry.bookingId)
    return publicEntry(entry, await bookings.get(companyId, entry.bookingId));
  nextStatus(entry.status, 'accept');
  const offer = entry.offer!;
  const requested: RequestedTables = { field: '/tableIds', tableIds: offer.tableIds };
  const slot = { startMs: Date.parse(offer.startsAt), endMs: Date.parse(offer.endsAt) };
  const guard = holdReads({
    bookingId: offer.bookingId,
    requested,
    slot,
    zone: offer.timezone,
    bufferMinutes: MAX_BUFFER_MINUTES,
  });
  const attempt = async () => {
    const read = await readTogether({
      location: locationEntity.read(companyId, entry.locationId),
      settings: bookingSettings.read(companyId, entry.locationId),
      tables: diningTables.readMany(companyId, entry.locationId, offer.tableIds),
      days: tableDays.read(companyId, guard),
    });
    const nowMs = Date.now();
    if (offerLapsed(entry, nowMs)) throw conflict('The offer has expired: the held table is no longer held');
    if (!read.location || read.tables.length < offer.tableIds.length)
      throw conflict('The offered spot is gone: a table of it no longer exists');
    const settings = settingsInForce(read.settings, entry.locationId);
    const tableDaysWritten = await placeHolds(
      companyId,
      { bookingId: offer.bookingId, requested, slot, zone: offer.timezone, bufferMinutes: settings.bufferMinutes },
      read.days,
      read.tables,
    );
    const at = new Date(nowMs).toISOString();
    const status = settings.confirmationMode === 'instant' ? 'confirmed' : 'pending';
    const delay = settings.autoNoShowDelayMinutes;
    const b = bookingOfOffer(
      entry,
      offer,
      status,
      delay !== null ? new Date(slot.startMs + delay * 60_000).toISOString() : null,
      at,
    );
    const next = moved(entry, 'accept', at, { bookingId: b.id });
    await writeBooking(companyId, {
      next: b,
      tableDays: tableDaysWritten,
      tabs: tabCreates(b, b.tabs, at),
      openTabs: claimChanges(undefined, b),
      ...(b.primaryUserId !== null ? { guestHistory: { bookings: 1 } } : {}),
      activeBookings: activeChange(undefined, { status }, settings.maxActiveBookingsPerGuest),
      also: entrySteps(companyId, entry, next),
      events: [
        newEvent(companyId, 'booking.created', b.id, { ...b }),
        event(companyId, 'waitlist.accepted', next, { status: 'accepted', bookingId: b.id }),
      ],
    });
    return publicEntry(next, b);
  };
  return withFreshCode(() => retryingContention(attempt));
}

/** A guest's answer that ends the entry (decline, leave): the offer's hold, if it still holds, is released in the same transaction. */
async function endByCode(
  code: string,
  action: Extract<WaitlistAction, 'decline' | 'leave'>,
): Promise<PublicWaitlistEntry> {
  const { companyId, entry } = await entryByCode(code);
  const to = action === 'decline' ? 'declined' : 'left';
  if (entry.status === to) return publicEntry(entry);
  const next = moved(entry, action, new Date().toISOString());
  const release = entry.status === 'offered' ? entry.offer! : undefined;
  await waitlist.write(companyId, {
    prev: entry,
    next,
    ...(release ? { release } : {}),
    events: [event(companyId, action === 'decline' ? 'waitlist.declined' : 'waitlist.left', next, { status: to })],
  });
  return publicEntry(next);
}

/** POST /api/v1/booking-waitlist/by-code/{code}/decline (public): the guest turns the offer down; the table is free again. */
export const declineWaitlistOffer = (code: string) => endByCode(code, 'decline');

/** DELETE /api/v1/booking-waitlist/by-code/{code}/leave (public): the guest leaves the list (an offer they hold is released). */
export const leaveWaitlist = (code: string) => endByCode(code, 'leave');
