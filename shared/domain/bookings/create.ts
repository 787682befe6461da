/**
 * Creating a booking (docs/bookings.md, “States”): one read of everything it is checked against (the
 * location, its booking settings, the tables, the guest and the tables' holds), then one
 * transaction with its tab(s), confirmation code, table holds, link items, guest history, no-show
 * sweep item and event; seated in the same call when asked and possible.
 *
 * Without tables (a walk-in seated at once aside), the stay is first held to the booking hours as
 * availability's slots are (422 outside them). Then automatic assignment (docs/bookings.md,
 * "Automatic assignment"): the same round trip also reads the location's tables and the bookings
 * around the date, assignment.ts chooses among the sets availability counts (fit.ts partySets;
 * the optimizer's objective), and the chosen tables' days are read and held as named tables are. None free: 409 with the next available times. The table-day holds settle a race for
 * the last table: one transaction wins, the others meet Contention, read again and find it taken.
 * With `autoOptimizeEnabled`, the rest of the date is re-optimized once the booking is written.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { bookings, CodeTaken, type Booking } from '../../data/bookings';
import { bookingSettings } from '../../data/bookingSettings';
import { writeBooking } from '../../data/bookingWrite';
import { guests } from '../../data/guests';
import { locationEntity } from '../../data/locations';
import { TableOccupied } from '../../data/openTabs';
import { diningTables, type DiningTable } from '../../data/tables';
import { Contention, tableDays } from '../../data/tableDays';
import { AppError, unprocessable, validationFailed, type FieldProblem } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { CreateBookingBody } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import { isLocalPhone, normalizeEmail, parsePhone } from '../contact';
import { isIanaTimeZone } from '../locations';
import { chooseTables } from './assignment';
import { noteAutoOptimize } from './autoOptimize';
import { daySlots, inForce, nextAvailable, overbookable } from './availability';
import { newConfirmationCode } from './confirmationCode';
import { seatingFloor, type AssignmentFloor } from './floor';
import { placeHolds, retryingContention } from './holdPlacement';
import { MAX_DEFAULT_DURATION_MINUTES, possibleHoldDates } from './holds';
import { reoptimizeRest } from './optimize';
import { assertTablesFound, requestedTables, type RequestedTables } from './requestTables';
import { activeChange, assertBookingRules } from './rules';
import { addDays, openSpans, within } from './serviceHours';
import { settingsInForce } from './settings';
import { claimChanges, initialTabs, tabCreates, withTabs } from './tabs';
import { stayOf } from './stay';
import { localDateTime, slotLasting, type Interval } from './time';

/** The answer to a create: the booking, and why it was not seated when seating was asked for and skipped. */
export type CreatedBooking = Booking & { seatWarning?: string };

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
 * settings that fix which are needed are read in the same call).
 */
async function readForCreate(companyId: number, input: CreateBookingBody, requested: RequestedTables) {
  const dates = possibleHoldDates(
    input.bookingDate,
    input.startTime,
    input.endTime ? { endTime: input.endTime } : { minutes: MAX_DEFAULT_DURATION_MINUTES },
  );
  const assigning = requested.tableIds.length === 0;
  // Automatic assignment chooses on every table and the bookings around the date, read in the same round trip.
  const [read, allTables, around] = await Promise.all([
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
    assigning
      ? bookings.between(companyId, input.locationId, addDays(input.bookingDate, -1), addDays(input.bookingDate, 1))
      : [],
  ]);
  return { ...read, floor: assigning ? { tables: allTables, bookings: around } : undefined };
}

type CreateRead = Awaited<ReturnType<typeof readForCreate>>;

/** What automatic assignment needs of the request. */
export type AssignmentRequest = Pick<CreateBookingBody, 'bookingDate' | 'guestCount' | 'seatImmediately'>;

/**
 * 422 on `/startTime` for a stay that does not lie within the booking hours (the settings'
 * `operatingHours`, else the location's): the slots availability marks `closed`. Pure. A create
 * without tables is held to it (docs/bookings.md, "Automatic assignment").
 */
export function assertWithinBookingHours(
  floor: Pick<AssignmentFloor, 'location' | 'settings'>,
  date: string,
  stay: Interval,
): void {
  const { location, settings } = floor;
  const zone = location.timezone;
  const open = openSpans(settings.operatingHours ?? location.operatingHours, date, zone);
  if (within(open, stay)) return;
  const at = (ms: number) => localDateTime(ms, zone).time;
  const hours = open.length > 0 ? open.map((s) => `${at(s.startMs)}-${at(s.endMs)}`).join(', ') : 'none';
  throw unprocessable(
    `Outside the booking hours: a stay from ${at(stay.startMs)} to ${at(stay.endMs)} on ${date} is not within them (${hours})`,
    [
      {
        path: '/startTime',
        message: `outside the booking hours: the stay ${at(stay.startMs)}-${at(stay.endMs)} does not lie within the hours around ${date} (${hours})`,
      },
    ],
  );
}

/**
 * Automatic assignment's tables for the stay (assignment.ts: the fewest seats beyond the party,
 * then the most of the floor left sellable), among the sets that seat the party as availability
 * counts them (fit.ts
 * partySets), none of `avoid` (tables found taken since the floor was read, or occupied). Pure.
 * None (no table needed) at a location without tables, or while the overbooking buffer has room.
 * None free: 409 naming the next available times of the date (a walk-in: no table is free now).
 */
export function assignedTables(
  floor: AssignmentFloor,
  input: AssignmentRequest,
  slot: Interval,
  avoid: ReadonlySet<string> = new Set(),
  nowMs = Date.now(),
): string[] {
  const { location, settings } = floor;
  // A location without tables does not seat by table: its bookings are taken without one, as before.
  if (floor.tables.length === 0) return [];
  const seating = seatingFloor(floor, input.bookingDate, input.guestCount);
  const usable = { ...seating, sets: seating.sets.filter((set) => set.tableIds.every((t) => !avoid.has(t))) };
  const choice = chooseTables(usable, { guestCount: input.guestCount, stay: slot });
  if (choice) return [...choice.set.tableIds];
  const at = localDateTime(slot.startMs, location.timezone);
  if (input.seatImmediately) {
    throw new AppError('CONFLICT', `No table that seats ${input.guestCount} is free now`, [
      {
        path: '/guestCount',
        message: `no free table or combination of tables seats ${input.guestCount} from ${at.time}`,
      },
    ]);
  }
  const around = {
    date: input.bookingDate,
    zone: location.timezone,
    nowMs,
    partySize: input.guestCount,
    rules: inForce(location.operatingHours, settings, floor.tables),
    bookings: [...floor.bookings, ...(floor.offers ?? [])],
  };
  // The overbooking buffer takes the booking without a table while it has room (as availability offers the slot).
  if (avoid.size === 0 && overbookable(around, slot)) return [];
  const slots = daySlots(around);
  const next = nextAvailable(slots, slot.startMs);
  const offer =
    next.length > 0 ? `; next available: ${next.map((n) => n.time).join(', ')}` : '; nothing later that day';
  throw new AppError(
    'CONFLICT',
    `No availability: no table or combination of tables that seats ${input.guestCount} is free on ${input.bookingDate} at ${at.time}${offer}`,
    [
      { path: '/startTime', message: `no table fits ${input.guestCount} at ${at.time}` },
      ...next.map((n) => ({ path: '/startTime', message: `available at ${n.time} (${n.startsAt})` })),
    ],
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

export async function createBooking(principal: Principal, input: CreateBookingBody): Promise<CreatedBooking> {
  assertLocationAllowed(principal, input.locationId);
  const { companyId } = principal;
  const contact = checkedGuest(input);
  const requested = requestedTables(input, []);
  const assigning = requested.tableIds.length === 0;
  /** Tables automatic assignment must not choose again: found taken at the holds, or occupied. */
  const avoid = new Set<string>();
  const seatAsked = input.seatImmediately === true;
  const depositAmountCents = input.depositAmountCents ?? null;
  let seatWarning = seatAsked ? seatingBlocker(depositAmountCents) : undefined;
  let seat = seatAsked && seatWarning === undefined;
  const id = randomUUID();
  const strategy = input.defaultTabStrategy ?? 'single';
  let tableNames = new Map<string, string>();
  let settingsRead: ReturnType<typeof settingsInForce> | undefined;

  /** One read, the checks and rules, one transaction; a Contention failure runs it again. */
  const attempt = async (): Promise<Booking> => {
    const read = await readForCreate(companyId, input, requested);
    const location = checkedRead(read, input, requested);
    const guestPhone = contact.guestPhone ?? localGuestPhone(input, location);
    const tables: DiningTable[] = read.floor?.tables ?? read.tables;
    tableNames = new Map(tables.map((t) => [t.id, t.name]));
    const settings = settingsInForce(read.settings, location.id);
    settingsRead = settings;
    noteAutoOptimize(companyId, location.id, settings.autoOptimizeEnabled);
    const zone = location.timezone;
    const slot = input.endTime
      ? stayOf(
          input.bookingDate,
          input.startTime,
          input.endTime,
          zone,
          settings.operatingHours ?? location.operatingHours,
        )
      : slotLasting(input.bookingDate, input.startTime, settings.defaultDurationMinutes, zone);
    // A booking made ahead without tables is held to the booking hours, as availability offers slots.
    if (assigning && !seatAsked) assertWithinBookingHours({ location, settings }, input.bookingDate, slot);
    assertBookingRules(settings, {
      guestCount: input.guestCount,
      startMs: slot.startMs,
      nowMs: Date.now(),
      atTheDoor: seatAsked,
    });
    const placed = assigning
      ? {
          field: '/tableIds' as const,
          tableIds: assignedTables(
            { location, settings, tables: read.floor!.tables, bookings: read.floor!.bookings },
            input,
            slot,
            avoid,
          ),
        }
      : requested;
    const { tableIds } = placed;
    let tableDays;
    try {
      tableDays = await placeHolds(
        companyId,
        { bookingId: id, requested: placed, slot, zone, bufferMinutes: settings.bufferMinutes },
        read.days,
        tables,
      );
    } catch (err) {
      // Taken since the bookings were read (their index lags the table days): choose again without it.
      if (!assigning || !(err instanceof AppError) || err.code !== 'CONFLICT' || err instanceof Contention) throw err;
      for (const d of err.details) avoid.add(tableIds[Number(d.path.split('/')[2])] ?? '');
      throw new Contention();
    }
    if (seat && tableIds.length === 0) {
      seat = false;
      seatWarning =
        'No table is assigned (the location has none): seating needs one; the booking was created without seating';
    }
    const status = seat ? 'seated' : settings.confirmationMode === 'instant' ? 'confirmed' : 'pending';
    const activeBookings = activeChange(undefined, { status }, settings.maxActiveBookingsPerGuest);

    const now = new Date().toISOString();
    const confirmationCode = newConfirmationCode();
    const tabs = initialTabs(tableIds, strategy, seat, randomUUID);
    const delay = settings.autoNoShowDelayMinutes;
    const { guest } = read;
    const b: Booking = withTabs(
      {
        id,
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
        depositAmountCents,
        bookingSource: input.bookingSource ?? null,
        status,
        // A party seated at the door has confirmed itself by being there.
        statusBeforeSeating: seat ? 'confirmed' : null,
        confirmationCode,
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
    const events = [newEvent(companyId, 'booking.created', id, { ...b })];
    if (seat) events.push(newEvent(companyId, 'booking.seated', id, { ...b, tabId: b.tab.id }));
    await writeBooking(companyId, {
      next: b,
      tableDays,
      tabs: tabCreates(b, tabs, now),
      openTabs: claimChanges(undefined, b),
      ...(b.primaryUserId !== null ? { guestHistory: { bookings: 1, ...(seat ? { lastVisitAt: now } : {}) } } : {}),
      activeBookings,
      events,
    });
    return b;
  };

  for (;;) {
    try {
      const booking = await retryingContention(attempt);
      if (settingsRead?.autoOptimizeEnabled)
        await reoptimizeRest(companyId, booking.locationId, booking.bookingDate, [booking.id]);
      return seatWarning ? { ...booking, seatWarning } : booking;
    } catch (err) {
      // An assigned table has a party at it: a walk-in is given another one.
      if (err instanceof TableOccupied && seat && assigning) {
        avoid.add(err.tableId);
        continue;
      }
      // Another party sits at the table: create the booking without seating it.
      if (err instanceof TableOccupied && seat) {
        seat = false;
        seatWarning = `Table ${tableNames.get(err.tableId) ?? err.tableId} already has an open tab; the booking was created without seating`;
        continue;
      }
      if (err instanceof CodeTaken) continue;
      throw err;
    }
  }
}
