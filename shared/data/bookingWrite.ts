/**
 * The one transaction of a booking change. The domain says what changes (the booking before and
 * after, the holds it places or drops, its tabs, claims, orders, pre-order and events); this module
 * turns that into steps, each with the condition that keeps its invariant, and writes them at once.
 */
import { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { activeBookingsStep, linkSteps, type ActiveBookingsChange } from './bookingLinks';
import { bookingEntity, codeStep, usesItsPlace, type Booking } from './bookings';
import { aroundSteps } from './bookingsAround';
import { bookingSettings } from './bookingSettings';
import { guestHistoryStep, type GuestHistoryChange } from './guests';
import { locationExistsStep, tablelessUseStep } from './locations';
import { sweepSteps } from './noShowSweep';
import { openTabSteps, type OpenTabChange } from './openTabs';
import { orderEntity, reverseDispatchesStep, type Order } from './orders';
import { outboxStep } from './outbox';
import { preOrders, type PreOrder, type SeatingOrder } from './preOrders';
import { printJobEntity, type PrintJob } from './printJobs';
import { Contention, tableDays, type TableDayWrite } from './tableDays';
import { tableUseStep } from './tables';
import { tabSteps, type TabWrite } from './tabs';
import { transact, type Step } from './transact';

/** One change of a booking and everything that moves with it, written as one transaction by `writeBooking`. */
export interface BookingWrite {
  /**
   * The booking as read, or undefined for a new one. The write is conditioned on its version; the
   * code lookup, the link items and the no-show sweep item follow from prev → next.
   */
  prev?: Booking;
  next: Booking;
  /** Table-day items to put back, each at the version read (holds placed or moved). */
  tableDays?: TableDayWrite[];
  /** A hold to drop without reading: the booking's tables and the days its hold is in. */
  releaseHolds?: { tableIds: readonly string[]; dates: readonly string[] };
  tabs?: TabWrite[];
  openTabs?: OpenTabChange[];
  /** New orders (seating's order of the pre-order). */
  orders?: Order[];
  /** The seating's order whose dispatches unseating reverses; `refused` when one is past accepted. */
  reversal?: { orderId: string; dispatches: number; refused: () => AppError };
  /** The pre-order as read, which must not have changed since; with `seating`, the seating's order recorded (or, null, cleared). */
  preOrder?: { read: PreOrder; seating?: SeatingOrder | null };
  printJobs?: PrintJob[];
  /** Added to the primary guest's history at the location. */
  guestHistory?: GuestHistoryChange;
  /** A guest's cancellation: the location's policy must allow it this many whole hours before the start. */
  cancellationPolicy?: { wholeHoursBefore: number };
  /** Added to the primary guest's count of active bookings at the location (the booking settings' maxActiveBookingsPerGuest caps it). */
  activeBookings?: ActiveBookingsChange;
  /** Steps of other items that change with the booking (the waitlist entry an accepted offer turns into it). */
  also?: Step[];
  /**
   * A booking another request moves (a create re-seating it): a change since it was read answers
   * Contention (read again, plan again), not 409 for the request that did not name it.
   */
  moved?: true;
  events: DomainEvent[];
}

/** The places a booking uses: its tables, or (null) its location when it has none; none once it no longer needs them. */
const placesUsed = (b: Booking | undefined): (string | null)[] =>
  b && usesItsPlace(b) ? (b.tableIds.length > 0 ? b.tableIds : [null]) : [];

/**
 * The counts of users that move between the states of the bookings written together (docs/setup.md,
 * "Deleting what is in use"): one step per place whose count changes, net over the bookings, so
 * that two bookings trading tables touch no count (and no item twice).
 */
function useSteps(companyId: number, changes: readonly BookingWrite[]): Step[] {
  const deltas = new Map<string, { locationId: number; place: string | null; delta: number }>();
  const count = (locationId: number, place: string | null, delta: number) => {
    const key = `${locationId}|${place ?? ''}`;
    const entry = deltas.get(key) ?? deltas.set(key, { locationId, place, delta: 0 }).get(key)!;
    entry.delta += delta;
  };
  for (const { prev, next } of changes) {
    const before = placesUsed(prev);
    const after = placesUsed(next);
    for (const p of before) if (!after.includes(p)) count(next.locationId, p, -1);
    for (const p of after) if (!before.includes(p)) count(next.locationId, p, 1);
  }
  return [...deltas.values()]
    .filter((d) => d.delta !== 0)
    .map(({ locationId, place, delta }) =>
      place === null
        ? tablelessUseStep(companyId, locationId, delta)
        : tableUseStep(companyId, locationId, place, delta),
    );
}

function bookingSteps(companyId: number, w: BookingWrite): Step[] {
  const { prev, next } = w;
  const at = next.updatedAt;
  const put = prev && bookingEntity.versionedPutStep(companyId, next, prev.version);
  const steps: Step[] = put
    ? [w.moved ? { ...put, onConditionFailed: () => new Contention() } : put]
    : [locationExistsStep(companyId, next.locationId), bookingEntity.newItemStep(companyId, next)];
  steps.push(
    codeStep(companyId, next, !prev),
    ...linkSteps(companyId, prev, next),
    ...sweepSteps(companyId, next.id, prev?.autoNoShowAt ?? null, next.autoNoShowAt),
  );
  if (next.primaryUserId !== null) {
    if (w.activeBookings && w.activeBookings.delta !== 0)
      steps.push(activeBookingsStep(companyId, next.primaryUserId, next.locationId, w.activeBookings));
    if (w.guestHistory) steps.push(guestHistoryStep(companyId, next.primaryUserId, next.locationId, w.guestHistory));
  }
  steps.push(...(w.tableDays ?? []).map((day) => tableDays.writeStep(companyId, day)));
  for (const tableId of w.releaseHolds?.tableIds ?? [])
    for (const date of w.releaseHolds!.dates) steps.push(tableDays.releaseStep(companyId, tableId, date, next.id));
  steps.push(...tabSteps(companyId, next.locationId, w.tabs ?? [], at), ...openTabSteps(companyId, w.openTabs ?? []));
  steps.push(...(w.orders ?? []).map((order) => orderEntity.newItemStep(companyId, order)));
  if (w.reversal)
    steps.push(reverseDispatchesStep(companyId, w.reversal.orderId, w.reversal.dispatches, at, w.reversal.refused));
  if (w.preOrder) {
    const { read, seating } = w.preOrder;
    steps.push(
      seating === undefined
        ? preOrders.unchangedStep(companyId, read)
        : preOrders.seatingStep(companyId, read, seating, at),
    );
  }
  if (w.cancellationPolicy)
    steps.push(bookingSettings.cancellableStep(companyId, next.locationId, w.cancellationPolicy.wholeHoursBefore));
  steps.push(
    ...(w.printJobs ?? []).map((job) => printJobEntity.newItemStep(companyId, job)),
    ...(w.also ?? []),
    ...w.events.map(outboxStep),
  );
  return steps;
}

/**
 * Writes the change as one transaction. A failed condition answers the error its item means
 * (Contention for table days, CodeTaken, TableOccupied, 409 for a booking or tab changed
 * meanwhile); a transaction that met a concurrent one on the same items answers Contention.
 */
export const writeBooking = (companyId: number, change: BookingWrite): Promise<void> =>
  writeBookings(companyId, [change]);

/**
 * Writes changes of several bookings as one transaction, with the same answers as `writeBooking`
 * (the optimizer's moves that must happen together, a swap). No item may appear in two changes:
 * table days shared by the bookings are written once, in one change's `tableDays`.
 */
export async function writeBookings(companyId: number, changes: readonly BookingWrite[]): Promise<void> {
  const fromConditions = new WeakSet<object>();
  const steps = [
    ...changes.flatMap((change) => bookingSteps(companyId, change)),
    ...useSteps(companyId, changes),
    ...aroundSteps(companyId, changes),
  ].map((s): Step => {
    const toError = s.onConditionFailed;
    if (!toError) return s;
    return {
      ...s,
      onConditionFailed: () => {
        const err = toError();
        fromConditions.add(err);
        return err;
      },
    };
  });
  try {
    await transact(steps);
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT' && !fromConditions.has(err)) throw new Contention();
    throw err;
  }
}
