/**
 * A whole evening over HTTP (docs/purchases.md): booking → seat → two orders → a partial payment → the
 * final payment (the tab closes and the table is free for the next party) → a review; the deposit
 * case (a booking with a deposit is seated only once a purchase paid it); concurrent identical
 * review submissions (one review stored, every answer the same). Orders, purchases and reviews
 * through the typed client (test/support/client.ts).
 */
import { describe, expect, it } from 'vitest';
import { apiClient, dataOf, type BodyOf } from '../support/client';
import { stageItems } from '../support/stage-data';
import { act, admin, book, eventsOf, expectRefused, getBooking, newPlace } from './bookings-helpers';

const api = () => apiClient({ key: admin() });
const tab = (tabId: string) => ({ params: { path: { tabId } } });
const order = (tabId: string, items: BodyOf<'/api/v1/tabs/{tabId}/orders', 'post'>['items']) =>
  api().POST('/api/v1/tabs/{tabId}/orders', { ...tab(tabId), body: { items } });
/** A purchase paid by card unless `body` names the provider. */
const pay = (
  tabId: string,
  body: Omit<BodyOf<'/api/v1/tabs/{tabId}/purchases', 'post'>, 'paymentProvider'> & { paymentProvider?: string },
) =>
  api().POST('/api/v1/tabs/{tabId}/purchases', {
    ...tab(tabId),
    body: { ...body, paymentProvider: body.paymentProvider ?? 'card' },
  });
const review = (body: BodyOf<'/api/v1/reviews', 'post'>) => api().POST('/api/v1/reviews', { body });
const reviewOf = (purchaseIntentId: string) =>
  api().GET('/api/v1/reviews/{purchaseIntentId}', { params: { path: { purchaseIntentId } } });
const seat = (id: string, body: unknown = {}) => act(id, 'seat', body);
const tabItem = async (id: string) => (await stageItems()).find((i) => i.entity === 'TAB' && i.id === id);
const claimsOf = async (bookingId: string) =>
  (await stageItems()).filter((i) => i.entity === 'OPEN_TAB' && i.bookingId === bookingId);

describe('the whole evening', () => {
  it('booking, seat, two orders, a partial and a final payment: the tab closes, the table frees, the guest reviews', async () => {
    const place = await newPlace();
    const since = new Date().toISOString();
    const b = await book(place);
    expect((await seat(b.id)).status).toBe(200);
    const tabId: string = b.tab.id;

    // Two orders: 2 × 290.00 at 12 %, and a large glass of wine 120.00 + 30.00 at 25 %.
    dataOf(await order(tabId, [{ name: 'Steak', price: 29000, quantity: 2, vatRate: 12 }]));
    dataOf(
      await order(tabId, [
        { name: 'Wine', price: 12000, quantity: 1, vatRate: 25, modifications: [{ name: 'Large', price: 3000 }] },
      ]),
    );
    const bill = 2 * 29000 + 15000;

    // A partial payment by items, VAT per rate computed from them.
    const first = dataOf(
      await pay(tabId, {
        items: [
          { name: 'Steak', unitPrice: 29000, quantity: 1, vatRate: 12 },
          { name: 'Wine', unitPrice: 15000, quantity: 1, vatRate: 25 },
        ],
        providerReference: `pi_${b.id}`,
      }),
    );
    expect(first).toMatchObject({
      status: 'succeeded',
      amount: 44000,
      total: 44000,
      vatRows: [
        { vatRate: 12, amount: 29000, vat: 3107 },
        { vatRate: 25, amount: 15000, vat: 3000 },
      ],
      tab: { id: tabId, status: 'open', billCents: bill, paidCents: 44000, dueCents: bill - 44000 },
      pickedUpAt: null,
    });
    expect(await tabItem(tabId)).toMatchObject({ status: 'open', purchaseCount: 1, paidCents: 44000 });
    // Purchases exist: the party cannot be unseated any more.
    expectRefused(await act(b.id, 'unseat', {}), 409, 'CONFLICT');
    // More than is due is refused, and changes nothing.
    expectRefused(await pay(tabId, { amount: bill - 44000 + 1 }), 422, 'UNPROCESSABLE', '/amount');
    expect(await tabItem(tabId)).toMatchObject({ purchaseCount: 1, paidCents: 44000 });

    // The final payment, with a tip on top: the tab closes and its table is released.
    const last = dataOf(await pay(tabId, { amount: bill - 44000, tip: 3000, paymentProvider: 'swish' }));
    expect(last).toMatchObject({
      amount: 29000,
      tip: 3000,
      total: 32000,
      tab: { status: 'closed', paidCents: bill, dueCents: 0 },
    });
    expect(await tabItem(tabId)).toMatchObject({
      status: 'closed',
      purchaseCount: 2,
      paidCents: bill,
      closedAt: expect.any(String),
    });
    const after = await getBooking(b.id);
    expect(after).toMatchObject({ status: 'seated', tab: { id: tabId, status: 'closed' }, version: b.version + 2 });
    expect(await claimsOf(b.id)).toEqual([]);
    expectRefused(await pay(tabId, { amount: 100 }), 409, 'CONFLICT');

    // The next party is seated at the table at once.
    const next = await book(place, { startTime: '22:00', endTime: '23:00' });
    expect((await seat(next.id)).status).toBe(200);
    expect(await claimsOf(next.id)).toEqual([
      expect.objectContaining({ tableId: place.tables[0]!.id, tabId: next.tab.id }),
    ]);

    // The tab's purchases, oldest first, and the newest.
    const listed = dataOf(await api().GET('/api/v1/tabs/{tabId}/purchases', tab(tabId)));
    expect(listed.map((p) => p.id)).toEqual([first.id, last.id]);
    const recent = dataOf(await api().GET('/api/v1/tabs/{tabId}/recent-purchase-intent', tab(tabId)));
    expect(recent).toMatchObject({ id: last.id, paymentProvider: 'swish' });

    // The review of the final purchase.
    const reviewed = dataOf(await review({ purchaseIntentId: last.id, rating: 5, reviewTags: ['service', 'wine'] }));
    expect(reviewed).toMatchObject({
      purchaseIntentId: last.id,
      tabId,
      locationId: place.id,
      rating: 5,
      reviewTags: ['service', 'wine'],
    });
    expect(dataOf(await reviewOf(last.id))).toEqual(reviewed);
    expect((await reviewOf(first.id)).data).toMatchObject({ status: 'success', data: null });

    // Every change has its event.
    expect(await eventsOf('purchase.created', first.id, since)).toHaveLength(1);
    expect(await eventsOf('purchase.created', last.id, since)).toHaveLength(1);
    const [closed, ...more] = await eventsOf('tab.closed', tabId, since);
    expect(more).toEqual([]);
    expect(closed!.data).toMatchObject({ status: 'closed', reason: 'paid', paidCents: bill, locationId: place.id });
    const updates = await eventsOf('booking.updated', b.id, since);
    expect(updates.map((e) => e.changes)).toContainEqual({
      tabs: [{ id: tabId, tableId: place.tables[0]!.id, status: 'closed' }],
    });
    expect(await eventsOf('review.created', last.id, since)).toHaveLength(1);
  });
});

describe('the deposit', () => {
  it('is a required item of the pre-arrival tab: seating waits until purchases paid it', async () => {
    const place = await newPlace();
    const b = dataOf(
      await api().POST('/api/v1/bookings', {
        body: {
          locationId: place.id,
          bookingDate: new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
          startTime: '19:00',
          endTime: '21:00',
          timezone: place.timezone,
          guestCount: 2,
          tableIds: [place.tables[0]!.id],
          guestName: 'Dee Posit',
          depositAmountCents: 20000,
          seatImmediately: true,
        },
      }),
    );
    expect(b).toMatchObject({
      status: 'confirmed',
      tab: { status: 'pre_arrival' },
      seatWarning: expect.stringContaining('deposit'),
    });

    const refused = await seat(b.id);
    expectRefused(refused, 409, 'CONFLICT', '/depositAmountCents');
    expect(refused.body.error.message).toContain('unpaid');
    expect(await getBooking(b.id)).toMatchObject({ status: 'confirmed', version: b.version });

    // Part of it: still not seatable; the pre-arrival tab stays pre-arrival.
    const part = dataOf(await pay(b.tab.id, { amount: 5000 }));
    expect(part.tab).toMatchObject({ status: 'pre_arrival', billCents: 20000, paidCents: 5000, dueCents: 15000 });
    expectRefused(await seat(b.id), 409, 'CONFLICT', '/depositAmountCents');
    expectRefused(await pay(b.tab.id, { amount: 15001 }), 422, 'UNPROCESSABLE', '/amount');
    // A new or linked tab would leave the deposit behind.
    expectRefused(await seat(b.id, { createTab: true }), 409, 'CONFLICT', '/createTab');

    const rest = dataOf(await pay(b.tab.id, { amount: 15000 }));
    expect(rest.tab).toMatchObject({ status: 'pre_arrival', paidCents: 20000, dueCents: 0 });
    expect(await tabItem(b.tab.id)).toMatchObject({ status: 'pre_arrival', paidCents: 20000, purchaseCount: 2 });
    expectRefused(await pay(b.tab.id, { amount: 1 }), 422, 'UNPROCESSABLE');

    // Paid: seated, and the deposit stays on the bill of the open tab, already paid.
    const seated = await seat(b.id);
    expect(seated.status, JSON.stringify(seated.body)).toBe(200);
    expect(seated.body.data).toMatchObject({ status: 'seated', tab: { id: b.tab.id, status: 'open' } });
    dataOf(await order(b.tab.id, [{ name: 'Menu', price: 45000, quantity: 1 }]));
    const final = dataOf(await pay(b.tab.id, { amount: 45000, paymentProvider: 'cash' }));
    expect(final.tab).toMatchObject({ status: 'closed', billCents: 65000, paidCents: 65000, dueCents: 0 });
    expect(await claimsOf(b.id)).toEqual([]);
  });
});

describe('reviews submitted at once', () => {
  it('store one review; every answer is the same', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    await seat(b.id);
    await order(b.tab.id, [{ name: 'Coffee', price: 4000, quantity: 1 }]);
    const purchase = dataOf(await pay(b.tab.id, { amount: 4000 }));
    const since = new Date().toISOString();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        review({ purchaseIntentId: purchase.id, rating: 1 + (i % 5), reviewTags: [`tag${i}`] }),
      ),
    );
    expect(answers.map((a) => a.response.status)).toEqual(answers.map(() => 200));
    const bodies = new Set(answers.map((a) => JSON.stringify(a.data?.data)));
    expect(bodies.size).toBe(1);
    const stored = (await stageItems()).filter((i) => i.entity === 'REVIEW' && i.purchaseIntentId === purchase.id);
    expect(stored).toHaveLength(1);
    expect(dataOf(answers[0]!)).toMatchObject({
      rating: stored[0]!.rating,
      reviewTags: stored[0]!.reviewTags,
      createdAt: stored[0]!.createdAt,
    });
    expect(await eventsOf('review.created', purchase.id, since)).toHaveLength(1);
    expect(dataOf(await reviewOf(purchase.id))).toEqual(dataOf(answers[0]!));
  });
});
