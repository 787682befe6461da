/**
 * Purchases, the tab operations and reviews over HTTP (docs/purchases.md): bounds, errors,
 * permissions, the tenant wall, paging and events of each operation. The file has a company of
 * its own, so close-all without a location closes only what this file opened.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { stageItems, tabWithoutBooking } from '../support/stage-data';
import {
  act,
  admin,
  book,
  eventsOf,
  expectRefused,
  keyWith,
  newPlace,
  theirAdmin,
  unknownUuid,
  type Place,
} from './bookings-helpers';
import { useOwnCompany } from './setup-helpers';

const own = useOwnCompany('Tabs and purchases');

const order = (tabId: string, items: unknown[]) =>
  call('POST', `/api/v1/tabs/${tabId}/orders`, { key: admin(), body: { items } });
const pay = (tabId: string, body: Record<string, unknown>, key = admin()) =>
  call('POST', `/api/v1/tabs/${tabId}/purchases`, { key, body: { paymentProvider: 'card', ...body } });
const tabItem = async (id: string) => (await stageItems()).find((i) => i.entity === 'TAB' && i.id === id);

/** A seated booking at the place's first table with one order of `cents` on its tab. */
async function openTab(
  place: Place,
  cents = 10000,
  extra: Record<string, unknown> = {},
): Promise<{ bookingId: string; tabId: string }> {
  const b = await book(place, extra);
  expect((await act(b.id, 'seat', {})).status).toBe(200);
  expect((await order(b.tab.id, [{ name: 'Dinner', price: cents, quantity: 1 }])).status).toBe(200);
  return { bookingId: b.id, tabId: b.tab.id };
}

describe('POST /tabs/{tabId}/purchases', () => {
  it('refuses bad input with 400, naming the field, and writes nothing', async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 100, items: [{ name: 'X', unitPrice: 100, quantity: 1 }] }, '/amount'],
      [{}, '/items'],
      [{ amount: 0 }, '/amount'],
      [{ amount: 100, paymentProvider: 'Card!' }, '/paymentProvider'],
      [{ amount: 100, tip: -1 }, '/tip'],
      [{ amount: 100, serviceFee: 1.5 }, '/serviceFee'],
      [{ amount: 100, providerReference: 'x'.repeat(201) }, '/providerReference'],
      [{ items: Array.from({ length: 101 }, () => ({ name: 'X', unitPrice: 1, quantity: 1 })) }, '/items'],
      [{ items: [{ name: 'X', quantity: 1 }] }, '/items/0/unitPrice'],
      [{ items: [{ unitPrice: 100, quantity: 1 }] }, '/items/0/name'],
      [{ items: [{ name: 'X', unitPrice: 100, quantity: 0 }] }, '/items/0/quantity'],
      [{ items: [{ name: 'X', unitPrice: 100, quantity: 1, vatRate: 12.345 }] }, '/items/0/vatRate'],
      [
        { items: [{ name: 'X', unitPrice: 100, quantity: 1, vatRate: 25 }], vatRows: [{ vatRate: 12, amount: 100 }] },
        '/vatRows',
      ],
      [
        {
          amount: 1000,
          vatRows: [
            { vatRate: 25, amount: 600 },
            { vatRate: 12, amount: 300 },
          ],
        },
        '/vatRows',
      ],
      [
        {
          amount: 1000,
          vatRows: [
            { vatRate: 25, amount: 500 },
            { vatRate: 25, amount: 500 },
          ],
        },
        '/vatRows/1/vatRate',
      ],
      [{ amount: 1000, vatRows: [{ vatRate: 25, amount: 1000, vat: 150 }] }, '/vatRows/0/vat'],
    ];
    for (const [body, path] of cases) {
      const out = await call('POST', `/api/v1/tabs/${tabId}/purchases`, {
        key: admin(),
        body: { paymentProvider: 'card', ...body },
      });
      expect(out.status, `${JSON.stringify(body)}: ${JSON.stringify(out.body)}`).toBe(400);
      expect(out.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(out.body.error.details), JSON.stringify(body)).toContain(path);
    }
    expect(await tabItem(tabId)).toMatchObject({ purchaseCount: 0, status: 'open' });
  });

  it("takes a line's name, price, VAT and cost center from its inventory item; given VAT rows are checked; a plain amount may carry rows", async () => {
    const place = await newPlace({}, 2);
    const item = await call('POST', '/api/v1/items', {
      key: admin(),
      body: {
        locationId: place.id,
        name: 'Toast Skagen',
        price: 14500,
        vatRate: 12,
        categoryHandle: 'starters',
        costCenter: { code: '3010', name: 'Kitchen' },
      },
    });
    expect(item.status).toBe(200);
    const { tabId } = await openTab(place, 50000);
    const byItem = await pay(tabId, {
      items: [{ itemId: item.body.data.id, quantity: 2 }],
      vatRows: [{ vatRate: 12, amount: 29000 }],
    });
    expect(byItem.status, JSON.stringify(byItem.body)).toBe(200);
    expect(byItem.body.data).toMatchObject({
      items: [
        {
          itemId: item.body.data.id,
          name: 'Toast Skagen',
          quantity: 2,
          unitPrice: 14500,
          amount: 29000,
          vatRate: 12,
          costCenter: { code: '3010', name: 'Kitchen' },
        },
      ],
      amount: 29000,
      vatRows: [{ vatRate: 12, amount: 29000, vat: 3107 }],
    });
    const byAmount = await pay(tabId, {
      amount: 21000,
      serviceFee: 500,
      vatRows: [
        { vatRate: 25, amount: 20000 },
        { vatRate: 0, amount: 1000, vat: 0 },
      ],
      providerReference: 'ch_42',
    });
    expect(byAmount.body.data).toMatchObject({
      items: [],
      amount: 21000,
      serviceFee: 500,
      total: 21500,
      providerReference: 'ch_42',
      vatRows: [
        { vatRate: 25, amount: 20000, vat: 4000 },
        { vatRate: 0, amount: 1000, vat: 0 },
      ],
      tab: { status: 'closed' },
    });

    // The location's day totals: what the purchase summary will read (per local day, the day item
    // with the fixed counters and the buckets of the others; the two purchases fall on one day
    // unless they straddle the location's midnight: summed over days).
    const days = (await stageItems()).filter((i) => i.entity === 'PURCHASE_DAY' && i.locationId === place.id);
    expect([...new Set(days.map((d) => d.localDate))].sort()).toEqual(
      [...new Set([byItem.body.data.localDate, byAmount.body.data.localDate])].sort(),
    );
    for (const d of days.filter((d) => !String(d.sk).includes('#B')))
      expect(Object.keys(d).filter((k) => k.includes('|'))).toEqual([]);
    expect(days.filter((d) => /#B\d{2}$/.test(String(d.sk))).length).toBeGreaterThan(0);
    const expected: Record<string, number> = {
      n: 2,
      amount: 50000,
      tip: 0,
      serviceFee: 500,
      'vat|12|amount': 29000,
      'vat|12|vat': 3107,
      'vat|25|amount': 20000,
      'vat|25|vat': 4000,
      'vat|0|amount': 1000,
      'psp|card|amount': 50000,
      'psp|card|serviceFee': 500,
      'psp|card|n': 2,
      [`line|${item.body.data.id}|14500|12|3010|Toast%20Skagen`]: 2,
      'cc|3010|Kitchen': 29000,
      'ccpsp|card|3010|amount': 29000,
      'ccpsp|card|3010|n': 1,
      'ccpsp|card||amount': 21000,
      'ccpsp|card||n': 1,
    };
    const summed = Object.fromEntries(
      Object.keys(expected).map((k) => [k, days.reduce((sum, d) => sum + (Number(d[k]) || 0), 0)]),
    );
    expect(summed).toEqual(expected);

    // An item of another location is 404, naming the line.
    const elsewhere = await newPlace({}, 1);
    const theirs = await call('POST', '/api/v1/items', {
      key: admin(),
      body: { locationId: elsewhere.id, name: 'Elsewhere', price: 100, vatRate: 12, categoryHandle: 'starters' },
    });
    const { tabId: another } = await openTab(place, 1000, { tableIds: [place.tables[1]!.id] });
    expectRefused(
      await pay(another, { items: [{ itemId: theirs.body.data.id, quantity: 1 }] }),
      404,
      'NOT_FOUND',
      '/items/0/itemId',
    );
  });

  it("answers 404 for an unknown tab or another company's, 422 when nothing is due, 403 without purchases.manage or outside the key's locations", async () => {
    const place = await newPlace({}, 2);
    const { tabId } = await openTab(place);
    expectRefused(await pay(unknownUuid, { amount: 100 }), 404, 'NOT_FOUND');
    expectRefused(await pay(tabId, { amount: 100 }, theirAdmin()), 404, 'NOT_FOUND');
    const waiting = await book(place, { tableIds: [place.tables[1]!.id] });
    expectRefused(await pay(waiting.tab.id, { amount: 100 }), 422, 'UNPROCESSABLE', '/amount');
    expectRefused(await pay(tabId, { amount: 100 }, await keyWith(['purchases.read'])), 403, 'FORBIDDEN');
    const elsewhere = await newPlace({}, 1);
    expectRefused(
      await pay(tabId, { amount: 100 }, await keyWith(['purchases.manage'], [elsewhere.id])),
      403,
      'FORBIDDEN',
    );
    expect(await tabItem(tabId)).toMatchObject({ purchaseCount: 0 });
    expect((await pay(tabId, { amount: 100 }, await keyWith(['purchases.manage'], [place.id]))).status).toBe(200);
  });

  it("records a provider's reference once: a repeat (a POS retrying) is 409 naming it, and pays nothing", async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place, 9000);
    const first = await pay(tabId, { amount: 3000, paymentProvider: 'adyen', providerReference: 'psp-771' });
    expect(first.status).toBe(200);
    const answers = await Promise.all(
      [1, 2, 3].map(() => pay(tabId, { amount: 3000, paymentProvider: 'adyen', providerReference: 'psp-771' })),
    );
    for (const a of answers) expectRefused(a, 409, 'CONFLICT', '/providerReference');
    expect(await tabItem(tabId)).toMatchObject({ purchaseCount: 1, paidCents: 3000 });
    // Another provider's reference of the same text is another payment.
    expect((await pay(tabId, { amount: 3000, paymentProvider: 'stripe', providerReference: 'psp-771' })).status).toBe(
      200,
    );
  });

  it('concurrent payments of the whole bill: exactly one is taken, the tab closes once', async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place, 8000);
    const since = new Date().toISOString();
    const answers = await Promise.all(Array.from({ length: 6 }, () => pay(tabId, { amount: 8000 })));
    const taken = answers.filter((a) => a.status === 200);
    expect(taken).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([409, 422]).toContain(a.status);
    expect(await tabItem(tabId)).toMatchObject({ status: 'closed', purchaseCount: 1, paidCents: 8000 });
    expect(await eventsOf('tab.closed', tabId, since)).toHaveLength(1);
  });
});

describe('a final payment racing a new order', () => {
  it('never closes a tab with an order it did not pay for: closed means paid = bill, open means paid < bill', async () => {
    const place = await newPlace({}, 3);
    for (let round = 0; round < 3; round++) {
      const { tabId } = await openTab(place, 6000, { tableIds: [place.tables[round]!.id] });
      const [paid, ordered] = await Promise.all([
        pay(tabId, { amount: 6000 }),
        order(tabId, [{ name: 'Dessert', price: 2500, quantity: 1 }]),
      ]);
      expect([paid.status, ordered.status]).not.toEqual([409, 409]);
      const orders = (await call('GET', `/api/v1/tabs/${tabId}/orders?limit=100`, { key: admin() })).body.data as {
        items: { price: number; quantity: number }[];
      }[];
      const bill = orders.flatMap((o) => o.items).reduce((sum, l) => sum + l.price * l.quantity, 0);
      const tab = await tabItem(tabId);
      if (tab!.status === 'closed') {
        expect(tab!.paidCents).toBe(bill);
        expect(ordered.status).toBe(409);
      } else {
        expect(tab!.status).toBe('open');
        expect(Number(tab!.paidCents ?? 0)).toBeLessThan(bill);
        expect(ordered.status).toBe(200);
      }
    }
  });
});

describe('GET /tabs/{tabId}', () => {
  const read = (tabId: string, key = admin()) => call('GET', `/api/v1/tabs/${tabId}`, { key });

  it('answers an open tab with its booking and tables, its bill per VAT rate, its orders and its payments', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    expect((await act(b.id, 'seat', {})).status).toBe(200);
    const tabId: string = b.tab.id;
    const steak = await order(tabId, [{ name: 'Steak', price: 29000, quantity: 2, vatRate: 12 }]);
    const wine = await order(tabId, [
      { name: 'Wine', price: 9000, quantity: 1, vatRate: 25, modifications: [{ name: 'Large', price: 3000 }] },
      { name: 'Bread', price: 500, quantity: 2 },
    ]);
    const paid = await pay(tabId, { amount: 40000 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);

    const out = await read(tabId);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const tab = out.body.data;
    expect(tab).toMatchObject({
      id: tabId,
      locationId: place.id,
      bookingId: b.id,
      tableId: place.tables[0]!.id,
      status: 'open',
      orderCount: 2,
      purchaseCount: 1,
      paidCents: 40000,
      booking: { id: b.id, status: 'seated', tableIds: [place.tables[0]!.id] },
      tableIds: [place.tables[0]!.id],
    });
    // 2 × 290.00 at 12 %, 120.00 at 25 %, 2 × 5.00 without a rate: 710.00; 400.00 paid by a plain
    // amount shared out over the rates.
    const share = paid.body.data.vatRows as { vatRate: number; amount: number }[];
    const paidAt = (rate: number | null) =>
      rate === null
        ? 40000 - share.reduce((sum, r) => sum + r.amount, 0)
        : share.find((r) => r.vatRate === rate)!.amount;
    expect(tab.bill).toEqual({
      totalCents: 71000,
      paidCents: 40000,
      dueCents: 31000,
      vatRows: [
        { vatRate: 12, amount: 58000, vat: 6214, paidCents: paidAt(12), dueCents: 58000 - paidAt(12) },
        { vatRate: 25, amount: 12000, vat: 2400, paidCents: paidAt(25), dueCents: 12000 - paidAt(25) },
        { vatRate: null, amount: 1000, vat: 0, paidCents: paidAt(null), dueCents: 1000 - paidAt(null) },
      ],
    });
    expect(tab.orders.map((o: { id: string }) => o.id)).toEqual([steak.body.data.id, wine.body.data.id]);
    expect(tab.orders[1]).toEqual(wine.body.data);
    const { tab: _balance, ...purchase } = paid.body.data;
    expect(tab.purchases).toEqual([purchase]);

    // Paid in full: closed, nothing due at any rate.
    expect((await pay(tabId, { amount: 31000 })).status).toBe(200);
    const closed = (await read(tabId)).body.data;
    expect(closed).toMatchObject({ status: 'closed', bill: { totalCents: 71000, paidCents: 71000, dueCents: 0 } });
    expect(closed.bill.vatRows.map((r: { dueCents: number }) => r.dueCents)).toEqual([0, 0, 0]);
    expect(closed.purchases).toHaveLength(2);
  });

  it('a tab opened without a booking: no booking, no tables, an empty bill', async () => {
    const place = await newPlace({}, 1);
    const bar = await tabWithoutBooking(own().companyId, place.id);
    expect((await read(bar.id)).body.data).toMatchObject({
      id: bar.id,
      booking: null,
      tableIds: [],
      bill: { totalCents: 0, paidCents: 0, dueCents: 0, vatRows: [] },
      orders: [],
      purchases: [],
    });
  });

  it("404 for an unknown tab or another company's; 403 without tabs.read or outside the key's locations", async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place);
    expectRefused(await read(unknownUuid), 404, 'NOT_FOUND');
    expectRefused(await read(tabId, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await read(tabId, await keyWith(['purchases.read', 'bookings.read'])), 403, 'FORBIDDEN');
    const elsewhere = await newPlace({}, 1);
    // A key limited to another location: 403, as for every resource of another location.
    const limited = await keyWith(['tabs.read'], [elsewhere.id]);
    expectRefused(await read(tabId, limited), 403, 'FORBIDDEN');
    expectRefused(await read(unknownUuid, limited), 404, 'NOT_FOUND');
    const here = await read(tabId, await keyWith(['tabs.read'], [place.id]));
    expect(here.status).toBe(200);
    expect(here.body.data).toMatchObject({ id: tabId, bill: { totalCents: 10000, dueCents: 10000 } });
    expect((await read(tabId, own().keys.readonly)).status).toBe(200);
    expectRefused(await call('GET', '/api/v1/tabs/not-a-uuid', { key: admin() }), 400, 'VALIDATION_FAILED', '/tabId');
  });
});

describe('GET /tabs/{tabId}/purchases and recent-purchase-intent', () => {
  it('pages oldest first; the newest or null; 404 for an unknown tab; reads need purchases.read / tabs.read', async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place, 9000);
    const empty = await call('GET', `/api/v1/tabs/${tabId}/recent-purchase-intent`, { key: admin() });
    expect(empty.body).toMatchObject({ status: 'success', data: null });
    expect((await call('GET', `/api/v1/tabs/${tabId}/purchases`, { key: admin() })).body.data).toEqual([]);
    const made: string[] = [];
    for (const amount of [1000, 2000, 3000]) made.push((await pay(tabId, { amount })).body.data.id);

    const first = await call('GET', `/api/v1/tabs/${tabId}/purchases?limit=2`, { key: own().keys.readonly });
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(made.slice(0, 2));
    const cursor = first.body.meta.pagination.nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const second = await call('GET', `/api/v1/tabs/${tabId}/purchases?limit=2&cursor=${encodeURIComponent(cursor)}`, {
      key: admin(),
    });
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual(made.slice(2));
    expect(second.body.meta.pagination.nextCursor).toBeNull();
    expectRefused(
      await call('GET', `/api/v1/tabs/${tabId}/purchases?limit=101`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );

    const recent = await call('GET', `/api/v1/tabs/${tabId}/recent-purchase-intent`, { key: own().keys.readonly });
    expect(recent.body.data).toMatchObject({ id: made[2], amount: 3000 });
    for (const path of [`/api/v1/tabs/${unknownUuid}/purchases`, `/api/v1/tabs/${unknownUuid}/recent-purchase-intent`])
      expectRefused(await call('GET', path, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('GET', `/api/v1/tabs/${tabId}/purchases`, { key: theirAdmin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('GET', `/api/v1/tabs/${tabId}/recent-purchase-intent`, { key: theirAdmin() }),
      404,
      'NOT_FOUND',
    );
    expectRefused(
      await call('GET', `/api/v1/tabs/${tabId}/purchases`, { key: await keyWith(['tabs.read']) }),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call('GET', `/api/v1/tabs/${tabId}/recent-purchase-intent`, { key: await keyWith(['purchases.read']) }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('POST /purchases/{purchaseIntentId}/picked-up', () => {
  it("records pickedUpAt once: repeats, concurrent too, answer the same; 404 unknown or another company's; 403 without purchases.update", async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place);
    const purchase = (await pay(tabId, { amount: 2500 })).body.data;
    const since = new Date().toISOString();
    const path = `/api/v1/purchases/${purchase.id}/picked-up`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('POST', path, { key: admin() })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const at = answers[0]!.body.data.pickedUpAt;
    expect(at).toEqual(expect.any(String));
    expect(answers.map((a) => a.body.data.pickedUpAt)).toEqual(answers.map(() => at));
    const again = await call('POST', path, { key: admin() });
    expect(again.body.data).toMatchObject({ id: purchase.id, pickedUpAt: at, version: 2 });
    const [event, ...more] = await eventsOf('purchase.updated', purchase.id, since);
    expect(more).toEqual([]);
    expect(event!.changes).toEqual({ pickedUpAt: at });

    expectRefused(await call('POST', `/api/v1/purchases/${unknownUuid}/picked-up`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('POST', path, { key: theirAdmin() }), 404, 'NOT_FOUND');
    expectRefused(await call('POST', path, { key: await keyWith(['purchases.read']) }), 403, 'FORBIDDEN');
    expectRefused(
      await call('POST', '/api/v1/purchases/not-a-uuid/picked-up', { key: admin() }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('GET /purchases/refund-reasons', () => {
  it("answers the defaults for a location of the company; 400 without locationId; 404 for another company's; 403 outside the key's locations", async () => {
    const place = await newPlace({}, 1);
    const out = await call('GET', `/api/v1/purchases/refund-reasons?locationId=${place.id}`, {
      key: own().keys.readonly,
    });
    expect(out.status).toBe(200);
    expect(out.body.data.locationId).toBe(place.id);
    expect(out.body.data.reasons.map((r: { code: string }) => r.code)).toEqual([
      'customer_request',
      'wrong_item',
      'quality_issue',
      'long_wait',
      'duplicate_payment',
      'other',
    ]);
    expectRefused(
      await call('GET', '/api/v1/purchases/refund-reasons', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/locationId',
    );
    expectRefused(
      await call('GET', `/api/v1/purchases/refund-reasons?locationId=${place.id}`, { key: theirAdmin() }),
      404,
      'NOT_FOUND',
    );
    const elsewhere = await newPlace({}, 1);
    expectRefused(
      await call('GET', `/api/v1/purchases/refund-reasons?locationId=${place.id}`, {
        key: await keyWith(['purchases.read'], [elsewhere.id]),
      }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('POST /tabs/{tabId}/anonymous-members', () => {
  it("counts an anonymous guest on the tab and answers it; 409 once closed; 404 unknown or another company's; 403 without tabs.update", async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place, 3000);
    const since = new Date().toISOString();
    const path = `/api/v1/tabs/${tabId}/anonymous-members`;
    const one = await call('POST', path, { key: admin() });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    expect(one.body.data).toMatchObject({
      id: tabId,
      status: 'open',
      anonymousMembers: 1,
      orderCount: 1,
      purchaseCount: 0,
      paidCents: 0,
    });
    const two = await call('POST', path, { key: await keyWith(['tabs.update']) });
    expect(two.body.data.anonymousMembers).toBe(2);
    expect(await tabItem(tabId)).toMatchObject({ anonymousMembers: 2, version: one.body.data.version + 1 });
    expect((await eventsOf('tab.updated', tabId, since)).map((e) => e.changes)).toEqual([
      { anonymousMembers: 1 },
      { anonymousMembers: 2 },
    ]);

    expectRefused(
      await call('POST', `/api/v1/tabs/${unknownUuid}/anonymous-members`, { key: admin() }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('POST', path, { key: theirAdmin() }), 404, 'NOT_FOUND');
    expectRefused(await call('POST', path, { key: await keyWith(['tabs.read']) }), 403, 'FORBIDDEN');
    await pay(tabId, { amount: 3000 });
    expectRefused(await call('POST', path, { key: admin() }), 409, 'CONFLICT');
    expect(await tabItem(tabId)).toMatchObject({ anonymousMembers: 2, status: 'closed' });
  });
});

describe('POST /tabs/close-all', () => {
  it("closes the open tabs of the X-Location-Id location (bookings' and walk-in tabs), releasing tables; then of every location the credential reaches", async () => {
    const a = await newPlace({}, 2);
    const b = await newPlace({}, 1);
    const one = await openTab(a);
    const two = await openTab(a, 5000, { tableIds: [a.tables[1]!.id] });
    const bar = await tabWithoutBooking(own().companyId, a.id);
    const waiting = await book(a, { startTime: '22:00', endTime: '23:00' });
    const other = await openTab(b);
    const since = new Date().toISOString();

    expectRefused(
      await call('POST', '/api/v1/tabs/close-all', { key: await keyWith(['tabs.update']) }),
      403,
      'FORBIDDEN',
    );
    const first = await call('POST', '/api/v1/tabs/close-all', {
      key: admin(),
      headers: { 'X-Location-Id': String(a.id) },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({ locationIds: [a.id], closed: 3, skipped: 0, more: false });
    for (const id of [one.tabId, two.tabId, bar.id])
      expect(await tabItem(id)).toMatchObject({ status: 'closed', closedAt: expect.any(String) });
    // Tabs before arrival and other locations' tabs are not touched.
    expect(await tabItem(waiting.tab.id)).toMatchObject({ status: 'pre_arrival' });
    expect(await tabItem(other.tabId)).toMatchObject({ status: 'open' });
    expect(
      (await stageItems()).filter(
        (i) => i.entity === 'OPEN_TAB' && [one.bookingId, two.bookingId].includes(String(i.bookingId)),
      ),
    ).toEqual([]);
    const [event] = await eventsOf('tab.closed', one.tabId, since);
    expect(event!.data).toMatchObject({ status: 'closed', reason: 'close_all', locationId: a.id });
    // The table is free: the waiting party is seated there.
    expect((await act(waiting.id, 'seat', {})).status).toBe(200);

    // A key limited to b, without the header: b only.
    const limited = await call('POST', '/api/v1/tabs/close-all', { key: await keyWith(['tabs.manage'], [b.id]) });
    expect(limited.body.data).toEqual({ locationIds: [b.id], closed: 1, skipped: 0, more: false });
    expect(await tabItem(other.tabId)).toMatchObject({ status: 'closed' });
    // The company's admin: every location; only the party just seated is left open.
    // (Earlier tests of this file left tabs open at their own locations: they close too.)
    const all = await call('POST', '/api/v1/tabs/close-all', { key: admin() });
    expect(all.body.data).toMatchObject({ skipped: 0, more: false });
    expect(all.body.data.closed).toBeGreaterThanOrEqual(1);
    expect(all.body.data.locationIds).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(await tabItem(waiting.tab.id)).toMatchObject({ status: 'closed' });
    expect((await call('POST', '/api/v1/tabs/close-all', { key: admin() })).body.data).toMatchObject({ closed: 0 });
    expectRefused(
      await call('POST', '/api/v1/tabs/close-all', {
        key: await keyWith(['tabs.manage'], [b.id]),
        headers: { 'X-Location-Id': String(a.id) },
      }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('reviews', () => {
  it("bounds rating and tags (400); POST 404 for an unknown purchase or another company's; 403 without reviews.create / reviews.read", async () => {
    const place = await newPlace({}, 1);
    const { tabId } = await openTab(place);
    const purchase = (await pay(tabId, { amount: 1000 })).body.data;
    const post = (body: Record<string, unknown>, key = admin()) =>
      call('POST', '/api/v1/reviews', { key, body: { purchaseIntentId: purchase.id, rating: 4, ...body } });
    const bad: [Record<string, unknown>, string][] = [
      [{ rating: 0 }, '/rating'],
      [{ rating: 6 }, '/rating'],
      [{ rating: 4.5 }, '/rating'],
      [{ reviewTags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, '/reviewTags'],
      [{ reviewTags: ['x'.repeat(51)] }, '/reviewTags/0'],
      [{ reviewTags: ['same', 'same'] }, '/reviewTags'],
      [{ reviewTags: [' '] }, '/reviewTags/0'],
      [{ purchaseIntentId: 'nope' }, '/purchaseIntentId'],
    ];
    for (const [body, path] of bad) expectRefused(await post(body), 400, 'VALIDATION_FAILED', path);
    expectRefused(await post({ purchaseIntentId: unknownUuid }), 404, 'NOT_FOUND');
    expectRefused(await post({}, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await post({}, await keyWith(['reviews.read'])), 403, 'FORBIDDEN');
    expect((await stageItems()).filter((i) => i.entity === 'REVIEW' && i.purchaseIntentId === purchase.id)).toEqual([]);

    const made = await post({}, await keyWith(['reviews.create']));
    expect(made.body.data).toMatchObject({ rating: 4, reviewTags: [] });
    // A repeat with other values answers the first review.
    expect((await post({ rating: 1, reviewTags: ['late'] })).body.data).toEqual(made.body.data);
    const get = (key: string, id = purchase.id) => call('GET', `/api/v1/reviews/${id}`, { key });
    expect((await get(own().keys.readonly)).body.data).toEqual(made.body.data);
    // No review (an unknown purchase, another company's): data null, not an error (docs/conventions.md, “Not found versus empty”).
    expect((await get(admin(), unknownUuid)).body).toMatchObject({ status: 'success', data: null });
    expect((await get(theirAdmin())).body).toMatchObject({ status: 'success', data: null });
    expectRefused(await get(await keyWith(['reviews.create'])), 403, 'FORBIDDEN');
  });
});
