/**
 * Changing a booking (docs/bookings.md): its time, party, tables, tab strategy and notes. A move
 * re-checks the settings' rules and the table holds; a new set of tables replaces the old one,
 * re-planning the tabs. Locked bookings stay editable by hand (the lock only pins them against
 * the optimizer). `booking.updated` carries only the fields that changed.
 *
 * The booking is read first: its location, tables and date name everything else a move reads
 * (settings, tables, table days), which is then read in one round trip before one transaction.
 * A move onto tables another booking holds re-seats before refusing: when the bookings holding
 * them may move (of the date, not locked, not seated), the fewest of them move elsewhere in the
 * same transaction, each with `booking.updated` (docs/optimizer.md, "Re-seating before refusing").
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import type { Booking } from '../../data/bookings';
import { bookingSettings } from '../../data/bookingSettings';
import { writeBookings } from '../../data/bookingWrite';
import { diningTables } from '../../data/tables';
import { Contention, tableDays, type TableDayWrite } from '../../data/tableDays';
import { locationEntity } from '../../data/locations';
import { AppError, conflict, validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { UpdateBookingBody } from '../../schemas/bookings';
import { changedFields } from '../changes';
import { placeHolds, retryingContention } from './holdPlacement';
import { readFloor } from './floor';
import { holdDays, holdReads, holdsTables, MAX_BUFFER_MINUTES, type Placement } from './holds';
import { groupHoldWrites, movedPlacement } from './moves';
import { bookingFor } from './read';
import { assertTablesFound, requestedTables } from './requestTables';
import { reseatFloor, reseating } from './reseat';
import { assertBookingRules } from './rules';
import { noteAutoOptimize } from './autoOptimize';
import { reoptimizeRest, retabled } from './optimize';
import { settingsInForce } from './settings';
import { loadSolver } from './solver';
import { stayOf } from './stay';
import { claimChanges, plannedTabWrites, planTabs, withTabs } from './tabs';
import { intervalOf, localDateTime, slotLasting, slotOf } from './time';

/** What `changes` may name: the editable fields and those that follow from them. */
const reported = [
  'bookingDate',
  'startTime',
  'endTime',
  'startsAt',
  'endsAt',
  'guestCount',
  'tableId',
  'tableIds',
  'defaultTabStrategy',
  'tab',
  'tabs',
  'occasion',
  'specialRequests',
  'internalNotes',
  'paymentType',
  'depositAmountCents',
  'autoNoShowAt',
] as const satisfies readonly (keyof Booking)[];

/** Bookings the sweeper may still mark as no-shows (a pending one, once confirmed). */
const mayBeNoShow = (b: Booking) => b.status === 'pending' || b.status === 'confirmed' || b.status === 'checked_in';

const finished = (b: Booking) => b.status === 'completed' || b.status === 'cancelled' || b.status === 'no_show';

/** The booking's slot after the change: an end given is taken as is; a new date or start without one keeps the length. */
export function slotAfter(prev: Booking, input: Pick<UpdateBookingBody, 'bookingDate' | 'startTime' | 'endTime'>) {
  const date = input.bookingDate ?? prev.bookingDate;
  const start = input.startTime ?? prev.startTime;
  if (input.endTime !== undefined)
    return { ...slotOf(date, start, input.endTime, prev.timezone), endTime: input.endTime };
  if (date === prev.bookingDate && start === prev.startTime)
    return { ...intervalOf(prev), startsAt: prev.startsAt, endsAt: prev.endsAt, endTime: prev.endTime };
  const { startMs, endMs } = intervalOf(prev);
  return slotLasting(date, start, Math.round((endMs - startMs) / 60_000), prev.timezone);
}

/** The bookings a move re-seats to take its tables, and the table days written for all of them. */
interface Reseated {
  tableDays: TableDayWrite[];
  moved: { prev: Booking; to: string[] }[];
}

/**
 * A move whose tables are taken (`refused`, the 409 it would answer): the floor of its date is read
 * and re-seated (reseat.ts) with the booking at exactly the tables asked for, the bookings holding
 * them moving elsewhere, fewest moves; `refused` when that cannot be. The table days of the booking
 * and of the moved ones are read and planned together (moves.ts groupHoldWrites); one taken since
 * the floor was read answers Contention (the move is tried again from its read).
 */
async function reseatFor(
  companyId: number,
  prev: Booking,
  move: Placement & { guestCount: number },
  refused: AppError,
): Promise<Reseated> {
  const date = localDateTime(move.slot.startMs, move.zone).date;
  const floor = await readFloor(companyId, prev.locationId, date);
  const around = [...floor.bookings.filter((b) => b.id !== prev.id), ...(floor.offers ?? [])];
  const seating = reseatFloor(date, around, floor.tables, move.bufferMinutes);
  const solver = await loadSolver();
  const reseat = reseating(solver, seating, {
    id: prev.id,
    guestCount: move.guestCount,
    ...move.slot,
    sets: [move.requested.tableIds],
  });
  if (!reseat) throw refused;
  const byId = new Map(floor.bookings.map((b) => [b.id, b]));
  const moved = reseat.moves.map((m) => ({ prev: byId.get(m.bookingId)!, to: m.to }));
  const placements: Placement[] = [
    move,
    ...moved.map(({ prev: b, to }) => movedPlacement(b, to, move.zone, move.bufferMinutes)),
  ];
  const wanted = [...new Map(placements.flatMap(holdReads).map((k) => [`${k.tableId}|${k.date}`, k])).values()];
  const { days } = await readTogether({ days: tableDays.read(companyId, wanted) });
  const group = groupHoldWrites(
    placements.map((p) => ({
      bookingId: p.bookingId,
      tableIds: p.requested.tableIds,
      slot: p.slot,
      holdDates: holdDays(p.slot, 0, p.zone).hold,
    })),
    days,
    move.bufferMinutes,
  );
  if ('clash' in group) throw new Contention();
  return { tableDays: group.writes, moved };
}

export async function updateBooking(principal: Principal, id: string, input: UpdateBookingBody): Promise<Booking> {
  return changeBooking(principal.companyId, await bookingFor(principal, id), input);
}

/** The change of a booking as read (staff's update, and a guest's by code: docs/online-booking.md). */
export async function changeBooking(companyId: number, prev: Booking, input: UpdateBookingBody): Promise<Booking> {
  const { id } = prev;
  // Only a walk-in is created with an uncounted party; a counted party does not become uncounted.
  if (input.guestCount === 0 && prev.guestCount !== 0) {
    throw validationFailed('The booking is not valid', [
      { path: '/guestCount', message: 'may be 0 only for a walk-in seated at once; give the party size' },
    ]);
  }
  const slot = slotAfter(prev, input);
  const requested = requestedTables(input, prev.tableIds);
  const { tableIds } = requested;
  const strategy = input.defaultTabStrategy ?? prev.defaultTabStrategy;

  const moved = slot.startsAt !== prev.startsAt || slot.endsAt !== prev.endsAt;
  const tablesChanged = tableIds.join() !== prev.tableIds.join();
  const partyChanged = input.guestCount !== undefined && input.guestCount !== prev.guestCount;
  const strategyChanged = strategy !== prev.defaultTabStrategy;
  if (finished(prev) && (moved || tablesChanged || partyChanged || strategyChanged)) {
    throw conflict(
      `A booking that is ${prev.status.replace('_', ' ')} keeps its time, party, tables and tabs; only its notes can change`,
    );
  }
  if (strategyChanged && prev.status === 'seated')
    throw conflict('defaultTabStrategy can be changed until the booking is seated');

  const seated = prev.status === 'seated';
  const plan =
    tablesChanged || strategyChanged ? planTabs(prev.tabs, tableIds, strategy, seated, randomUUID) : undefined;
  if (plan && plan.activeRemoved.length > 0 && input.confirmRemoveActiveTab !== true) {
    throw new AppError(
      'CONFLICT',
      'A table being removed has an open tab; send confirmRemoveActiveTab: true to remove it anyway',
      [
        {
          path: requested.field,
          message: `tables with an open tab would be removed: ${plan.activeRemoved.join(', ')}`,
        },
      ],
    );
  }

  const needsSettings = moved || tablesChanged || partyChanged;
  const endMoved = moved && input.endTime !== undefined;
  const placesHolds = holdsTables(prev) && (moved || tablesChanged);
  const added = tableIds.filter((t) => !prev.tableIds.includes(t));
  // The hold's days for the longest buffer: the settings that fix the buffer are read with them.
  const widest = {
    bookingId: id,
    requested,
    slot,
    zone: prev.timezone,
    bufferMinutes: MAX_BUFFER_MINUTES,
    before: { tableIds: prev.tableIds, slot: intervalOf(prev) },
  };

  let autoOptimize = false;
  const written = await retryingContention(async () => {
    const read = await readTogether({
      settings: needsSettings ? bookingSettings.read(companyId, prev.locationId) : noRead(undefined),
      location: endMoved ? locationEntity.read(companyId, prev.locationId) : noRead(undefined),
      tables: tablesChanged || moved ? diningTables.readMany(companyId, prev.locationId, tableIds) : noRead([]),
      days: placesHolds ? tableDays.read(companyId, holdReads(widest)) : noRead([]),
    });
    const settings = needsSettings ? settingsInForce(read.settings, prev.locationId) : undefined;
    if (settings) noteAutoOptimize(companyId, prev.locationId, settings.autoOptimizeEnabled);
    autoOptimize = settings?.autoOptimizeEnabled === true && (moved || tablesChanged);
    assertTablesFound(prev.locationId, requested, read.tables, added);
    // An end sent is held to what a stay can be (stay.ts), by the hours in force.
    if (endMoved && settings && read.location) {
      const hours = settings.operatingHours ?? read.location.operatingHours;
      stayOf(
        input.bookingDate ?? prev.bookingDate,
        input.startTime ?? prev.startTime,
        input.endTime!,
        prev.timezone,
        hours,
      );
    }
    if (settings && (moved || partyChanged)) {
      // The advance rules apply to a new start, not to a party already here.
      const atTheDoor = slot.startsAt === prev.startsAt || prev.status === 'checked_in' || seated;
      assertBookingRules(settings, {
        guestCount: input.guestCount ?? prev.guestCount,
        startMs: slot.startMs,
        nowMs: Date.now(),
        atTheDoor,
      });
    }
    const placement = placesHolds ? { ...widest, bufferMinutes: settings!.bufferMinutes } : undefined;
    let tableDayWrites: TableDayWrite[] = [];
    let reseated: Reseated = { tableDays: [], moved: [] };
    if (placement) {
      try {
        tableDayWrites = await placeHolds(companyId, placement, read.days, read.tables);
      } catch (err) {
        // A table taken: when the bookings holding it may move, the move still happens (re-seating before refusing).
        if (!(err instanceof AppError) || err.code !== 'CONFLICT' || err instanceof Contention) throw err;
        reseated = await reseatFor(
          companyId,
          prev,
          { ...placement, guestCount: input.guestCount ?? prev.guestCount },
          err,
        );
        tableDayWrites = reseated.tableDays;
      }
    }

    const now = new Date().toISOString();
    const delay = settings?.autoNoShowDelayMinutes ?? null;
    const next = withTabs(
      {
        ...prev,
        bookingDate: input.bookingDate ?? prev.bookingDate,
        startTime: input.startTime ?? prev.startTime,
        endTime: slot.endTime,
        startsAt: slot.startsAt,
        endsAt: slot.endsAt,
        guestCount: input.guestCount ?? prev.guestCount,
        tableId: tableIds[0] ?? null,
        tableIds,
        defaultTabStrategy: strategy,
        occasion: input.occasion === undefined ? prev.occasion : input.occasion,
        specialRequests: input.specialRequests === undefined ? prev.specialRequests : input.specialRequests,
        internalNotes: input.internalNotes === undefined ? prev.internalNotes : input.internalNotes,
        paymentType: input.paymentType === undefined ? prev.paymentType : input.paymentType,
        depositAmountCents: input.depositAmountCents === undefined ? prev.depositAmountCents : input.depositAmountCents,
        // A moved booking that may still be a no-show is due by the current settings.
        autoNoShowAt:
          moved && mayBeNoShow(prev)
            ? delay === null
              ? null
              : new Date(slot.startMs + delay * 60_000).toISOString()
            : prev.autoNoShowAt,
        version: prev.version + 1,
        updatedAt: now,
      },
      plan?.tabs ?? prev.tabs,
    );
    const tabWrites = plannedTabWrites(plan, next, now);
    const openTabs = claimChanges(prev, next);

    const changes = changedFields(prev, next, reported);
    if (Object.keys(changes).length === 0) return prev;
    await writeBookings(companyId, [
      {
        prev,
        next,
        tableDays: tableDayWrites,
        tabs: tabWrites,
        openTabs,
        events: [newEvent(companyId, 'booking.updated', id, { ...next }, changes)],
      },
      ...reseated.moved.map((m) => ({ ...retabled(companyId, m.prev, m.to, now, []), moved: true as const })),
    ]);
    return next;
  });
  // A move re-optimizes the rest of its date (and of the date it left), the moved booking staying where it was put.
  if (autoOptimize && written !== prev) {
    for (const date of new Set([written.bookingDate, prev.bookingDate]))
      await reoptimizeRest(companyId, prev.locationId, date, [id]);
  }
  return written;
}
