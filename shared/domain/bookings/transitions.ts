/**
 * The operations that move a booking between the states of docs/bookings.md, “States” (states.ts), other
 * than seating and unseating (seating.ts): confirm, check in, complete, no-show (by hand and by
 * the sweeper), cancel (by id and by confirmation code), and lock. Each is one transaction
 * conditioned on the booking's version, so of two concurrent operations one wins and the other
 * answers 409.
 */
import type { Principal } from '../../auth/principal';
import { bookings, type Booking } from '../../data/bookings';
import { bookingSettings, CancellationRefused } from '../../data/bookingSettings';
import { writeBooking, type BookingWrite } from '../../data/bookingWrite';
import { dueForNoShow, SWEEP_CONCURRENCY } from '../../data/noShowSweep';
import { conflict, notFound, unprocessable } from '../../errors';
import { newEvent, type EventName } from '../../events/catalog';
import type { CancelBookingBody, PublicBookingView } from '../../schemas/bookings';
import type { Static } from '../../schemas/typebox';
import { mapPool } from '../../pool';
import { autoOptimizes } from './autoOptimize';
import { holdsTables, releaseOf } from './holds';
import { reoptimizeRest } from './optimize';
import { bookingFor } from './read';
import { activeChange } from './rules';
import { nextStatus, type BookingOperation } from './states';
import { claimChanges, tabChanges, withTabs } from './tabs';

/** What a guest may see of their booking through its confirmation code: declared by PublicBookingView. */
export type PublicBooking = Static<typeof PublicBookingView>;

/**
 * The fields PublicBookingView names, as the compiler checks them against it (none missing, none
 * more): the schema itself stays out of the functions' bundles.
 */
const publicFields = {
  id: true,
  confirmationCode: true,
  locationId: true,
  status: true,
  bookingDate: true,
  startTime: true,
  endTime: true,
  timezone: true,
  startsAt: true,
  endsAt: true,
  guestCount: true,
  guestName: true,
  occasion: true,
  specialRequests: true,
  cancelledAt: true,
} as const satisfies Record<keyof PublicBooking, true>;

/** The booking as its guest may see it, nothing else. */
export const publicBooking = (b: Booking): PublicBooking =>
  Object.fromEntries(Object.keys(publicFields).map((k) => [k, b[k as keyof PublicBooking]])) as PublicBooking;

const eventOf: Record<Exclude<BookingOperation, 'seat' | 'unseat'>, EventName> = {
  confirm: 'booking.confirmed',
  'check-in': 'booking.updated',
  complete: 'booking.completed',
  'no-show': 'booking.no-show',
  cancel: 'booking.cancelled',
};

interface Finish {
  /** Tabs to close: all that are not closed, or only those still before arrival. */
  close: 'all' | 'pre_arrival' | 'none';
  reason?: string | null;
  /** A guest's cancellation: what the location's policy must allow (checked in the transaction). */
  policy?: { wholeHoursBefore: number };
}

/**
 * Moves a booking by `op` and writes it: the tabs it closes, the table claims and holds it gives
 * up, the guest's history, and the event (with the full booking).
 */
async function transition(
  companyId: number,
  prev: Booking,
  op: Exclude<BookingOperation, 'seat' | 'unseat'>,
  finish: Finish = { close: 'none' },
): Promise<Booking> {
  const { to, changed } = nextStatus(prev.status, op);
  if (!changed) return prev;
  const now = new Date().toISOString();
  const tabs = prev.tabs.map((t) =>
    t.status !== 'closed' && (finish.close === 'all' || (finish.close === 'pre_arrival' && t.status === 'pre_arrival'))
      ? { ...t, status: 'closed' as const }
      : t,
  );
  const next = withTabs(
    {
      ...prev,
      status: to,
      statusBeforeSeating: null,
      autoNoShowAt: to === 'confirmed' || to === 'checked_in' ? prev.autoNoShowAt : null,
      ...(op === 'complete' ? { completedAt: now } : {}),
      ...(op === 'cancel' ? { cancelledAt: now, cancellationReason: finish.reason ?? null } : {}),
      version: prev.version + 1,
      updatedAt: now,
    },
    tabs,
  );
  const history =
    op === 'cancel'
      ? { cancellations: 1 }
      : op === 'no-show'
        ? { noShows: 1 }
        : op === 'complete'
          ? { lastVisitAt: now }
          : undefined;
  const change: BookingWrite = {
    prev,
    next,
    tabs: tabChanges(prev.tabs, tabs, now),
    openTabs: claimChanges(prev, next),
    ...(holdsTables(prev) && !holdsTables(next) ? { releaseHolds: releaseOf(prev) } : {}),
    ...(history ? { guestHistory: history } : {}),
    activeBookings: activeChange(prev, next),
    ...(finish.policy ? { cancellationPolicy: finish.policy } : {}),
    events: [newEvent(companyId, eventOf[op], prev.id, { ...next }, op === 'check-in' ? { status: to } : null)],
  };
  await writeBooking(companyId, change);
  if (op === 'cancel' && holdsTables(prev)) await afterCancel(companyId, next);
  return next;
}

/**
 * A cancel frees its tables: with `autoOptimizeEnabled` the rest of its date is re-optimized
 * (optimize.ts reoptimizeRest). Whether it is on: autoOptimize.ts (read at most once a minute).
 */
async function afterCancel(companyId: number, b: Booking): Promise<void> {
  if (await autoOptimizes(companyId, b.locationId).catch(() => false))
    await reoptimizeRest(companyId, b.locationId, b.bookingDate, []);
}

export async function confirmBooking(principal: Principal, id: string): Promise<Booking> {
  return transition(principal.companyId, await bookingFor(principal, id), 'confirm');
}

export async function checkInBooking(principal: Principal, id: string): Promise<Booking> {
  return transition(principal.companyId, await bookingFor(principal, id), 'check-in');
}

/** The party has left: its tabs close and its tables are free again. */
export async function completeBooking(principal: Principal, id: string): Promise<Booking> {
  return transition(principal.companyId, await bookingFor(principal, id), 'complete', { close: 'all' });
}

/** Nobody came: the tabs waiting for them close. */
export async function markNoShow(principal: Principal, id: string): Promise<Booking> {
  return transition(principal.companyId, await bookingFor(principal, id), 'no-show', { close: 'pre_arrival' });
}

/** The answer to a cancel: the booking, and why some of its tabs stay open when they do. */
export type CancelledBooking = Booking & { tabWarning?: string };

/**
 * Cancels; a cancelled booking answers as it is. `closeTab` (default true) closes the booking's
 * pre-arrival tabs (docs/bookings.md, “States”). An open tab (the party was seated) stays open: its bill is still
 * owed; it keeps its table until it is closed, and `tabWarning` says so.
 */
export async function cancelBooking(
  principal: Principal,
  id: string,
  input: CancelBookingBody,
): Promise<CancelledBooking> {
  const prev = await bookingFor(principal, id);
  const next = await transition(principal.companyId, prev, 'cancel', {
    close: input.closeTab === false ? 'none' : 'pre_arrival',
    reason: input.reason ?? null,
  });
  const open = next.tabs.filter((t) => t.status === 'open').map((t) => t.id);
  if (open.length === 0) return next;
  const tabs = open.length === 1 ? `Tab ${open[0]} stays open` : `Tabs ${open.join(', ')} stay open`;
  return {
    ...next,
    tabWarning: `${tabs}: the bill is still owed. Close ${open.length === 1 ? 'it' : 'them'} once paid; ${open.length === 1 ? 'its table stays' : 'their tables stay'} claimed until then`,
  };
}

/**
 * The guest cancels by the confirmation code (public): one read (the code's lookup carries the
 * booking), one transaction. Inside the location's cancellationPolicyHours before the start it is
 * refused with 422; the policy is a condition of the transaction, and only a refusal reads it, to
 * name it.
 */
export async function cancelByCode(code: string): Promise<PublicBooking> {
  const found = await bookings.findByCode(code);
  if (!found) throw notFound('Booking');
  const { companyId, booking } = found;
  if (booking.status === 'cancelled') return publicBooking(booking);
  const wholeHoursBefore = Math.floor((Date.parse(booking.startsAt) - Date.now()) / 3_600_000);
  try {
    return publicBooking(
      await transition(companyId, booking, 'cancel', {
        close: 'pre_arrival',
        reason: 'Cancelled by the guest',
        policy: { wholeHoursBefore },
      }),
    );
  } catch (err) {
    if (!(err instanceof CancellationRefused)) throw err;
    const hours = (await bookingSettings.get(companyId, booking.locationId))?.cancellationPolicyHours ?? null;
    if (hours === null) throw conflict('The cancellation policy changed meanwhile; try again');
    const message = `Bookings can be cancelled online up to ${hours} hours before they start; contact the restaurant`;
    throw unprocessable(message, [{ path: '/settings/cancellationPolicyHours', message }]);
  }
}

/** Pins (or frees) the booking's tables against the optimizer; editing by hand stays allowed. */
export async function lockBooking(principal: Principal, id: string, locked: boolean): Promise<Booking> {
  const prev = await bookingFor(principal, id);
  if (prev.locked === locked) return prev;
  const next: Booking = { ...prev, locked, version: prev.version + 1, updatedAt: new Date().toISOString() };
  await writeBooking(principal.companyId, {
    prev,
    next,
    events: [newEvent(principal.companyId, 'booking.updated', id, { ...next }, { locked })],
  });
  return next;
}

/** How far back the sweeper looks for due bookings: a sweeper that was down this long catches up. */
const SWEEP_LOOKBACK_HOURS = 24;

/**
 * Whether the sweep marks the booking now: confirmed or checked in, and its own `autoNoShowAt`
 * passed. Not the sweep item's time: an item left behind under the old unsharded key
 * (noShowSweep.ts) may name a booking moved since, whose no-show is not due yet.
 */
export const noShowDue = (b: Booking | undefined, nowMs: number): b is Booking =>
  b !== undefined &&
  (b.status === 'confirmed' || b.status === 'checked_in') &&
  b.autoNoShowAt !== null &&
  Date.parse(b.autoNoShowAt) <= nowMs;

/**
 * Marks as no-shows the confirmed and checked-in bookings whose `autoNoShowAt` has passed (the
 * booking settings' autoNoShowDelayMinutes), reading the sweep items of the last hours (no Scan).
 * SWEEP_CONCURRENCY companies at once, a company's bookings one after another: bookings of one
 * location share items their no-shows write (the location's count of bookings without a table, a
 * table's day), and side by side they would cancel each other's transactions. A booking that
 * changed meanwhile is left to the next run. Answers how many were marked.
 */
export async function sweepNoShows(nowMs = Date.now()): Promise<number> {
  const due = await dueForNoShow(nowMs - SWEEP_LOOKBACK_HOURS * 3_600_000, nowMs);
  const marked = await mapPool(
    due,
    SWEEP_CONCURRENCY,
    async ({ companyId, bookingId }) => {
      const booking = await bookings.get(companyId, bookingId);
      if (!noShowDue(booking, nowMs)) return false;
      try {
        await transition(companyId, booking, 'no-show', { close: 'pre_arrival' });
        return true;
      } catch (err) {
        if ((err as { code?: string }).code !== 'CONFLICT') throw err;
        return false;
      }
    },
    (d) => d.companyId,
  );
  return marked.filter(Boolean).length;
}
