/**
 * Seating over HTTP (docs/bookings.md, “States”; docs/bookings.md, “Rules and refusals”): seat (tabs open, tables claimed, the pre-order dispatched), unseat
 * (and its refusals), split into per-resource tabs; pre-orders; orders on tabs and kitchen dispatches.
 */
import { describe, expect, it } from 'vitest';
import { call, company } from '../support/http';
import { stageItems, tabWithoutBooking } from '../support/stage-data';
import { seededLocation } from './setup-helpers';
import {
  act,
  admin,
  book,
  eventsOf,
  expectRefused,
  getBooking,
  keyWith,
  newPlace,
  theirAdmin,
  unknownUuid,
  type Place,
  walkInToday,
} from './bookings-helpers';

const seat = (id: string, body: unknown = {}, key = admin()) => act(id, 'seat', body, key);
const unseat = (id: string, reason = 'Seated the wrong party') => act(id, 'unseat', { reason });
const tabOrders = (tabId: string, key = admin()) => call('GET', `/api/v1/tabs/${tabId}/orders?limit=100`, { key });
const order = (tabId: string, items: unknown[], key = admin()) =>
  call('POST', `/api/v1/tabs/${tabId}/orders`, { key, body: { items } });
const advance = (orderId: string, dispatchId: string, status: string, key = admin()) =>
  call('PATCH', `/api/v1/orders/${orderId}/dispatches/${dispatchId}`, { key, body: { status } });
const preOrder = (id: string, items: unknown[], key = admin()) =>
  call('POST', `/api/v1/bookings/${id}/pre-order`, { key, body: { items } });

async function coursing(place: Place, title: string, at: number): Promise<string> {
  const out = await call('POST', '/api/v1/coursings', {
    key: admin(),
    body: { locationId: place.id, title, order: at },
  });
  expect(out.status).toBe(200);
  return out.body.data.id;
}

describe('seat', () => {
  it('opens the tab, claims the table and records booking.seated with the tabId', async () => {
    const place = await newPlace();
    const b = await book(place);
    const since = new Date().toISOString();
    const out = await seat(b.id);
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      status: 'seated',
      statusBeforeSeating: 'confirmed',
      seatedAt: expect.any(String),
      tab: { id: b.tab.id, status: 'open' },
    });
    const [event] = await eventsOf('booking.seated', b.id, since);
    expect(event!.data).toMatchObject({ status: 'seated', tabId: b.tab.id });
    // Another party cannot be seated at the table while the tab is open.
    const next = await book(place, { startTime: '22:00', endTime: '23:00' });
    expectRefused(await seat(next.id), 409, 'CONFLICT');
    expect(await getBooking(next.id)).toEqual(next);
  });

  it('seats once of 10 parallel calls, opening one tab', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    const since = new Date().toISOString();
    const answers = await Promise.all(Array.from({ length: 10 }, () => seat(b.id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    const after = await getBooking(b.id);
    expect(after).toMatchObject({ status: 'seated', version: b.version + 1, tabs: [{ id: b.tab.id, status: 'open' }] });
    expect(await eventsOf('booking.seated', b.id, since)).toHaveLength(1);
    const claims = (await stageItems()).filter((i) => i.entity === 'OPEN_TAB' && i.bookingId === b.id);
    expect(claims).toEqual([expect.objectContaining({ tableId: place.tables[0]!.id, tabId: b.tab.id })]);
  });

  it("reports a named tab of the booking; 404 for a tab that is not the booking's", async () => {
    const place = await newPlace();
    const b = await book(place, {
      tableIds: [place.tables[0]!.id, place.tables[1]!.id],
      defaultTabStrategy: 'per_resource',
    });
    expectRefused(await seat(b.id, { tabId: unknownUuid }), 404, 'NOT_FOUND', '/tabId');
    const since = new Date().toISOString();
    const out = await seat(b.id, { tabId: b.tabs[1]!.id });
    expect(out.body.data.tabs.map((t: { status: string }) => t.status)).toEqual(['open', 'open']);
    const [event] = await eventsOf('booking.seated', b.id, since);
    expect(event!.data.tabId).toBe(b.tabs[1]!.id);
  });

  it('opens a new primary tab with createTab, taking the pre-order along; the pre-arrival one closes', async () => {
    const place = await newPlace();
    const b = await book(place);
    expect((await preOrder(b.id, [{ name: 'Cake', price: 4500, quantity: 1 }])).status).toBe(200);
    const out = await seat(b.id, { createTab: true });
    const seated = out.body.data;
    expect(seated.tab).toMatchObject({ tableId: place.tables[0]!.id, status: 'open' });
    expect(seated.tab.id).not.toBe(b.tab.id);
    expect(seated.tabs).toHaveLength(1);
    const pre = await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: admin() });
    expect(pre.body.data).toMatchObject({
      tabId: seated.tab.id,
      items: [{ name: 'Cake' }],
      seatingOrderId: seated.seatingOrderId,
    });
    const old = (await stageItems()).find((i) => i.entity === 'TAB' && i.id === b.tab.id);
    expect(old).toMatchObject({ status: 'closed' });
  });
});

describe('seat with tabId: linking a walk-in or bar tab (the existing tab to link)', () => {
  const tabItem = async (id: string) => (await stageItems()).find((i) => i.entity === 'TAB' && i.id === id);

  it('links an open tab of the location that has no booking: it becomes the primary tab on the primary table, with the pre-order; the pre-arrival one closes', async () => {
    const place = await newPlace();
    const b = await book(place);
    expect((await preOrder(b.id, [{ name: 'Cake', price: 4500, quantity: 1 }])).status).toBe(200);
    const bar = await tabWithoutBooking(company(1).companyId, place.id);
    const drinks = await order(bar.id, [{ name: 'Negroni', price: 12000, quantity: 2 }]);
    expect(drinks.body.data).toMatchObject({ tabId: bar.id, bookingId: null });

    const since = new Date().toISOString();
    const out = await seat(b.id, { tabId: bar.id });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const seated = out.body.data;
    expect(seated).toMatchObject({
      status: 'seated',
      tab: { id: bar.id, tableId: place.tables[0]!.id, status: 'open' },
      tabs: [{ id: bar.id }],
      version: b.version + 1,
    });
    expect(await getBooking(b.id)).toEqual(seated);
    const [event] = await eventsOf('booking.seated', b.id, since);
    expect(event!.data).toMatchObject({ tabId: bar.id, tab: { id: bar.id } });

    expect(await tabItem(bar.id)).toMatchObject({
      bookingId: b.id,
      tableId: place.tables[0]!.id,
      status: 'open',
      orderCount: 1,
      openedAt: bar.openedAt,
      version: 3,
    });
    expect(await tabItem(b.tab.id)).toMatchObject({ status: 'closed' });
    const claims = (await stageItems()).filter((i) => i.entity === 'OPEN_TAB' && i.bookingId === b.id);
    expect(claims).toEqual([expect.objectContaining({ tableId: place.tables[0]!.id, tabId: bar.id })]);
    // The bar's order stays on the tab, beside the kitchen order the pre-order became.
    const onTab = (await tabOrders(bar.id)).body.data;
    expect(onTab.map((o: { kind: string; bookingId: string | null }) => [o.kind, o.bookingId])).toEqual([
      ['order', null],
      ['pre_order', b.id],
    ]);
    const pre = await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: admin() });
    expect(pre.body.data).toMatchObject({ tabId: bar.id, seatingOrderId: seated.seatingOrderId });
  });

  it("opens a linked pre-arrival tab; refuses a closed tab or another booking's (409), another location's (404), and tabId with createTab (400), changing nothing", async () => {
    const place = await newPlace();
    const b = await book(place);
    const other = await book(place, { tableIds: [place.tables[1]!.id] });
    const elsewhere = await newPlace({}, 1);
    const closed = await tabWithoutBooking(company(1).companyId, place.id, 'closed');
    const theirs = await tabWithoutBooking(company(1).companyId, elsewhere.id);
    const waiting = await tabWithoutBooking(company(1).companyId, place.id, 'pre_arrival');

    expectRefused(await seat(b.id, { tabId: closed.id }), 409, 'CONFLICT', '/tabId');
    expectRefused(await seat(b.id, { tabId: other.tab.id }), 409, 'CONFLICT', '/tabId');
    expectRefused(await seat(b.id, { tabId: theirs.id }), 404, 'NOT_FOUND', '/tabId');
    expectRefused(await seat(b.id, { tabId: waiting.id, createTab: true }), 400, 'VALIDATION_FAILED', '/createTab');
    expect(await getBooking(b.id)).toEqual(b);
    expect(await tabItem(theirs.id)).toMatchObject({ bookingId: null, status: 'open', version: 1 });
    expect(await tabItem(other.tab.id)).toMatchObject({ bookingId: other.id, status: 'pre_arrival', version: 1 });

    const out = await seat(b.id, { tabId: waiting.id });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(await tabItem(waiting.id)).toMatchObject({ bookingId: b.id, status: 'open', openedAt: expect.any(String) });
    // Linked once, it is that booking's: another booking cannot take it.
    expectRefused(await seat(other.id, { tabId: waiting.id }), 409, 'CONFLICT', '/tabId');
    expect(await getBooking(other.id)).toEqual(other);
  });
});

describe('pre-order', () => {
  it('is kept on the tab before arrival and dispatched on seating: one pending dispatch per coursing', async () => {
    const place = await newPlace();
    const [starters, mains] = [await coursing(place, 'Starters', 1), await coursing(place, 'Mains', 2)];
    const b = await book(place);
    expect((await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: admin() })).body.data).toEqual({
      bookingId: b.id,
      tabId: b.tab.id,
      items: [],
      seatingOrderId: null,
    });
    // An inventory item of the location: the line keeps its own name and price, and takes the item's VAT rate and cost center.
    const steak = (
      await call('POST', '/api/v1/items', {
        key: admin(),
        body: { locationId: place.id, name: 'Steak frites', price: 29000, vatRate: 12, categoryHandle: 'mains' },
      })
    ).body.data.id as number;
    const items = [
      { name: 'Oysters', price: 2500, quantity: 2, coursingId: starters },
      {
        itemId: steak,
        name: 'Steak',
        price: 32000,
        quantity: 1,
        coursingId: mains,
        modifications: [{ name: 'Rare', price: 0 }],
      },
      { name: 'Bread', price: 0, quantity: 1 },
    ];
    const since = new Date().toISOString();
    const set = await preOrder(b.id, items);
    expect(set.status).toBe(200);
    expect(set.body.data.items).toEqual([
      { itemId: null, name: 'Oysters', price: 2500, quantity: 2, coursingId: starters, modifications: [] },
      {
        itemId: steak,
        name: 'Steak',
        price: 32000,
        vatRate: 12,
        costCenter: null,
        quantity: 1,
        coursingId: mains,
        modifications: [{ name: 'Rare', price: 0 }],
      },
      { itemId: null, name: 'Bread', price: 0, quantity: 1, coursingId: null, modifications: [] },
    ]);
    expect(await eventsOf('tab.updated', b.tab.id, since)).toHaveLength(1);
    expect((await tabOrders(b.tab.id)).body.data).toEqual([]);

    const seated = (await seat(b.id)).body.data;
    const listed = await tabOrders(b.tab.id);
    expect(listed.body.data).toHaveLength(1);
    const [dispatched] = listed.body.data;
    expect(dispatched).toMatchObject({
      id: seated.seatingOrderId,
      kind: 'pre_order',
      bookingId: b.id,
      tabId: b.tab.id,
    });
    expect(
      dispatched.dispatches.map((d: { coursingId: string | null; status: string; items: unknown[] }) => [
        d.coursingId,
        d.status,
        d.items.length,
      ]),
    ).toEqual([
      [starters, 'pending', 1],
      [mains, 'pending', 1],
      [null, 'pending', 1],
    ]);
    expectRefused(await preOrder(b.id, items), 409, 'CONFLICT');
  });

  it('refuses a coursing of another location (404), a bad line (400), and needs bookings.update / bookings.read', async () => {
    const place = await newPlace();
    const other = await newPlace({}, 1);
    const b = await book(place);
    expectRefused(
      await preOrder(b.id, [
        { name: 'Soup', price: 900, quantity: 1, coursingId: await coursing(other, 'Elsewhere', 1) },
      ]),
      404,
      'NOT_FOUND',
      '/items/0/coursingId',
    );
    expectRefused(
      await preOrder(b.id, [{ name: 'Soup', price: -1, quantity: 1 }]),
      400,
      'VALIDATION_FAILED',
      '/items/0/price',
    );
    expectRefused(
      await preOrder(b.id, [{ name: 'Soup', price: 100, quantity: 0 }]),
      400,
      'VALIDATION_FAILED',
      '/items/0/quantity',
    );
    expectRefused(await preOrder(b.id, []), 400, 'VALIDATION_FAILED', '/items');
    expectRefused(
      await preOrder(b.id, [{ name: 'Soup', price: 100, quantity: 1 }], await keyWith(['bookings.read'])),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: await keyWith(['bookings.update']) }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: theirAdmin() }), 404, 'NOT_FOUND');
    expect((await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: admin() })).body.data.items).toEqual([]);
  });
});

describe('orders and kitchen dispatches', () => {
  it("places an order on an open tab (one dispatch per coursing), moves dispatches forward only, and lists the tab's orders", async () => {
    const place = await newPlace();
    const mains = await coursing(place, 'Mains', 2);
    const b = await book(place);
    expectRefused(await order(b.tab.id, [{ name: 'Wine', price: 9000, quantity: 1 }]), 409, 'CONFLICT');
    await seat(b.id);
    const since = new Date().toISOString();
    const placed = await order(b.tab.id, [
      { name: 'Wine', price: 9000, quantity: 1 },
      { name: 'Pasta', price: 18000, quantity: 2, coursingId: mains },
    ]);
    expect(placed.status).toBe(200);
    const o = placed.body.data;
    expect(o).toMatchObject({ kind: 'order', tabId: b.tab.id, bookingId: b.id, locationId: place.id, version: 1 });
    expect(o.dispatches.map((d: { coursingId: string | null; status: string }) => [d.coursingId, d.status])).toEqual([
      [null, 'pending'],
      [mains, 'pending'],
    ]);
    expect(await eventsOf('order.created', o.id, since)).toHaveLength(1);

    const dispatch = o.dispatches[1].id;
    expect((await advance(o.id, dispatch, 'accepted')).body.data.dispatches[1].status).toBe('accepted');
    expect((await advance(o.id, dispatch, 'ready')).body.data.dispatches[1].status).toBe('ready');
    expectRefused(await advance(o.id, dispatch, 'preparing'), 409, 'CONFLICT');
    expectRefused(await advance(o.id, dispatch, 'reversed'), 400, 'VALIDATION_FAILED', '/status');
    expectRefused(await advance(o.id, unknownUuid, 'served'), 404, 'NOT_FOUND');
    const [updated] = await eventsOf('order.updated', o.id, since);
    expect((updated!.changes as { dispatches: { status: string }[] }).dispatches[1]!.status).toBe('accepted');
    expect((await tabOrders(b.tab.id)).body.data.map((x: { id: string }) => x.id)).toEqual([o.id]);
  });

  it('checks ids, permissions and tenancy', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place, {
      ...walkInToday(),
      seatImmediately: true,
    });
    const o = (await order(b.tab.id, [{ name: 'Water', price: 0, quantity: 1 }])).body.data;
    expectRefused(await order(unknownUuid, [{ name: 'Water', price: 0, quantity: 1 }]), 404, 'NOT_FOUND');
    expectRefused(await tabOrders(unknownUuid), 404, 'NOT_FOUND');
    expectRefused(await tabOrders('nope'), 400, 'VALIDATION_FAILED');
    expectRefused(
      await order(b.tab.id, [{ name: 'Water', price: 0, quantity: 1 }], await keyWith(['orders.read'])),
      403,
      'FORBIDDEN',
    );
    expectRefused(await tabOrders(b.tab.id, await keyWith(['orders.manage'])), 403, 'FORBIDDEN');
    expectRefused(
      await advance(o.id, o.dispatches[0].id, 'accepted', await keyWith(['orders.read'])),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await tabOrders(b.tab.id, await keyWith(['orders.read'], [seededLocation(0).locationId])),
      403,
      'FORBIDDEN',
    );
    expectRefused(await order(b.tab.id, [{ name: 'Water', price: 0, quantity: 1 }], theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await tabOrders(b.tab.id, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await advance(o.id, o.dispatches[0].id, 'accepted', theirAdmin()), 404, 'NOT_FOUND');
    expect((await tabOrders(b.tab.id)).body.data[0].dispatches[0].status).toBe('pending');
  });
});

describe('unseat', () => {
  it("returns to the prior status, reverses the seating's dispatches (order.reversed each), releases the table and queues a correction ticket", async () => {
    const place = await newPlace();
    const [starters, mains] = [await coursing(place, 'Starters', 1), await coursing(place, 'Mains', 2)];
    const b = await book(place);
    await act(b.id, 'check-in');
    await preOrder(b.id, [
      { name: 'Soup', price: 900, quantity: 1, coursingId: starters },
      { name: 'Fish', price: 21000, quantity: 1, coursingId: mains },
    ]);
    const seated = (await seat(b.id)).body.data;
    const seatingOrder = (await tabOrders(b.tab.id)).body.data[0];
    await advance(seatingOrder.id, seatingOrder.dispatches[0].id, 'accepted');

    const since = new Date().toISOString();
    const out = await unseat(b.id, 'Party asked to move tables');
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toMatchObject({
      status: 'checked_in',
      statusBeforeSeating: null,
      seatingOrderId: null,
      tab: { id: b.tab.id, status: 'pre_arrival' },
      version: seated.version + 1,
    });
    const reversed = (await tabOrders(b.tab.id)).body.data[0];
    expect(reversed.dispatches.map((d: { status: string }) => d.status)).toEqual(['reversed', 'reversed']);
    const [unseated] = await eventsOf('booking.unseated', b.id, since);
    expect(unseated!.data).toMatchObject({ status: 'checked_in', reason: 'Party asked to move tables' });
    expect(
      (unseated!.data as { reversedDispatches: { dispatchId: string }[] }).reversedDispatches.map(
        (d: { dispatchId: string }) => d.dispatchId,
      ),
    ).toEqual(seatingOrder.dispatches.map((d: { id: string }) => d.id));
    const orderEvents = await eventsOf('order.reversed', seatingOrder.id, since);
    expect(orderEvents.map((e) => e.data.dispatchId).sort()).toEqual(
      seatingOrder.dispatches.map((d: { id: string }) => d.id).sort(),
    );
    const ticket = (await stageItems()).find(
      (i) => i.entity === 'PRINT_JOB' && (i.content as { bookingId?: string }).bookingId === b.id,
    );
    expect(ticket).toMatchObject({
      kind: 'kitchen_correction',
      status: 'queued',
      locationId: place.id,
      content: { reason: 'Party asked to move tables', reversed: [expect.anything(), expect.anything()] },
    });
    // The table is free: another party can be seated there.
    const other = await book(place, { startTime: '22:30', endTime: '23:30' });
    expect((await seat(other.id)).status).toBe(200);
  });

  it('refuses with 409 and changes nothing when an order was placed after seating, or the kitchen went past accepted', async () => {
    const place = await newPlace();
    const b = await book(place, { tableIds: [place.tables[0]!.id] });
    await seat(b.id);
    await order(b.tab.id, [{ name: 'Beer', price: 7000, quantity: 1 }]);
    const before = await getBooking(b.id);
    expectRefused(await unseat(b.id), 409, 'CONFLICT');
    expect(await getBooking(b.id)).toEqual(before);

    const c = await book(place, { tableIds: [place.tables[1]!.id] });
    await preOrder(c.id, [{ name: 'Soup', price: 900, quantity: 1 }]);
    const seated = (await seat(c.id)).body.data;
    const seatingOrder = (await tabOrders(c.tab.id)).body.data[0];
    await advance(seatingOrder.id, seatingOrder.dispatches[0].id, 'preparing');
    expectRefused(await unseat(c.id), 409, 'CONFLICT');
    expect(await getBooking(c.id)).toEqual(seated);
    expect((await tabOrders(c.tab.id)).body.data[0].dispatches[0].status).toBe('preparing');
  });

  it('takes an optional reason: without one the event and the correction ticket carry null (400 only for a bad one)', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    expectRefused(await act(b.id, 'unseat', { reason: '' }), 400, 'VALIDATION_FAILED', '/reason');
    expectRefused(await act(b.id, 'unseat', { reason: 'x'.repeat(501) }), 400, 'VALIDATION_FAILED', '/reason');
    await preOrder(b.id, [{ name: 'Soup', price: 900, quantity: 1 }]);
    const seated = (await seat(b.id)).body.data;
    const since = new Date().toISOString();
    const out = await act(b.id, 'unseat', {});
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toMatchObject({
      status: 'confirmed',
      tab: { id: b.tab.id, status: 'pre_arrival' },
      version: seated.version + 1,
    });
    const [unseated] = await eventsOf('booking.unseated', b.id, since);
    expect(unseated!.data).toMatchObject({ status: 'confirmed', reason: null });
    const ticket = (await stageItems()).find(
      (i) => i.entity === 'PRINT_JOB' && (i.content as { bookingId?: string }).bookingId === b.id,
    );
    expect(ticket).toMatchObject({
      kind: 'kitchen_correction',
      content: { reason: null, reversed: [expect.anything()] },
    });
  });
});

describe('split into per-resource tabs', () => {
  it('gives each other table of a seated single-tab booking its own open tab; a repeat makes only missing ones', async () => {
    const place = await newPlace();
    const [t1, t2, t3] = place.tables.map((t) => t.id) as [string, string, string];
    const b = await book(place, { tableIds: [t1, t2] });
    expectRefused(await act(b.id, 'split-tabs'), 409, 'CONFLICT');
    await seat(b.id);
    const since = new Date().toISOString();
    const split = await act(b.id, 'split-tabs');
    expect(split.status).toBe(200);
    const tabs = split.body.data.tabs;
    expect(tabs.map((t: { tableId: string; status: string }) => [t.tableId, t.status])).toEqual([
      [t1, 'open'],
      [t2, 'open'],
    ]);
    expect(tabs[0].id).toBe(b.tab.id);
    expect(split.body.data.defaultTabStrategy).toBe('single');
    const [event] = await eventsOf('booking.updated', b.id, since);
    expect(Object.keys(event!.changes!)).toEqual(['tabs']);
    const claims = (await stageItems()).filter((i) => i.entity === 'OPEN_TAB' && i.bookingId === b.id);
    expect(Object.fromEntries(claims.map((c) => [c.tableId, c.tabId]))).toEqual({ [t1]: tabs[0].id, [t2]: tabs[1].id });

    const again = await act(b.id, 'split-tabs');
    expect(again.body.data).toEqual(split.body.data);
    // A table added while seated: the next split makes only its tab.
    const grown = await call('PATCH', `/api/v1/bookings/${b.id}`, { key: admin(), body: { tableIds: [t1, t2, t3] } });
    expect(grown.body.data.tabs).toHaveLength(2);
    const third = await act(b.id, 'split-tabs');
    expect(third.body.data.tabs.slice(0, 2)).toEqual(tabs);
    expect(third.body.data.tabs[2]).toMatchObject({ tableId: t3, status: 'open' });
  });
});
