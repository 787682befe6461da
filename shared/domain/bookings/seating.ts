/**
 * Seating (spec 3.2): seat (the tabs open, the tables are claimed, the pre-order goes to the
 * kitchen), unseat (all of that undone, if nothing was bought, ordered or cooked since), and
 * splitting a seated booking's single tab into one per table. Each is one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { bookings, type Booking, type BookingTab } from '../../data/bookings';
import type { Dispatch, Order } from '../../data/orders';
import type { PrintJob } from '../../data/printJobs';
import { tabs as tabItems, type Tab } from '../../data/tabs';
import { AppError, conflict } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { SeatBookingBody } from '../../schemas/bookings';
import { groupByCoursing, isPastAccepted } from './dispatches';
import { bookingFor } from './read';
import { nextStatus } from './states';
import { claimChanges, tabChanges, tabCreates, withTabs } from './tabs';

/** The kitchen order seating makes of the pre-order: one pending dispatch per coursing. */
function seatingOrder(b: Booking, tabId: string, preOrder: Tab['preOrder'], at: string): Order {
  const dispatches: Dispatch[] = groupByCoursing(preOrder).map((g) => ({ id: randomUUID(), coursingId: g.coursingId, status: 'pending', items: g.lines, updatedAt: at }));
  return { id: randomUUID(), tabId, bookingId: b.id, locationId: b.locationId, kind: 'pre_order', items: preOrder, dispatches, createdAt: at, updatedAt: at, version: 1 };
}

/**
 * Seats a confirmed or checked-in booking. Its tabs open (with `createTab`, a new primary tab for
 * the primary guest and table replaces the pre-arrival one, taking its pre-order along), each of
 * its tables is claimed by the tab serving it (409 when one already has an open tab), and a
 * pre-order is dispatched to the kitchen. `tabId` names one of the booking's tabs as the one
 * `booking.seated` reports.
 */
export async function seatBooking(principal: Principal, id: string, input: SeatBookingBody): Promise<Booking> {
  const { companyId } = principal;
  const prev = await bookingFor(principal, id);
  nextStatus(prev.status, 'seat');
  if (input.tabId !== undefined && !prev.tabs.some((t) => t.id === input.tabId && t.status !== 'closed')) {
    throw new AppError('NOT_FOUND', `Tab ${input.tabId} is not a tab of booking ${id}`, [{ path: '/tabId', message: "is not one of the booking's tabs" }]);
  }
  const primary = await tabItems.get(companyId, prev.tab.id);
  if (!primary) throw new Error(`booking ${id} has no primary tab item ${prev.tab.id}`);

  const now = new Date().toISOString();
  const opened = prev.tabs.map((t): BookingTab => (t.status === 'pre_arrival' ? { ...t, status: 'open' } : t));
  const fresh: BookingTab | undefined = input.createTab ? { id: randomUUID(), tableId: prev.tab.tableId, status: 'open' } : undefined;
  const tabs = fresh ? [fresh, ...opened.slice(1)] : opened;
  const order = primary.preOrder.length > 0 ? seatingOrder(prev, tabs[0]!.id, primary.preOrder, now) : undefined;
  const next = withTabs(
    { ...prev, status: 'seated', statusBeforeSeating: prev.status, seatedAt: now, autoNoShowAt: null, seatingOrderId: order?.id ?? null, version: prev.version + 1, updatedAt: now },
    tabs,
  );

  const changed = tabChanges(prev.tabs, fresh ? [{ ...prev.tab, status: 'closed' }, ...opened.slice(1)] : opened, now);
  // The pre-order read is the one dispatched: the primary tab must not have changed since.
  const guarded = changed.map((w) => ('id' in w && w.id === primary.id ? { ...w, expectedVersion: primary.version } : w));
  const created = fresh ? tabCreates(next, [fresh], now).map((w) => ('create' in w ? { create: { ...w.create, preOrder: primary.preOrder } } : w)) : [];
  await bookings.write(companyId, {
    prev,
    next,
    tabs: [...guarded, ...created],
    openTabs: claimChanges(prev, next),
    orders: order ? [{ order }] : [],
    ...(next.primaryUserId !== null ? { guestHistory: { lastVisitAt: now } } : {}),
    events: [newEvent(companyId, 'booking.seated', id, { ...next, tabId: input.tabId ?? tabs[0]!.id })],
  });
  return next;
}

/** A dispatch that unseating reversed, as booking.unseated lists it. */
export interface ReversedDispatch {
  orderId: string;
  dispatchId: string;
  coursingId: string | null;
}

/**
 * Undoes seating: back to the status before it, the open tabs back to pre-arrival, the tables'
 * claims released, the seating's kitchen dispatches reversed (each with `order.reversed`) and a
 * kitchen correction ticket queued with the reason. Refused with 409 when purchases exist, more
 * orders were placed, or the kitchen has gone past accepting a dispatch.
 */
export async function unseatBooking(principal: Principal, id: string, reason: string): Promise<Booking> {
  const { companyId } = principal;
  const prev = await bookingFor(principal, id);
  const { to } = nextStatus(prev.status, 'unseat', prev.statusBeforeSeating);
  const open = prev.tabs.filter((t) => t.status === 'open');
  const { tabs: stored, order } = await tabItems.getManyWithOrder(companyId, open.map((t) => t.id), prev.seatingOrderId);
  if (stored.some((t) => t.purchaseCount > 0)) throw conflict('Purchases exist on the booking\'s tabs: it cannot be unseated');
  if (stored.some((t) => t.orderCount > 0)) throw conflict('Orders were placed on the booking\'s tabs after seating: it cannot be unseated');
  const started = order?.dispatches.find((d) => isPastAccepted(d.status));
  if (started) throw conflict(`The kitchen is past accepting dispatch ${started.id} (${started.status}): the booking cannot be unseated`);

  const now = new Date().toISOString();
  const reversed: ReversedDispatch[] = (order?.dispatches ?? []).filter((d) => d.status !== 'reversed').map((d) => ({ orderId: order!.id, dispatchId: d.id, coursingId: d.coursingId }));
  const tabs = prev.tabs.map((t): BookingTab => (t.status === 'open' ? { ...t, status: 'pre_arrival' } : t));
  const next = withTabs({ ...prev, status: to, statusBeforeSeating: null, seatedAt: null, seatingOrderId: null, version: prev.version + 1, updatedAt: now }, tabs);
  const nextOrder: Order | undefined = order && {
    ...order,
    dispatches: order.dispatches.map((d) => (d.status === 'reversed' ? d : { ...d, status: 'reversed', updatedAt: now })),
    updatedAt: now,
    version: order.version + 1,
  };
  const correction: PrintJob | undefined = reversed.length
    ? {
        id: randomUUID(),
        locationId: prev.locationId,
        kind: 'kitchen_correction',
        status: 'queued',
        content: { bookingId: id, tableIds: prev.tableIds, reason, reversed: order!.dispatches.filter((d) => d.status !== 'reversed').map((d) => ({ dispatchId: d.id, coursingId: d.coursingId, items: d.items })) },
        createdAt: now,
      }
    : undefined;

  await bookings.write(companyId, {
    prev,
    next,
    tabs: tabChanges(prev.tabs, tabs, now, true),
    openTabs: claimChanges(prev, next),
    orders: nextOrder ? [{ order: nextOrder, expectedVersion: order!.version }] : [],
    printJobs: correction ? [correction] : [],
    events: [
      newEvent(companyId, 'booking.unseated', id, { ...next, reason, reversedDispatches: reversed }),
      ...reversed.map((r) => newEvent(companyId, 'order.reversed', r.orderId, { ...r, bookingId: id, tabId: order!.tabId, reason })),
    ],
  });
  return next;
}

/**
 * Gives each non-primary table of a seated booking its own open tab (its claim moves to it); the
 * primary tab keeps its items, and defaultTabStrategy stays. A repeat makes only missing tabs.
 */
export async function splitTabs(principal: Principal, id: string): Promise<Booking> {
  const { companyId } = principal;
  const prev = await bookingFor(principal, id);
  if (prev.status !== 'seated') throw conflict(`Only a seated booking's tabs can be split; this one is ${prev.status.replace('_', ' ')}`);
  const own = new Map(prev.tabs.slice(1).map((t) => [t.tableId, t]));
  const created = prev.tableIds.slice(1).filter((t) => !own.has(t)).map((tableId): BookingTab => ({ id: randomUUID(), tableId, status: 'open' }));
  if (created.length === 0) return prev;
  for (const t of created) own.set(t.tableId, t);
  const now = new Date().toISOString();
  const tabs = [prev.tab, ...prev.tableIds.slice(1).map((t) => own.get(t)!)];
  const next = withTabs({ ...prev, version: prev.version + 1, updatedAt: now }, tabs);
  await bookings.write(companyId, {
    prev,
    next,
    tabs: tabCreates(next, created, now),
    openTabs: claimChanges(prev, next),
    events: [newEvent(companyId, 'booking.updated', id, { ...next }, { tabs })],
  });
  return next;
}
