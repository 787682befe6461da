/**
 * Seating (docs/bookings.md, “States”): seat (the tabs open, the tables are claimed, the pre-order goes to the
 * kitchen), unseat (all of that undone, if nothing was bought, ordered or cooked since), and
 * splitting a seated booking's single tab into one per table. Each reads the booking (seat and
 * unseat with its pre-order, in the same round trip) and writes one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { bookings, type Booking, type BookingTab } from '../../data/bookings';
import { writeBooking } from '../../data/bookingWrite';
import { orders, type Dispatch, type Order } from '../../data/orders';
import { preOrders, type PreOrder, type SeatingOrder } from '../../data/preOrders';
import type { PrintJob } from '../../data/printJobs';
import { tabs as tabItems, type Tab, type TabWrite } from '../../data/tabs';
import { AppError, conflict, validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { SeatBookingBody } from '../../schemas/bookings';
import { groupByCoursing, isPastAccepted } from './dispatches';
import { bookingFor, visibleBooking } from './read';
import { nextStatus } from './states';
import { claimChanges, tabChanges, tabCreates, withTabs } from './tabs';

/** The booking and its pre-order (and a tab seating names), in one round trip, for a caller who may act on the booking. */
async function bookingWithPreOrder(
  principal: Principal,
  id: string,
  tabId?: string,
): Promise<{ booking: Booking; preOrder: PreOrder; tab: Tab | undefined }> {
  const { companyId } = principal;
  const read = await readTogether({
    booking: bookings.read(companyId, id),
    preOrder: preOrders.read(companyId, id),
    tab: tabId === undefined ? noRead(undefined) : tabItems.read(companyId, tabId),
  });
  return { booking: visibleBooking(principal, id, read.booking), preOrder: read.preOrder, tab: read.tab };
}

/** The kitchen order seating makes of the pre-order: one pending dispatch per coursing. */
function seatingOrder(b: Booking, tabId: string, preOrder: PreOrder['items'], at: string): Order {
  const dispatches: Dispatch[] = groupByCoursing(preOrder).map((g) => ({
    id: randomUUID(),
    coursingId: g.coursingId,
    status: 'pending',
    items: g.lines,
    updatedAt: at,
  }));
  return {
    id: randomUUID(),
    tabId,
    bookingId: b.id,
    locationId: b.locationId,
    kind: 'pre_order',
    items: preOrder,
    dispatches,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

/** What unseating needs of the seating's order: what never changes of it. */
const seatingOf = (order: Order): SeatingOrder => ({
  orderId: order.id,
  tabId: order.tabId,
  dispatches: order.dispatches.map((d) => ({ id: d.id, coursingId: d.coursingId, items: d.items })),
});

const tabRefused = (code: 'NOT_FOUND' | 'CONFLICT', message: string, detail: string) =>
  new AppError(code, message, [{ path: '/tabId', message: detail }]);

/**
 * The tab `tabId` names when it is not one of the booking's own: a tab of the booking's location
 * opened without a booking (a walk-in or bar tab), which seating links to the booking. 404 for
 * no such tab at the location; 409 for a closed tab or one that belongs to another booking.
 */
function tabToLink(b: Booking, tabId: string, tab: Tab | undefined): Tab {
  if (!tab || tab.locationId !== b.locationId)
    throw tabRefused(
      'NOT_FOUND',
      `Tab ${tabId} not found at location ${b.locationId}`,
      "no tab with this id at the booking's location",
    );
  if (tab.status === 'closed')
    throw tabRefused('CONFLICT', `Tab ${tabId} is closed: only an open or pre-arrival tab can be linked`, 'is closed');
  if (tab.bookingId !== null)
    throw tabRefused(
      'CONFLICT',
      `Tab ${tabId} belongs to another booking (${tab.bookingId})`,
      'belongs to another booking',
    );
  return tab;
}

/**
 * Seats a confirmed or checked-in booking. Its tabs open, each of its tables is claimed by the tab
 * serving it (409 when one already has an open tab), and a pre-order is dispatched to the
 * kitchen. The primary tab may be replaced: with `createTab` by a new one for the primary guest
 * and table, with `tabId` naming a tab opened without a booking (a walk-in or bar tab) by that
 * tab, which is linked to the booking; the pre-arrival primary then closes and the pre-order goes
 * with the new one. `tabId` naming one of the booking's own tabs makes it the one `booking.seated`
 * reports.
 */
export async function seatBooking(principal: Principal, id: string, input: SeatBookingBody): Promise<Booking> {
  const { companyId } = principal;
  if (input.tabId !== undefined && input.createTab) {
    throw validationFailed('Link an existing tab or create a new one, not both', [
      { path: '/createTab', message: 'cannot be combined with tabId' },
    ]);
  }
  const { booking: prev, preOrder, tab: named } = await bookingWithPreOrder(principal, id, input.tabId);
  nextStatus(prev.status, 'seat');
  await assertDepositPaid(companyId, prev, input);
  const own = input.tabId === undefined ? undefined : prev.tabs.find((t) => t.id === input.tabId);
  if (own?.status === 'closed') throw tabRefused('CONFLICT', `Tab ${own.id} of booking ${id} is closed`, 'is closed');
  const linked = input.tabId === undefined || own ? undefined : tabToLink(prev, input.tabId, named);

  const now = new Date().toISOString();
  const opened = prev.tabs.map((t): BookingTab => (t.status === 'pre_arrival' ? { ...t, status: 'open' } : t));
  const fresh: BookingTab | undefined = input.createTab
    ? { id: randomUUID(), tableId: prev.tab.tableId, status: 'open' }
    : undefined;
  const primary: BookingTab | undefined =
    fresh ?? (linked && { id: linked.id, tableId: prev.tab.tableId, status: 'open' });
  const tabs = primary ? [primary, ...opened.slice(1)] : opened;
  const order = preOrder.items.length > 0 ? seatingOrder(prev, tabs[0]!.id, preOrder.items, now) : undefined;
  const next = withTabs(
    {
      ...prev,
      status: 'seated',
      statusBeforeSeating: prev.status,
      seatedAt: now,
      autoNoShowAt: null,
      seatingOrderId: order?.id ?? null,
      version: prev.version + 1,
      updatedAt: now,
    },
    tabs,
  );
  const link: TabWrite[] = linked
    ? [
        {
          id: linked.id,
          expectedStatus: linked.status,
          unlinked: true,
          set: {
            bookingId: id,
            tableId: prev.tab.tableId,
            status: 'open',
            ...(linked.status === 'open' ? {} : { openedAt: now }),
          },
        },
      ]
    : [];

  await writeBooking(companyId, {
    prev,
    next,
    tabs: [
      ...tabChanges(prev.tabs, primary ? [{ ...prev.tab, status: 'closed' }, ...opened.slice(1)] : opened, now),
      ...(fresh ? tabCreates(next, [fresh], now) : []),
      ...link,
    ],
    openTabs: claimChanges(prev, next),
    orders: order ? [order] : [],
    // The pre-order read is the one dispatched: it must not have changed since.
    preOrder: order ? { read: preOrder, seating: seatingOf(order) } : { read: preOrder },
    ...(next.primaryUserId !== null ? { guestHistory: { lastVisitAt: now } } : {}),
    events: [newEvent(companyId, 'booking.seated', id, { ...next, tabId: input.tabId ?? tabs[0]!.id })],
  });
  return next;
}

/**
 * A booking's deposit (`depositAmountCents` > 0) is a required item of its primary tab (docs/purchases.md, “The deposit”
 * "no unpaid required items"): seating waits until purchases on that tab have paid it (409 until
 * then; one more GetItem, of the tab, for a booking with a deposit). The deposit stays on that tab,
 * so such a booking is seated on it: not on a new tab (`createTab`) nor a linked one (409).
 */
async function assertDepositPaid(companyId: number, b: Booking, input: SeatBookingBody): Promise<void> {
  const deposit = b.depositAmountCents ?? 0;
  if (deposit <= 0) return;
  if (input.createTab || (input.tabId !== undefined && !b.tabs.some((t) => t.id === input.tabId))) {
    throw new AppError(
      'CONFLICT',
      `Booking ${b.id} has a deposit, which is on its own tab ${b.tab.id}: it is seated on that tab, not on a new or linked one`,
      [
        {
          path: input.createTab ? '/createTab' : '/tabId',
          message: 'a booking with a deposit is seated on its own tab',
        },
      ],
    );
  }
  const paid = (await tabItems.get(companyId, b.tab.id))?.paidCents ?? 0;
  if (paid < deposit) {
    throw new AppError(
      'CONFLICT',
      `The deposit of ${deposit} is a required item and is unpaid (${paid} paid): pay it with a purchase on tab ${b.tab.id} before seating`,
      [{ path: '/depositAmountCents', message: `${deposit - paid} of the deposit is unpaid` }],
    );
  }
}

/** A dispatch that unseating reversed, as booking.unseated lists it. */
interface ReversedDispatch {
  orderId: string;
  dispatchId: string;
  coursingId: string | null;
}

/**
 * Why unseating was refused, read only once its transaction failed: purchases or orders on the
 * open tabs, or a dispatch of the seating's order past accepted (else undefined: something else
 * changed meanwhile).
 */
async function unseatRefusal(companyId: number, prev: Booking): Promise<AppError | undefined> {
  const open = prev.tabs.filter((t) => t.status === 'open').map((t) => t.id);
  const read = await readTogether({
    tabs: tabItems.readMany(companyId, open),
    order: prev.seatingOrderId ? orders.read(companyId, prev.seatingOrderId) : noRead(undefined),
  });
  if (read.tabs.some((t) => t.purchaseCount > 0))
    return conflict("Purchases exist on the booking's tabs: it cannot be unseated");
  if (read.tabs.some((t) => t.orderCount > 0))
    return conflict("Orders were placed on the booking's tabs after seating: it cannot be unseated");
  const started = read.order?.dispatches.find((d) => isPastAccepted(d.status));
  if (started)
    return conflict(
      `The kitchen is past accepting dispatch ${started.id} (${started.status}): the booking cannot be unseated`,
    );
  return undefined;
}

/**
 * Undoes seating: back to the status before it, the open tabs back to pre-arrival, the tables'
 * claims released, the seating's kitchen dispatches reversed (each with `order.reversed`) and a
 * kitchen correction ticket queued with the reason (null when none was given). Refused with 409
 * when purchases exist, more orders were placed, or the kitchen has gone past accepting a
 * dispatch: those are conditions of the transaction (the tabs untouched, each dispatch still
 * pending or accepted), not reads.
 */
export async function unseatBooking(principal: Principal, id: string, given?: string): Promise<Booking> {
  const { companyId } = principal;
  const reason = given ?? null;
  const { booking: prev, preOrder } = await bookingWithPreOrder(principal, id);
  const { to } = nextStatus(prev.status, 'unseat', prev.statusBeforeSeating);
  const { seating } = preOrder;
  if ((seating?.orderId ?? null) !== prev.seatingOrderId)
    throw new Error(`booking ${id}: its seating order ${prev.seatingOrderId} is not its pre-order's`);

  const now = new Date().toISOString();
  const reversed: ReversedDispatch[] = (seating?.dispatches ?? []).map((d) => ({
    orderId: seating!.orderId,
    dispatchId: d.id,
    coursingId: d.coursingId,
  }));
  const tabs = prev.tabs.map((t): BookingTab => (t.status === 'open' ? { ...t, status: 'pre_arrival' } : t));
  const next = withTabs(
    {
      ...prev,
      status: to,
      statusBeforeSeating: null,
      seatedAt: null,
      seatingOrderId: null,
      version: prev.version + 1,
      updatedAt: now,
    },
    tabs,
  );
  const correction: PrintJob | undefined =
    seating && reversed.length
      ? {
          id: randomUUID(),
          locationId: prev.locationId,
          kind: 'kitchen_correction',
          status: 'queued',
          content: {
            bookingId: id,
            tableIds: prev.tableIds,
            reason,
            reversed: seating.dispatches.map((d) => ({ dispatchId: d.id, coursingId: d.coursingId, items: d.items })),
          },
          createdAt: now,
        }
      : undefined;

  try {
    await writeBooking(companyId, {
      prev,
      next,
      tabs: tabChanges(prev.tabs, tabs, now, true),
      openTabs: claimChanges(prev, next),
      ...(seating
        ? {
            reversal: {
              orderId: seating.orderId,
              dispatches: seating.dispatches.length,
              refused: () => conflict('A dispatch of the seating is past accepted'),
            },
          }
        : {}),
      ...(seating ? { preOrder: { read: preOrder, seating: null } } : {}),
      printJobs: correction ? [correction] : [],
      events: [
        newEvent(companyId, 'booking.unseated', id, { ...next, reason, reversedDispatches: reversed }),
        ...reversed.map((r) =>
          newEvent(companyId, 'order.reversed', r.orderId, { ...r, bookingId: id, tabId: seating!.tabId, reason }),
        ),
      ],
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT') throw (await unseatRefusal(companyId, prev)) ?? err;
    throw err;
  }
  return next;
}

/**
 * Gives each non-primary table of a seated booking its own open tab (its claim moves to it); the
 * primary tab keeps its items, and defaultTabStrategy stays. A repeat makes only missing tabs.
 */
export async function splitTabs(principal: Principal, id: string): Promise<Booking> {
  const { companyId } = principal;
  const prev = await bookingFor(principal, id);
  if (prev.status !== 'seated')
    throw conflict(`Only a seated booking's tabs can be split; this one is ${prev.status.replace('_', ' ')}`);
  const own = new Map(prev.tabs.slice(1).map((t) => [t.tableId, t]));
  const created = prev.tableIds
    .slice(1)
    .filter((t) => !own.has(t))
    .map((tableId): BookingTab => ({ id: randomUUID(), tableId, status: 'open' }));
  if (created.length === 0) return prev;
  for (const t of created) own.set(t.tableId, t);
  const now = new Date().toISOString();
  const tabs = [prev.tab, ...prev.tableIds.slice(1).map((t) => own.get(t)!)];
  const next = withTabs({ ...prev, version: prev.version + 1, updatedAt: now }, tabs);
  await writeBooking(companyId, {
    prev,
    next,
    tabs: tabCreates(next, created, now),
    openTabs: claimChanges(prev, next),
    events: [newEvent(companyId, 'booking.updated', id, { ...next }, { tabs })],
  });
  return next;
}
