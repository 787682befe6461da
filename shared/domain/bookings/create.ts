/**
 * Creating a booking (docs/bookings.md, “States”) in three steps, each attempt: read, plan, write.
 *
 * - **Read**: one round trip for everything the create is checked against (the location, its
 *   booking settings, the tables, the guest, the table days of named tables) and, without named
 *   tables, the floor automatic assignment decides on (every table, the bookings around the date,
 *   the waitlist offers holding tables).
 * - **Plan** (`planCreate`, pure): the checks and the booking rules, the tables (named, or chosen:
 *   a free set by assignment.ts; when none is free, the date's movable bookings re-seated,
 *   reseat.ts; else the overbooking buffer; else 409 with the next available times), the holds,
 *   the booking, its tabs, code and event, and each moved booking with `booking.updated`: the
 *   writes, or a refusal, as a value. It may first ask for the solver, or for table days the read
 *   could not foresee.
 * - **Write**: one transaction for the booking and every booking it moves, each conditioned on
 *   the version read.
 *
 * A write that meets a concurrent one (Contention: a table day or a moved booking changed since
 * read), a table found taken since the bookings were read (their index lags the table days), a
 * code taken, or a table with a party at it for a walk-in, runs the attempt again from the read,
 * at most ATTEMPTS times (holdPlacement.ts `retrying`). With `autoOptimizeEnabled`, the rest of
 * the date is re-optimized once the booking is written.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { bookings, CodeTaken, type Booking } from '../../data/bookings';
import { bookingSettings } from '../../data/bookingSettings';
import { demand } from '../../data/demand';
import { writeBookings, type BookingWrite } from '../../data/bookingWrite';
import { guests, type Guest } from '../../data/guests';
import { locationEntity } from '../../data/locations';
import { TableOccupied } from '../../data/openTabs';
import type { DiningTable } from '../../data/tables';
import { diningTables } from '../../data/tables';
import { Contention, tableDays, type TableDay, type TableDayWrite } from '../../data/tableDays';
import type { Step } from '../../data/transact';
import { waitlist } from '../../data/waitlist';
import { AppError, unprocessable, validationFailed, type FieldProblem } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { CreateBookingBody } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import { isLocalPhone, normalizeEmail, parsePhone } from '../contact';
import { isIanaTimeZone } from '../locations';
import { noteAutoOptimize } from './autoOptimize';
import { newConfirmationCode } from './confirmationCode';
import { heldByOffers, heldByTableDay, pricesOn, readDemand, type AssignmentFloor } from './floor';
import { retrying } from './holdPlacement';
import {
  holdDays,
  holdReads,
  holdWrites,
  MAX_DEFAULT_DURATION_MINUTES,
  possibleHoldDates,
  type Placement,
} from './holds';
import { groupHoldWrites, movedPlacement } from './moves';
import { reoptimizeRest, retabled } from './optimize';
import {
  assertWithinBookingHours,
  assignedPlacement,
  type AssignmentRequest,
  type PartyPlacement,
  type TakenHold,
} from './placement';
import { assertTablesFound, requestedTables, type RequestedTables } from './requestTables';
import { askFor, declines, demandKey, forecasts, type SellingDemand } from './selling';
import { activeChange, assertBookingRules } from './rules';
import { addDays } from './serviceHours';
import { settingsInForce } from './settings';
import { loadSolver, type Solver } from './solver';
import { stayOf } from './stay';
import { claimChanges, initialTabs, tabCreates, withTabs } from './tabs';
import { localDateTime, slotLasting, type Interval } from './time';

/** The answer to a create: the booking, and why it was not seated when seating was asked for and skipped. */
export type CreatedBooking = Booking & { seatWarning?: string };

/** The new guest's steps go with the booking's own write (the first of the writes). */
const withNewGuest = ([created, ...moved]: BookingWrite[], g: NewGuest): BookingWrite[] => [
  { ...created!, also: [...(created!.also ?? []), ...g.steps] },
  ...moved,
];

/** Attempts of a create at most (read, plan, write): each after a concurrent write, a table found taken, or a code taken. */
const ATTEMPTS = 8;

/**
 * What the schema cannot check (400 with details): the time zone is an IANA name, the phone is a
 * possible number, and the guest is named and the party counted unless a walk-in is seated at once. Answers the guest
 * fields as stored: email lower-cased, phone in E.164. A local phone number (no country code) is
 * read once the location is (`localGuestPhone`): its `guestPhone` here is null.
 */
function checkedGuest(input: CreateBookingBody): {
  guestName: string | null;
  guestEmail: string | null;
  guestPhone: string | null;
} {
  const problems: FieldProblem[] = [];
  let guestPhone: string | null = null;
  if (input.guestPhone && !isLocalPhone(input.guestPhone)) {
    const parsed = parsePhone(input.guestPhone);
    if (parsed.ok) guestPhone = parsed.e164;
    else problems.push({ path: '/guestPhone', message: parsed.problem });
  }
  if (input.timezone !== undefined && !isIanaTimeZone(input.timezone))
    problems.push({ path: '/timezone', message: 'is not an IANA time zone name (e.g. Europe/Stockholm)' });
  const named = input.primaryUserId || input.guestName || input.guestEmail || input.guestPhone;
  if (!named && !input.seatImmediately) {
    problems.push({
      path: '/guestName',
      message:
        'name the guest (guestName, guestEmail or guestPhone) or pass primaryUserId; only a walk-in seated at once may be anonymous',
    });
  }
  if (input.guestCount === 0 && !input.seatImmediately)
    problems.push({
      path: '/guestCount',
      message: 'may be 0 only for a walk-in seated at once (seatImmediately: true)',
    });
  if (problems.length) throw validationFailed('The booking is not valid', problems);
  return {
    guestName: input.guestName ?? null,
    guestEmail: input.guestEmail ? normalizeEmail(input.guestEmail) : null,
    guestPhone,
  };
}

/** A local `guestPhone` read in the location's country, in E.164 (400 when it cannot be); null when the phone is not local. */
function localGuestPhone(input: CreateBookingBody, location: { country?: string | null }): string | null {
  if (!input.guestPhone || !isLocalPhone(input.guestPhone)) return null;
  const parsed = parsePhone(input.guestPhone, location.country);
  if (!parsed.ok)
    throw validationFailed('The booking is not valid', [{ path: '/guestPhone', message: parsed.problem }]);
  return parsed.e164;
}

/** Why a party cannot be seated on creation before anything is read, or undefined (a party without tables gets one assigned). */
function seatingBlocker(depositAmountCents: number | null): string | undefined {
  if (depositAmountCents !== null && depositAmountCents > 0)
    return "The deposit is a required item and is unpaid (a purchase on the booking's tab pays it; then seat the booking); the booking was created without seating";
  return undefined;
}

/**
 * Everything a create is checked against, in one round trip: the location, its settings, the
 * tables, the guest, and the table days of every date the hold could touch (the zone and the
 * settings that fix which are needed are read in the same call). Without named tables, also the
 * floor: every table, the bookings from the day before to the day after, the offers holding tables.
 */
async function readForCreate(companyId: number, input: CreateBookingBody, requested: RequestedTables) {
  const dates = possibleHoldDates(
    input.bookingDate,
    input.startTime,
    input.endTime ? { endTime: input.endTime } : { minutes: MAX_DEFAULT_DURATION_MINUTES },
  );
  const assigning = requested.tableIds.length === 0;
  const from = addDays(input.bookingDate, -1);
  const to = addDays(input.bookingDate, 1);
  const [read, allTables, around, offers] = await Promise.all([
    readTogether({
      location: locationEntity.read(companyId, input.locationId),
      settings: bookingSettings.read(companyId, input.locationId),
      tables: diningTables.readMany(companyId, input.locationId, requested.tableIds),
      guest: input.primaryUserId ? guests.read(companyId, input.primaryUserId) : noRead(undefined),
      days: tableDays.read(
        companyId,
        requested.tableIds.flatMap((tableId) => dates.map((date) => ({ tableId, date }))),
      ),
    }),
    assigning ? diningTables.all(companyId, input.locationId) : [],
    assigning ? bookings.between(companyId, input.locationId, from, to) : [],
    assigning ? waitlist.offeredBetween(companyId, input.locationId, from, to, new Date().toISOString()) : [],
  ]);
  // The selling policy decides a booking made ahead without tables: the date's demand and its history.
  const selling =
    assigning && !input.seatImmediately && read.location && read.settings?.sellingPolicyEnabled
      ? await readDemand(companyId, input.locationId, input.bookingDate)
      : undefined;
  return {
    ...read,
    floor: assigning ? { tables: allTables, bookings: around, offers: heldByOffers(offers) } : undefined,
    ...(selling ? { selling } : {}),
  };
}

export type CreateRead = Awaited<ReturnType<typeof readForCreate>>;

/** The request's kind as the selling policy's demand counts it (selling.ts `demandKey`), or undefined for a stay that is not valid (refused by the plan). */
function demandOf(input: CreateBookingBody, floor: Pick<AssignmentFloor, 'location' | 'settings'>): string | undefined {
  try {
    const stay = requestedStay(input, floor);
    return demandKey(askFor(input.bookingDate, floor.location.timezone, input.guestCount, stay));
  } catch {
    return undefined;
  }
}

/**
 * Counts the request in its date's demand. A statistic for the forecast: a failure to count is
 * logged and the answer stands (the booking is written, or the refusal is answered).
 */
async function countDemand(companyId: number, input: CreateBookingBody, kind: string): Promise<void> {
  try {
    await demand.count(companyId, input.locationId, input.bookingDate, kind);
  } catch (err) {
    console.error(`selling policy: a request of ${input.bookingDate} was not counted`, err);
  }
}

/** The stay asked for: to `endTime`, else the default duration. */
function requestedStay(input: CreateBookingBody, floor: Pick<AssignmentFloor, 'location' | 'settings'>) {
  const { location, settings } = floor;
  return input.endTime
    ? stayOf(
        input.bookingDate,
        input.startTime,
        input.endTime,
        location.timezone,
        settings.operatingHours ?? location.operatingHours,
      )
    : slotLasting(input.bookingDate, input.startTime, settings.defaultDurationMinutes, location.timezone);
}

/**
 * 409 when the selling policy (selling.ts; the booking setting `sellingPolicyEnabled`) declines
 * the party: on a date forecast to be asked for more than it seats, its covers are worth less
 * than the seat-minutes it would take. Availability marks the same slots `selling_policy`.
 */
function assertSold(
  solver: Solver,
  floor: AssignmentFloor,
  input: AssignmentRequest,
  slot: Interval,
  sold: SellingDemand,
): void {
  const zone = floor.location.timezone;
  const prices = pricesOn(solver, floor, input.bookingDate, input.guestCount, sold);
  if (!prices || !declines(prices, askFor(input.bookingDate, zone, input.guestCount, slot))) return;
  const at = localDateTime(slot.startMs, zone).time;
  throw new AppError(
    'CONFLICT',
    `Declined by the selling policy: a party of ${input.guestCount} at ${at} on ${input.bookingDate} would take seats the date's expected demand sells for more covers`,
    [{ path: '/guestCount', message: `declined by the selling policy for ${at}` }],
  );
}

/** 404 for an unknown location, table or guest; 422 for a time zone other than the location's. Answers the location. */
function checkedRead(read: CreateRead, input: CreateBookingBody, requested: RequestedTables) {
  const { location } = read;
  if (!location)
    throw new AppError('NOT_FOUND', `Location ${input.locationId} not found`, [
      { path: '/locationId', message: 'no such location' },
    ]);
  assertTablesFound(location.id, requested, read.tables);
  if (input.primaryUserId && !read.guest)
    throw new AppError('NOT_FOUND', `Guest ${input.primaryUserId} not found`, [
      { path: '/primaryUserId', message: 'no guest with this id' },
    ]);
  if (input.timezone !== undefined && input.timezone !== location.timezone) {
    throw unprocessable(`Bookings at location ${location.id} are in its time zone, ${location.timezone}`, [
      { path: '/timezone', message: `must be ${location.timezone}, the location's time zone` },
    ]);
  }
  return location;
}

/** What changes between the attempts of one create. */
export interface CreateState {
  /** Holds found since the floor was read. */
  taken: TakenHold[];
  /** Whether the booking is seated on creation (asked, and not given up). */
  seat: boolean;
  /** Why it is not seated although asked. */
  seatWarning?: string | undefined;
}

/** What a plan makes anew: the booking's id (the same for every attempt), a code, the time, ids for its tabs. */
export interface Fresh {
  id: string;
  confirmationCode: string;
  now: Date;
  uuid: () => string;
}

/** The plan of one attempt: the writes, a refusal, or what it needs first. */
export type CreatePlan =
  | { write: BookingWrite[]; booking: Booking; seatWarning?: string | undefined }
  | { refuse: AppError }
  | { solve: true }
  | { read: { tableId: string; date: string }[] }
  | { taken: TakenHold };

const dayKey = (d: { tableId: string; date: string }) => `${d.tableId}|${d.date}`;

/**
 * Plans one attempt of a create from what was read (pure but for the solver it is given): the
 * checks, the booking rules, the tables and holds, the booking and everything written with it.
 * Refusals (4xx) are answered as a value, not thrown.
 */
export function planCreate(
  companyId: number,
  input: CreateBookingBody,
  read: CreateRead,
  days: readonly TableDay[],
  state: CreateState,
  fresh: Fresh,
  solver?: Solver,
): CreatePlan {
  try {
    return plan(companyId, input, read, days, state, fresh, solver);
  } catch (err) {
    if (err instanceof AppError) return { refuse: err };
    throw err;
  }
}

function plan(
  companyId: number,
  input: CreateBookingBody,
  read: CreateRead,
  days: readonly TableDay[],
  state: CreateState,
  fresh: Fresh,
  solver: Solver | undefined,
): CreatePlan {
  const contact = checkedGuest(input);
  const requested = requestedTables(input, []);
  const assigning = requested.tableIds.length === 0;
  const seatAsked = input.seatImmediately === true;
  const location = checkedRead(read, input, requested);
  const guestPhone = contact.guestPhone ?? localGuestPhone(input, location);
  const tables: readonly DiningTable[] = read.floor?.tables ?? read.tables;
  const settings = settingsInForce(read.settings, location.id);
  const zone = location.timezone;
  const slot = requestedStay(input, { location, settings });
  // A booking made ahead without tables is held to the booking hours, as availability offers slots.
  if (assigning && !seatAsked) assertWithinBookingHours({ location, settings }, input.bookingDate, slot);
  const nowMs = fresh.now.getTime();
  assertBookingRules(settings, { guestCount: input.guestCount, startMs: slot.startMs, nowMs, atTheDoor: seatAsked });

  if (read.floor && read.selling && forecasts(read.selling)) {
    if (!solver) return { solve: true };
    assertSold(solver, { location, settings, ...read.floor }, input, slot, read.selling);
  }
  let placement: PartyPlacement = { tableIds: requested.tableIds, moves: [] };
  if (read.floor) {
    const placed = assignedPlacement({ location, settings, ...read.floor }, input, slot, state.taken, nowMs, solver);
    if (placed === 'solve') return { solve: true };
    placement = placed;
  }
  const { tableIds, moves } = placement;
  const byId = new Map((read.floor?.bookings ?? []).map((b) => [b.id, b]));
  const bufferMinutes = settings.bufferMinutes;
  const holds: Placement[] = [
    { bookingId: fresh.id, requested: { ...requested, tableIds }, slot, zone, bufferMinutes },
    ...moves.map((m) => movedPlacement(byId.get(m.bookingId)!, m.to, zone, bufferMinutes)),
  ];
  const wanted = [...new Map(holds.flatMap(holdReads).map((k) => [dayKey(k), k])).values()];
  const byKey = new Map(days.map((d) => [dayKey(d), d]));
  const missing = wanted.filter((k) => !byKey.has(dayKey(k)));
  // Days the read could not name: a chosen table's or a moved booking's, or one of a zone whose clocks jump more than an hour.
  if (missing.length > 0) return { read: missing };
  const wantedDays = wanted.map((k) => byKey.get(dayKey(k))!);
  let written: TableDayWrite[];
  if (!assigning) written = holdWrites(holds[0]!, wantedDays, tables);
  else {
    const group = groupHoldWrites(
      holds.map((h) => ({
        bookingId: h.bookingId,
        tableIds: h.requested.tableIds,
        slot: h.slot,
        holdDates: holdDays(h.slot, 0, zone).hold,
      })),
      wantedDays,
      bufferMinutes,
    );
    // Taken since the bookings were read (their index lags the table days): choose again, clear of it.
    if ('clash' in group) return { taken: heldByTableDay(group.clash.tableId, group.clash.with) };
    written = group.writes;
  }

  let { seat, seatWarning } = state;
  if (seat && tableIds.length === 0) {
    seat = false;
    seatWarning =
      'No table is assigned (the location has none): seating needs one; the booking was created without seating';
  }
  const status = seat ? 'seated' : settings.confirmationMode === 'instant' ? 'confirmed' : 'pending';
  const now = fresh.now.toISOString();
  const strategy = input.defaultTabStrategy ?? 'single';
  const tabs = initialTabs(tableIds, strategy, seat, fresh.uuid);
  const delay = settings.autoNoShowDelayMinutes;
  const { guest } = read;
  const b: Booking = withTabs(
    {
      id: fresh.id,
      locationId: location.id,
      bookingDate: input.bookingDate,
      startTime: input.startTime,
      endTime: slot.endTime,
      timezone: zone,
      startsAt: slot.startsAt,
      endsAt: slot.endsAt,
      guestCount: input.guestCount,
      tableId: tableIds[0] ?? null,
      tableIds,
      defaultTabStrategy: strategy,
      primaryUserId: input.primaryUserId ?? null,
      guestName: contact.guestName ?? guest?.name ?? null,
      guestEmail: contact.guestEmail ?? guest?.email ?? null,
      guestPhone: guestPhone ?? guest?.phone ?? null,
      occasion: input.occasion ?? null,
      specialRequests: input.specialRequests ?? null,
      internalNotes: input.internalNotes ?? null,
      paymentType: input.paymentType ?? null,
      depositAmountCents: input.depositAmountCents ?? null,
      bookingSource: input.bookingSource ?? null,
      status,
      // A party seated at the door has confirmed itself by being there.
      statusBeforeSeating: seat ? 'confirmed' : null,
      confirmationCode: fresh.confirmationCode,
      locked: false,
      seatingOrderId: null,
      autoNoShowAt: !seat && delay !== null ? new Date(slot.startMs + delay * 60_000).toISOString() : null,
      cancellationReason: null,
      seatedAt: seat ? now : null,
      completedAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    },
    tabs,
  );
  const events = [newEvent(companyId, 'booking.created', b.id, { ...b })];
  if (seat) events.push(newEvent(companyId, 'booking.seated', b.id, { ...b, tabId: b.tab.id }));
  const created: BookingWrite = {
    next: b,
    tableDays: written,
    tabs: tabCreates(b, tabs, now),
    openTabs: claimChanges(undefined, b),
    ...(b.primaryUserId !== null ? { guestHistory: { bookings: 1, ...(seat ? { lastVisitAt: now } : {}) } } : {}),
    activeBookings: activeChange(undefined, { status }, settings.maxActiveBookingsPerGuest),
    events,
  };
  // Each booking moved to make room: its new tables and tabs, and booking.updated (the table days are written once, above).
  const moved = moves.map(
    (m): BookingWrite => ({ ...retabled(companyId, byId.get(m.bookingId)!, m.to, now, []), moved: true }),
  );
  return { write: [created, ...moved], booking: b, seatWarning };
}

/**
 * A guest the booking makes as it is written (a guest's first online booking, docs/online-booking.md):
 * `primaryUserId` names it, and its steps go into the booking's transaction, so a refused booking
 * leaves no guest behind.
 */
export interface NewGuest {
  guest: Guest;
  steps: Step[];
}

export async function createBooking(
  principal: Principal,
  input: CreateBookingBody,
  newGuest?: NewGuest,
): Promise<CreatedBooking> {
  assertLocationAllowed(principal, input.locationId);
  const { companyId } = principal;
  // What can be refused before anything is read.
  checkedGuest(input);
  const requested = requestedTables(input, []);
  const assigning = requested.tableIds.length === 0;
  const seatAsked = input.seatImmediately === true;
  const blocker = seatAsked ? seatingBlocker(input.depositAmountCents ?? null) : undefined;
  const state: CreateState = { taken: [], seat: seatAsked && blocker === undefined, seatWarning: blocker };
  const id = randomUUID();
  let tableNames = new Map<string, string>();
  let autoOptimize = false;
  let solver: Solver | undefined;
  /** The stay of the last plan: a walk-in's table found with a party at it is taken for it. */
  let lastStay: Pick<Booking, 'startsAt' | 'endsAt'> | undefined;
  /** The request as the selling policy's demand counts it, when the policy is on. */
  let asked: string | undefined;

  const attempt = async () => {
    const read = await readForCreate(companyId, input, requested);
    if (newGuest && read.guest === undefined) read.guest = newGuest.guest;
    tableNames = new Map((read.floor?.tables ?? read.tables).map((t) => [t.id, t.name]));
    if (read.location) {
      autoOptimize = settingsInForce(read.settings, read.location.id).autoOptimizeEnabled;
      noteAutoOptimize(companyId, read.location.id, autoOptimize);
    }
    if (read.selling && read.location)
      asked = demandOf(input, { location: read.location, settings: settingsInForce(read.settings, read.location.id) });
    let days = read.days;
    // A plan asks at most for the solver once and for table days twice (the chosen tables', then a moved booking's).
    for (let step = 0; step < 4; step++) {
      const fresh: Fresh = { id, confirmationCode: newConfirmationCode(), now: new Date(), uuid: randomUUID };
      const planned = planCreate(companyId, input, read, days, state, fresh, solver);
      if ('refuse' in planned) throw planned.refuse;
      if ('solve' in planned) solver = await loadSolver();
      else if ('read' in planned)
        days = [...days, ...(await readTogether({ days: tableDays.read(companyId, planned.read) })).days];
      else if ('taken' in planned) {
        state.taken.push(planned.taken);
        throw new Contention();
      } else {
        lastStay = planned.booking;
        await writeBookings(companyId, newGuest ? withNewGuest(planned.write, newGuest) : planned.write);
        return planned;
      }
    }
    throw new Error(`create ${id}: the plan asked for more than it may`);
  };

  const written = await retrying(ATTEMPTS, attempt, (err) => {
    if (err instanceof Contention || err instanceof CodeTaken) return true;
    if (!(err instanceof TableOccupied) || !state.seat) return false;
    // An assigned table has a party at it: a walk-in is given another one.
    if (assigning && lastStay) {
      state.taken.push({
        id: `occupied:${err.tableId}`,
        tableIds: [err.tableId],
        startsAt: lastStay.startsAt,
        endsAt: lastStay.endsAt,
        guestCount: 0,
        status: 'seated',
        locked: true,
      });
      return true;
    }
    // Another party sits at the table it names: the booking is created without seating it.
    state.seat = false;
    state.seatWarning = `Table ${tableNames.get(err.tableId) ?? err.tableId} already has an open tab; the booking was created without seating`;
    return true;
  }).catch(async (err: unknown) => {
    // A party refused for want of a table, or by the policy, was demand all the same.
    if (asked && err instanceof AppError && err.code === 'CONFLICT') await countDemand(companyId, input, asked);
    throw err;
  });
  if (asked) await countDemand(companyId, input, asked);
  const { booking, seatWarning } = written;
  if (autoOptimize) await reoptimizeRest(companyId, booking.locationId, booking.bookingDate, [booking.id]);
  return seatWarning ? { ...booking, seatWarning } : booking;
}
