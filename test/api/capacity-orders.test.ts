/**
 * Orders and pre-orders held to capacity over HTTP: a slot at its orderCapacity or itemCapacity
 * answers 409 naming the slot and the setting and writes nothing; pre-orders racing for a slot's
 * last place: exactly one wins; orders carry the extended waiting time running when placed.
 * Tab orders count in the slot of the moment they are placed, which a test over HTTP does not
 * choose: these tests use limits that refuse whatever the slot (0 orders, more items than the
 * limit); the counter itself is raced with a set clock in test/integration/capacity.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { act, admin, book, eventsOf, expectRefused, newPlace, walkInToday, type Place } from './bookings-helpers';
import { useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

useOwnCompany('Capacity orders test company');

const order = (tabId: string, items: unknown[]) =>
  call('POST', `/api/v1/tabs/${tabId}/orders`, { key: admin(), body: { items } });
const tabOrders = async (tabId: string) =>
  (await call('GET', `/api/v1/tabs/${tabId}/orders?limit=100`, { key: admin() })).body.data as Schemas['Order'][];
const preOrder = (id: string, items: unknown[]) =>
  call('POST', `/api/v1/bookings/${id}/pre-order`, { key: admin(), body: { items } });
const line = (quantity: number) => ({ name: 'Soup', price: 900, quantity });

/** The `order.created` events of orders on the tab since `since`. */
async function ordersCreatedOn(tabId: string, since: string): Promise<Schemas['LoggedEvent'][]> {
  const out = await call('GET', `/api/v1/events?type=order.created&since=${since}&limit=100`, { key: admin() });
  expect(out.status).toBe(200);
  return out.body.data.filter((e: { data: { tabId: string } }) => e.data.tabId === tabId);
}

async function setting(place: Place, body: Record<string, unknown>) {
  const out = await call('POST', `/api/v1/locations/${place.id}/capacity-settings`, {
    key: admin(),
    body: { name: 'Service', validOnDays: [1, 2, 3, 4, 5, 6, 7], ...body },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}

/** A booking seated now (a walk-in), with its open tab. */
async function seatedTab(place: Place, tableIndex = 0): Promise<string> {
  const b = await book(place, {
    ...walkInToday(),
    tableIds: [place.tables[tableIndex]!.id],
    seatImmediately: true,
  });
  expect(b.status).toBe('seated');
  return b.tab.id;
}

describe('tab orders at capacity', () => {
  it('refuses an order into a slot whose setting takes no orders: 409 naming the slot and the setting, nothing written', async () => {
    const place = await newPlace({}, 1);
    const closed = await setting(place, { name: 'Kitchen closed', orderCapacity: 0 });
    const tabId = await seatedTab(place);
    const since = new Date().toISOString();
    const refused = await order(tabId, [line(1)]);
    expectRefused(refused, 409, 'CONFLICT', '/items');
    expect(refused.body.error.message).toMatch(
      new RegExp(
        `^Time slot \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:00-\\d{2}:\\d{2}:00 \\(Europe/Stockholm, starting .*Z\\) is at capacity under capacity setting "Kitchen closed" \\(${closed.id}\\): orderCapacity 0, it takes no orders$`,
      ),
    );
    expect(await tabOrders(tabId)).toEqual([]);
    expect(await ordersCreatedOn(tabId, since)).toEqual([]);

    // A better (lower) priority value that allows orders takes over; a disabled one does not.
    const open = await setting(place, { name: 'Open again', priority: 0, enabled: false });
    expectRefused(await order(tabId, [line(1)]), 409, 'CONFLICT');
    await call('PUT', `/api/v1/locations/${place.id}/capacity-settings/${closed.id}`, {
      key: admin(),
      body: { priority: 5 },
    });
    await call('PUT', `/api/v1/locations/${place.id}/capacity-settings/${open.id}`, {
      key: admin(),
      body: { enabled: true },
    });
    expect((await order(tabId, [line(1)])).status).toBe(200);
    expect(await tabOrders(tabId)).toHaveLength(1);
    expect(await ordersCreatedOn(tabId, since)).toHaveLength(1);
  });

  it('refuses an order with more items than the slot takes (the sum of quantities), and takes one that fits', async () => {
    const place = await newPlace({}, 1);
    const small = await setting(place, { name: 'Small kitchen', itemCapacity: 4 });
    const tabId = await seatedTab(place);
    const refused = await order(tabId, [line(2), line(3)]);
    expectRefused(refused, 409, 'CONFLICT', '/items');
    expect(refused.body.error.message).toContain(
      `"Small kitchen" (${small.id}): itemCapacity 4, it takes 4 items and this alone has 5`,
    );
    expect(await tabOrders(tabId)).toEqual([]);
    expect((await order(tabId, [line(2), line(1)])).status).toBe(200);
  });

  it('places orders freely where no setting covers the moment', async () => {
    const place = await newPlace({}, 1);
    await setting(place, { name: 'Never', orderCapacity: 0, validTo: '2020-01-01T00:00:00Z' });
    const tabId = await seatedTab(place);
    expect((await order(tabId, [line(1)])).status).toBe(200);
  });
});

describe('pre-orders at capacity', () => {
  it('counts a pre-order in the slot of the booking start; of eight racing for the last place exactly one wins', async () => {
    const place = await newPlace({ slotIntervalMinutes: 30 }, 10);
    const dinner = await setting(place, {
      name: 'Dinner',
      timeStart: '18:00:00',
      timeEnd: '22:00:00',
      orderCapacity: 3,
    });
    const at = (i: number, time = '19:00') =>
      book(place, { startTime: time, endTime: '20:30', tableIds: [place.tables[i]!.id] });
    const bookings = [];
    for (let i = 0; i < 10; i++) bookings.push(await at(i, i === 9 ? '19:30' : '19:15'));

    expect((await preOrder(bookings[0]!.id, [line(1)])).status).toBe(200);
    expect((await preOrder(bookings[1]!.id, [line(2)])).status).toBe(200);
    // Replacing a pre-order takes no second place.
    expect((await preOrder(bookings[1]!.id, [line(3)])).status).toBe(200);

    const racers = bookings.slice(2, 9);
    const results = await Promise.all(racers.map((b) => preOrder(b.id, [line(1)])));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectRefused(r, 409, 'CONFLICT');
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.error.message).toMatch(
      new RegExp(
        `^Time slot ${bookings[0]!.bookingDate} 19:00:00-19:30:00 \\(Europe/Stockholm, starting .*\\) is at capacity under capacity setting "Dinner" \\(${dinner.id}\\): orderCapacity 3, 3 of 3 orders are taken$`,
      ),
    );
    // Only the winner's pre-order is stored.
    const stored = await Promise.all(
      racers.map(
        async (b) => (await call('GET', `/api/v1/bookings/${b.id}/pre-order`, { key: admin() })).body.data.items.length,
      ),
    );
    expect(stored.reduce((a, b) => a + b, 0)).toBe(1);
    // The next slot has places of its own.
    expect((await preOrder(bookings[9]!.id, [line(1)])).status).toBe(200);
  });
});

describe('orders during an extended waiting time', () => {
  it('carries the running waiting time on the order, and none once it is deleted', async () => {
    const place = await newPlace({}, 1);
    const tabId = await seatedTab(place);
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (
        await call('POST', '/api/v1/extended-waiting-time', {
          key: admin(),
          body: { locationId: place.id, endsAt, delayInMinutes: 30 },
        })
      ).status,
    ).toBe(200);
    const during = await order(tabId, [line(1)]);
    expect(during.body.data.extendedWaitingTime).toEqual({ delayInMinutes: 30, endsAt });
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await eventsOf('order.created', during.body.data.id, since))[0]!.data.extendedWaitingTime).toEqual({
      delayInMinutes: 30,
      endsAt,
    });

    expect(
      (await call('DELETE', `/api/v1/extended-waiting-time?locationId=${place.id}`, { key: admin() })).status,
    ).toBe(200);
    const after = await order(tabId, [line(1)]);
    expect(after.body.data.extendedWaitingTime).toBeNull();
    expect((await tabOrders(tabId)).map((o) => o.extendedWaitingTime)).toEqual([{ delayInMinutes: 30, endsAt }, null]);
  });

  it('shows none on the order seating makes of a pre-order', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    expect((await preOrder(b.id, [line(2)])).status).toBe(200);
    expect((await act(b.id, 'seat', {})).status).toBe(200);
    expect((await tabOrders(b.tab.id)).map((o) => [o.kind, o.extendedWaitingTime])).toEqual([['pre_order', null]]);
  });
});
