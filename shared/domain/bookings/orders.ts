/**
 * Orders on tabs and their kitchen dispatches, and a booking's pre-order: items
 * ordered ahead, kept with the booking until seating sends them to the kitchen. The coursings
 * lines name are checked by conditions of the write. Each operation reads one item (the tab, or the
 * booking with its pre-order) before its one transaction; placing an order and setting a pre-order
 * then read the location's capacity in one more round trip (capacity/slots.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { readTogether } from '../../data/batch';
import { bookings } from '../../data/bookings';
import { items as inventory, type Item } from '../../data/items';
import { orders, type CoursingCheck, type Order, type OrderLine } from '../../data/orders';
import { preOrders } from '../../data/preOrders';
import { tabs, type Tab } from '../../data/tabs';
import { AppError, conflict, notFound, validationFailed, type FieldProblem } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { Page } from '../../page';
import type { ListOrdersQuery, OrderBody, UpdateDispatchBody } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import { capacityAt, claimIn, itemsOf, withinCapacity } from '../capacity/slots';
import { assertDispatchMove, groupByCoursing } from './dispatches';
import { visibleBooking } from './read';
import type { BookingStatus } from './states';

/** The statuses in which a booking's pre-order may change: until it is seated. */
const beforeSeating: readonly BookingStatus[] = ['pending', 'confirmed', 'checked_in'];

/**
 * The lines as stored: absent optional fields as null or []. A line naming an item takes the
 * item's name, price, VAT rate and cost center where it gives none (the items are read in one
 * round trip); the item must be one of the location's (404 naming the line). A line without an
 * item must give its name and price (400). VAT rate and cost center are stored when known.
 */
/**
 * The inventory item each line names (undefined for a line naming none), read in one round trip;
 * each must be one of the location's (404 naming the first line that names another). Orders and
 * purchases take a line's name, price, VAT rate and cost center from it.
 */
export async function lineItems(
  companyId: number,
  locationId: number,
  lines: readonly { itemId?: number | undefined }[],
): Promise<(Item | undefined)[]> {
  const ids = [...new Set(lines.flatMap((l) => (l.itemId === undefined ? [] : [l.itemId])))];
  const found = new Map(
    (ids.length ? await inventory.getMany(ids.map((id) => [companyId, id] as [number, number])) : []).map((i) => [
      i.id,
      i,
    ]),
  );
  return lines.map((l, index) => {
    if (l.itemId === undefined) return undefined;
    const item = found.get(l.itemId);
    if (!item || item.locationId !== locationId) {
      throw new AppError('NOT_FOUND', `Item ${l.itemId} not found at location ${locationId}`, [
        { path: `/items/${index}/itemId`, message: 'no item with this id at this location' },
      ]);
    }
    return item;
  });
}

async function linesOf(companyId: number, locationId: number, lines: OrderBody['items']): Promise<OrderLine[]> {
  const named = await lineItems(companyId, locationId, lines);
  const problems: FieldProblem[] = [];
  const out = lines.map((l, index): OrderLine => {
    const item = named[index];
    const name = l.name ?? item?.name;
    const price = l.price ?? item?.price;
    if (name === undefined) problems.push({ path: `/items/${index}/name`, message: 'is required without itemId' });
    if (price === undefined) problems.push({ path: `/items/${index}/price`, message: 'is required without itemId' });
    const vatRate = l.vatRate ?? item?.vatRate;
    const costCenter = l.costCenter !== undefined ? l.costCenter : item?.costCenter;
    return {
      itemId: l.itemId ?? null,
      name: name!,
      price: price!,
      ...(vatRate === undefined ? {} : { vatRate }),
      ...(costCenter === undefined ? {} : { costCenter }),
      quantity: l.quantity,
      coursingId: l.coursingId ?? null,
      modifications: l.modifications ?? [],
    };
  });
  if (problems.length) throw validationFailed('The order is not valid', problems);
  return out;
}

/**
 * The coursings the lines name, each of which must be one of the location's: checked by a
 * condition of the write, not read before it. A failure is 404 naming the first line that names it.
 */
function coursingChecks(locationId: number, items: OrderBody['items']): CoursingCheck[] {
  const firstLine = new Map<string, number>();
  items.forEach((i, index) => {
    if (i.coursingId !== undefined && !firstLine.has(i.coursingId)) firstLine.set(i.coursingId, index);
  });
  return [...firstLine].map(([coursingId, index]) => ({
    coursingId,
    locationId,
    onMissing: () =>
      new AppError('NOT_FOUND', `Coursing ${coursingId} not found at location ${locationId}`, [
        { path: `/items/${index}/coursingId`, message: 'no coursing with this id at this location' },
      ]),
  }));
}

async function tabFor(principal: Principal, tabId: string): Promise<Tab> {
  const tab = await tabs.get(principal.companyId, tabId);
  if (!tab) throw notFound(`Tab ${tabId}`);
  assertLocationAllowed(principal, tab.locationId);
  return tab;
}

/**
 * Places an order on an open tab: one pending kitchen dispatch per coursing (one when none is
 * named). It counts in the time slot it is placed in (409 when that slot is at capacity) and
 * carries the extended waiting time running then (docs/capacity.md).
 */
export async function placeOrder(
  principal: Principal,
  tabId: string,
  input: OrderBody,
  nowMs = Date.now(),
): Promise<Order> {
  const tab = await tabFor(principal, tabId);
  if (tab.status !== 'open')
    throw conflict(
      `Tab ${tabId} is ${tab.status.replace('_', ' ')}: orders are placed on the open tab of a seated booking (before arrival, use the booking's pre-order)`,
    );
  const [items, capacity] = await Promise.all([
    linesOf(principal.companyId, tab.locationId, input.items),
    capacityAt(principal.companyId, tab.locationId, nowMs),
  ]);
  const now = new Date(nowMs).toISOString();
  const order: Order = {
    id: randomUUID(),
    tabId,
    bookingId: tab.bookingId,
    locationId: tab.locationId,
    kind: 'order',
    items,
    dispatches: groupByCoursing(items).map((g) => ({
      id: randomUUID(),
      coursingId: g.coursingId,
      status: 'pending',
      items: g.lines,
      updatedAt: now,
    })),
    extendedWaitingTime: capacity.delay,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const event = newEvent(principal.companyId, 'order.created', order.id, { ...order });
  await withinCapacity(principal.companyId, capacity, null, claimIn(capacity, itemsOf(items)), (slotMoves) =>
    orders.place(principal.companyId, order, coursingChecks(tab.locationId, input.items), event, slotMoves),
  );
  return order;
}

/** A tab's orders, oldest first: one Query per page (the tab is read only to tell an empty tab from an unknown one). */
export async function listOrders(principal: Principal, tabId: string, query: ListOrdersQuery): Promise<Page<Order>> {
  const page = await orders.listByTab(principal.companyId, tabId, query);
  const first = page.items[0];
  if (first) assertLocationAllowed(principal, first.locationId);
  else await tabFor(principal, tabId);
  return page;
}

/** Moves a dispatch forward (409 backwards, or once reversed). */
export async function updateDispatch(
  principal: Principal,
  orderId: string,
  dispatchId: string,
  input: UpdateDispatchBody,
): Promise<Order> {
  const prev = await orders.get(principal.companyId, orderId);
  if (!prev) throw notFound(`Order ${orderId}`);
  assertLocationAllowed(principal, prev.locationId);
  const dispatch = prev.dispatches.find((d) => d.id === dispatchId);
  if (!dispatch) throw notFound(`Dispatch ${dispatchId} of order ${orderId}`);
  assertDispatchMove(dispatch.status, input.status);
  const now = new Date().toISOString();
  const next: Order = {
    ...prev,
    dispatches: prev.dispatches.map((d) => (d.id === dispatchId ? { ...d, status: input.status, updatedAt: now } : d)),
    updatedAt: now,
    version: prev.version + 1,
  };
  await orders.update(
    principal.companyId,
    next,
    prev.version,
    newEvent(principal.companyId, 'order.updated', orderId, { ...next }, { dispatches: next.dispatches }),
  );
  return next;
}

/** A booking's pre-order: its items (answered with its primary tab), and the kitchen order seating made of them (once seated). */
export interface PreOrder {
  bookingId: string;
  tabId: string;
  items: OrderLine[];
  seatingOrderId: string | null;
}

/** The booking and its pre-order, in one round trip, for a caller who may act on the booking. */
async function withPreOrder(principal: Principal, bookingId: string) {
  const read = await readTogether({
    booking: bookings.read(principal.companyId, bookingId),
    preOrder: preOrders.read(principal.companyId, bookingId),
  });
  return { booking: visibleBooking(principal, bookingId, read.booking), stored: read.preOrder };
}

/** The booking's pre-order: the booking and its pre-order, read in one round trip. */
export async function getPreOrder(principal: Principal, bookingId: string): Promise<PreOrder> {
  const { booking, stored } = await withPreOrder(principal, bookingId);
  return { bookingId, tabId: booking.tab.id, items: stored.items, seatingOrderId: booking.seatingOrderId };
}

/**
 * Replaces the pre-order; it can change until the booking is seated (409 after). Its items count
 * in the slot of the booking's start (409 when that slot is at capacity); a replacement moves only
 * the difference.
 */
export async function setPreOrder(principal: Principal, bookingId: string, input: OrderBody): Promise<PreOrder> {
  const { booking, stored } = await withPreOrder(principal, bookingId);
  if (!beforeSeating.includes(booking.status))
    throw conflict(
      `The pre-order can change until the booking is seated; this booking is ${booking.status.replace('_', ' ')}`,
    );
  const [items, capacity] = await Promise.all([
    linesOf(principal.companyId, booking.locationId, input.items),
    capacityAt(principal.companyId, booking.locationId, Date.parse(booking.startsAt), booking.timezone),
  ]);
  const claim = claimIn(capacity, itemsOf(items));
  const preOrder: PreOrder = { bookingId, tabId: booking.tab.id, items, seatingOrderId: null };
  const event = newEvent(principal.companyId, 'tab.updated', booking.tab.id, { ...preOrder }, { preOrder: items });
  const when = {
    statuses: beforeSeating,
    coursings: coursingChecks(booking.locationId, input.items),
    at: new Date().toISOString(),
    expectedVersion: stored.version,
    claim,
  };
  await withinCapacity(principal.companyId, capacity, stored.capacityClaim, claim, (slotMoves) =>
    preOrders.set(principal.companyId, bookingId, items, { ...when, slotMoves }, event),
  );
  return preOrder;
}
