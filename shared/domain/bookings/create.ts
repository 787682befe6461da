/**
 * Creating a booking (spec 2.12, 3.2): checked against the location, its tables and its booking
 * settings, then written in one transaction with its tab(s), confirmation code, table holds, link
 * items, guest history, no-show sweep item and event; seated in the same call when asked and
 * possible.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { bookings, CodeTaken, type Booking } from '../../data/bookings';
import { guests } from '../../data/guests';
import { locations } from '../../data/locations';
import { diningTables } from '../../data/tables';
import { TableOccupied } from '../../data/tabs';
import { AppError, unprocessable, validationFailed, type FieldProblem } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { CreateBookingBody } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import { normalizeEmail, parsePhone } from '../contact';
import { isIanaTimeZone } from '../locations';
import { newConfirmationCode } from './confirmationCode';
import { retryingContention } from './contention';
import { activeChange, holdReads, holdWrites } from './holds';
import { assertTablesFound, requestedTables } from './requestTables';
import { assertBookingRules } from './rules';
import { settingsOf } from './settings';
import { claimChanges, initialTabs, tabCreates, withTabs } from './tabs';
import { slotLasting, slotOf } from './time';

/** The answer to a create: the booking, and why it was not seated when seating was asked for and skipped. */
export type CreatedBooking = Booking & { seatWarning?: string };

/**
 * What the schema cannot check (400 with details): the time zone is an IANA name, the phone has a
 * country code, and the guest is named unless a walk-in is seated at once. Answers the guest
 * fields as stored: email lower-cased, phone in E.164.
 */
function checkedGuest(input: CreateBookingBody): { guestName: string | null; guestEmail: string | null; guestPhone: string | null } {
  const problems: FieldProblem[] = [];
  let guestPhone: string | null = null;
  if (input.guestPhone) {
    const parsed = parsePhone(input.guestPhone);
    if (parsed.ok) guestPhone = parsed.e164;
    else problems.push({ path: '/guestPhone', message: parsed.problem });
  }
  if (input.timezone !== undefined && !isIanaTimeZone(input.timezone)) problems.push({ path: '/timezone', message: 'is not an IANA time zone name (e.g. Europe/Stockholm)' });
  const named = input.primaryUserId || input.guestName || input.guestEmail || input.guestPhone;
  if (!named && !input.seatImmediately) {
    problems.push({ path: '/guestName', message: 'name the guest (guestName, guestEmail or guestPhone) or pass primaryUserId; only a walk-in seated at once may be anonymous' });
  }
  if (problems.length) throw validationFailed('The booking is not valid', problems);
  return { guestName: input.guestName ?? null, guestEmail: input.guestEmail ? normalizeEmail(input.guestEmail) : null, guestPhone };
}

/** Why a party cannot be seated on creation before anything is read, or undefined. */
function seatingBlocker(tableIds: readonly string[], depositAmountCents: number | null): string | undefined {
  if (tableIds.length === 0) return 'No table is assigned: seating needs one; the booking was created without seating';
  if (depositAmountCents !== null && depositAmountCents > 0) return 'The deposit is a required item and is unpaid; the booking was created without seating';
  return undefined;
}

export async function createBooking(principal: Principal, input: CreateBookingBody): Promise<CreatedBooking> {
  assertLocationAllowed(principal, input.locationId);
  const { companyId } = principal;
  const contact = checkedGuest(input);
  const requested = requestedTables(input, []);
  const { tableIds } = requested;

  const [location, settings, tables, guest] = await Promise.all([
    locations.get(companyId, input.locationId),
    settingsOf(companyId, input.locationId),
    diningTables.getMany(companyId, input.locationId, tableIds),
    input.primaryUserId ? guests.get(companyId, input.primaryUserId) : undefined,
  ]);
  if (!location) throw new AppError('NOT_FOUND', `Location ${input.locationId} not found`, [{ path: '/locationId', message: 'no such location' }]);
  assertTablesFound(location.id, requested, tables);
  if (input.primaryUserId && !guest) throw new AppError('NOT_FOUND', `Guest ${input.primaryUserId} not found`, [{ path: '/primaryUserId', message: 'no guest with this id' }]);
  const zone = location.timezone;
  if (input.timezone !== undefined && input.timezone !== zone) {
    throw unprocessable(`Bookings at location ${location.id} are in its time zone, ${zone}`, [{ path: '/timezone', message: `must be ${zone}, the location's time zone` }]);
  }

  const slot = input.endTime
    ? { ...slotOf(input.bookingDate, input.startTime, input.endTime, zone), endTime: input.endTime }
    : slotLasting(input.bookingDate, input.startTime, settings.defaultDurationMinutes, zone);
  const seatAsked = input.seatImmediately === true;
  assertBookingRules(settings, { guestCount: input.guestCount, startMs: slot.startMs, nowMs: Date.now(), atTheDoor: seatAsked });

  const depositAmountCents = input.depositAmountCents ?? null;
  let seatWarning = seatAsked ? seatingBlocker(tableIds, depositAmountCents) : undefined;
  let seat = seatAsked && seatWarning === undefined;
  const id = randomUUID();
  const strategy = input.defaultTabStrategy ?? 'single';

  for (;;) {
    try {
      const booking = await retryingContention(async () => {
        const placement = { bookingId: id, requested, slot, zone, bufferMinutes: settings.bufferMinutes };
        const wanted = holdReads(placement);
        const tableDays = wanted.length ? holdWrites(placement, await bookings.tableDays(companyId, wanted), tables) : [];
        const status = seat ? 'seated' : settings.confirmationMode === 'instant' ? 'confirmed' : 'pending';
        const activeBookings = activeChange(undefined, { status }, settings.maxActiveBookingsPerGuest);

        const now = new Date().toISOString();
        const confirmationCode = newConfirmationCode();
        const tabs = initialTabs(tableIds, strategy, seat, randomUUID);
        const delay = settings.autoNoShowDelayMinutes;
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
            guestPhone: contact.guestPhone ?? guest?.phone ?? null,
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
        await bookings.write(companyId, {
          next: b,
          tableDays,
          tabs: tabCreates(b, tabs, now),
          openTabs: claimChanges(undefined, b),
          ...(b.primaryUserId !== null ? { guestHistory: { bookings: 1, ...(seat ? { lastVisitAt: now } : {}) } } : {}),
          activeBookings,
          events,
        });
        return b;
      });
      return seatWarning ? { ...booking, seatWarning } : booking;
    } catch (err) {
      // Another party sits at the table: create the booking without seating it.
      if (err instanceof TableOccupied && seat) {
        seat = false;
        const name = tables.find((t) => t.id === err.tableId)?.name ?? err.tableId;
        seatWarning = `Table ${name} already has an open tab; the booking was created without seating`;
        continue;
      }
      if (err instanceof CodeTaken) continue;
      throw err;
    }
  }
}
