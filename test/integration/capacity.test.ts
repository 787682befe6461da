/**
 * Capacity against DynamoDB Local, with the clock in the test's hands (`nowMs`): the slot counter
 * holds under concurrent orders (exactly as many win as there are places), a pre-order's count
 * follows its replacements, and an extended waiting time that has ended reads as none.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { db, tableName } from '../../shared/data/client';
import { createBooking } from '../../shared/domain/bookings/create';
import { getPreOrder, listOrders, placeOrder, setPreOrder } from '../../shared/domain/bookings/orders';
import { seatBooking } from '../../shared/domain/bookings/seating';
import { createCapacitySetting, updateCapacitySetting } from '../../shared/domain/capacity/settings';
import {
  deleteExtendedWaitingTime,
  getExtendedWaitingTime,
  putExtendedWaitingTime,
} from '../../shared/domain/capacity/waitingTime';
import { createLocation } from '../../shared/domain/locations';
import { idBlock } from '../support/id-blocks';
import { weekdays } from '../../shared/schemas/locations';
import { companyEvents } from '../support/events';

/** Open all day every day: a booking without tables must lie within the booking hours (docs/bookings.md). */
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

const ids = idBlock(import.meta.url);
const companyId = ids.next();
const principal: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
};
const zone = 'Europe/Stockholm';

const raw = async (sk: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk }, ConsistentRead: true })))
    .Item;
async function events(type: string): Promise<Record<string, unknown>[]> {
  const out = await companyEvents(companyId);
  return (out.Items ?? []).map((i) => i.payload).filter((p) => p.event === type);
}

/** A location of its own (a 15-minute slot grid: the booking settings' default). */
const newLocation = async (name: string) =>
  (await createLocation(principal, { name, timezone: zone, operatingHours: ALL_DAY }, ids.next())).id;

/** A booking without tables at the location, tomorrow at `time`. */
const tomorrow = DateTime.now().setZone(zone).plus({ days: 1 }).toISODate()!;
const book = (locationId: number, time = '19:00') =>
  createBooking(principal, {
    locationId,
    bookingDate: tomorrow,
    startTime: time,
    guestCount: 2,
    guestName: 'Capacity test',
  });

/** A seated booking's open tab. */
async function openTab(locationId: number): Promise<string> {
  const seated = await seatBooking(principal, (await book(locationId)).id, {});
  return seated.tab.id;
}

const line = (quantity: number) => ({ name: 'Soup', price: 900, quantity });
const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: { code?: string; message?: string }) => ({ ok: false as const, error }),
  );

describe('the slot counter under concurrent orders', () => {
  let locationId: number;
  let settingId: string;
  /** A fixed instant: every order of these tests falls in the slot it starts. */
  const nowMs = DateTime.fromISO(`${tomorrow}T12:05`, { zone }).toMillis();
  const slotStartsAt = DateTime.fromISO(`${tomorrow}T12:00`, { zone }).toUTC().toISO();
  const counter = () => raw(`CAPCOUNT#${String(locationId).padStart(12, '0')}#${settingId}#${slotStartsAt}`);

  beforeAll(async () => {
    locationId = await newLocation('Race bistro');
    settingId = (
      await createCapacitySetting(principal, locationId, {
        name: 'Lunch rush',
        validOnDays: [1, 2, 3, 4, 5, 6, 7],
        orderCapacity: 3,
        itemCapacity: 100,
      })
    ).id;
  });

  it('lets exactly one of ten orders racing for the last place in', async () => {
    const tabs = await Promise.all(Array.from({ length: 12 }, () => openTab(locationId)));
    for (const tabId of tabs.slice(0, 2)) await placeOrder(principal, tabId, { items: [line(1)] }, nowMs);
    expect(await counter()).toMatchObject({ orders: 2, items: 2 });

    const racers = tabs.slice(2);
    const results = await Promise.all(
      racers.map((tabId) => settle(placeOrder(principal, tabId, { items: [line(2)] }, nowMs))),
    );
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.error.code).toBe('CONFLICT');
    // The end state: three orders counted, and only the winner's tab has an order.
    expect(await counter()).toMatchObject({ orders: 3, items: 4 });
    const placed = await Promise.all(
      racers.map(async (tabId) => (await listOrders(principal, tabId, { page: 1, limit: 10 })).items.length),
    );
    expect(placed.reduce((a, b) => a + b, 0)).toBe(1);
    // A full slot answers 409 naming the slot and the setting, and the limit reached.
    const refused = results.find((r) => !r.ok && r.error.message?.includes('Lunch rush'));
    expect(refused && !refused.ok && refused.error.message).toMatch(
      new RegExp(
        `Time slot ${tomorrow} 12:00:00-12:15:00 .*"Lunch rush" \\(${settingId}\\): orderCapacity 3, 3 of 3 orders are taken`,
      ),
    );
  });

  it('counts items as the sum of quantities, and lets exactly one of two orders take the last items', async () => {
    const other = await newLocation('Item race bistro');
    const s = await createCapacitySetting(principal, other, {
      name: 'Items',
      validOnDays: [1, 2, 3, 4, 5, 6, 7],
      itemCapacity: 10,
    });
    const tabs = await Promise.all(Array.from({ length: 3 }, () => openTab(other)));
    await placeOrder(principal, tabs[0]!, { items: [line(3), line(3)] }, nowMs); // 6 of 10
    const results = await Promise.all(
      tabs.slice(1).map((tabId) => settle(placeOrder(principal, tabId, { items: [line(4)] }, nowMs))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await raw(`CAPCOUNT#${String(other).padStart(12, '0')}#${s.id}#${slotStartsAt}`)).toMatchObject({
      orders: 2,
      items: 10,
    });
  });

  it('counts in the slot the order is placed in: the next slot has its own places', async () => {
    const tabId = await openTab(locationId);
    const next = await placeOrder(principal, tabId, { items: [line(1)] }, nowMs + 15 * 60_000);
    expect(next.createdAt).toBe(new Date(nowMs + 15 * 60_000).toISOString());
    expect(await counter()).toMatchObject({ orders: 3 });
  });
});

describe("a pre-order's count follows its replacements", () => {
  it('moves the difference, refuses growth past itemCapacity (changing nothing), and gives all back when no setting governs', async () => {
    const locationId = await newLocation('Pre-order bistro');
    const setting = await createCapacitySetting(principal, locationId, {
      name: 'Dinner',
      validOnDays: [1, 2, 3, 4, 5, 6, 7],
      timeStart: '18:00:00',
      timeEnd: '22:00:00',
      itemCapacity: 5,
    });
    const booking = await book(locationId, '19:05');
    const slotStartsAt = DateTime.fromISO(`${tomorrow}T19:00`, { zone }).toUTC().toISO();
    const counter = () => raw(`CAPCOUNT#${String(locationId).padStart(12, '0')}#${setting.id}#${slotStartsAt}`);

    await setPreOrder(principal, booking.id, { items: [line(3)] });
    expect(await counter()).toMatchObject({ orders: 1, items: 3 });
    await setPreOrder(principal, booking.id, { items: [line(2), line(3)] });
    expect(await counter()).toMatchObject({ orders: 1, items: 5 });

    await expect(setPreOrder(principal, booking.id, { items: [line(6)] })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('itemCapacity 5'),
    });
    expect(await counter()).toMatchObject({ orders: 1, items: 5 });
    expect((await getPreOrder(principal, booking.id)).items.map((i) => i.quantity)).toEqual([2, 3]);

    await setPreOrder(principal, booking.id, { items: [line(1)] });
    expect(await counter()).toMatchObject({ orders: 1, items: 1 });

    // Another booking's pre-order shares the slot: 1 + 4 fits, 1 + 5 does not.
    const second = await book(locationId, '19:10');
    await expect(setPreOrder(principal, second.id, { items: [line(5)] })).rejects.toMatchObject({ code: 'CONFLICT' });
    await setPreOrder(principal, second.id, { items: [line(4)] });
    expect(await counter()).toMatchObject({ orders: 2, items: 5 });

    // Once the setting no longer governs the slot, a replacement gives its count back.
    await updateCapacitySetting(principal, locationId, setting.id, { enabled: false });
    await setPreOrder(principal, booking.id, { items: [line(9)] });
    expect(await counter()).toMatchObject({ orders: 1, items: 4 });
    expect(await raw(`PREORDER#${booking.id}`)).not.toHaveProperty('capacityClaim');
  });

  it('refuses a replacement written from a stale read instead of counting it twice', async () => {
    const locationId = await newLocation('Stale pre-order bistro');
    await createCapacitySetting(principal, locationId, { name: 'All day', validOnDays: [1, 2, 3, 4, 5, 6, 7] });
    const booking = await book(locationId);
    const results = await Promise.all(
      [1, 2, 3].map((n) => settle(setPreOrder(principal, booking.id, { items: [line(n)] }))),
    );
    const won = results.filter((r) => r.ok);
    expect(won.length).toBeGreaterThanOrEqual(1);
    const stored = await raw(`PREORDER#${booking.id}`);
    const claim = stored!.capacityClaim as { settingId: string; slotStartsAt: string; items: number };
    const count = await raw(
      `CAPCOUNT#${String(locationId).padStart(12, '0')}#${claim.settingId}#${claim.slotStartsAt}`,
    );
    // Whoever won last, the counter holds exactly the stored pre-order.
    expect(count).toMatchObject({ orders: 1, items: (stored!.items as { quantity: number }[])[0]!.quantity });
  });
});

describe('an extended waiting time, with the clock set by the test', () => {
  const t0 = DateTime.fromISO(`${tomorrow}T12:00`, { zone }).toMillis();
  const minutes = (n: number) => t0 + n * 60_000;

  it('runs until endsAt and then reads as none; orders placed while it runs carry it', async () => {
    const locationId = await newLocation('Waiting bistro');
    const endsAt = new Date(minutes(60)).toISOString();
    const started = await putExtendedWaitingTime(principal, { locationId, endsAt, delayInMinutes: 20 }, t0);
    expect(started).toMatchObject({ locationId, endsAt, delayInMinutes: 20, version: 1 });

    expect(await getExtendedWaitingTime(principal, { locationId }, undefined, minutes(30))).toEqual(started);
    expect(await getExtendedWaitingTime(principal, { locationId }, undefined, minutes(60) - 1)).toEqual(started);
    expect(await getExtendedWaitingTime(principal, { locationId }, undefined, minutes(60))).toBeNull();
    expect(await getExtendedWaitingTime(principal, {}, String(locationId), minutes(90))).toBeNull();

    const tabId = await openTab(locationId);
    expect((await placeOrder(principal, tabId, { items: [line(1)] }, minutes(10))).extendedWaitingTime).toEqual({
      delayInMinutes: 20,
      endsAt,
    });
    expect((await placeOrder(principal, tabId, { items: [line(1)] }, minutes(61))).extendedWaitingTime).toBeNull();
    const listed = await listOrders(principal, tabId, { page: 1, limit: 10 });
    expect(listed.items.map((o) => o.extendedWaitingTime)).toEqual([{ delayInMinutes: 20, endsAt }, null]);
  });

  it('updates a running one (keeping its delay unless sent), ends it on delete, and starts afresh once one has ended', async () => {
    const locationId = await newLocation('Busy bistro');
    const created = await putExtendedWaitingTime(
      principal,
      { locationId, endsAt: new Date(minutes(60)).toISOString(), delayInMinutes: 15 },
      t0,
    );
    const extended = await putExtendedWaitingTime(
      principal,
      { locationId, endsAt: new Date(minutes(90)).toISOString() },
      minutes(5),
    );
    expect(extended).toMatchObject({
      delayInMinutes: 15,
      endsAt: new Date(minutes(90)).toISOString(),
      version: 2,
      createdAt: created.createdAt,
    });
    expect(
      await putExtendedWaitingTime(
        principal,
        { locationId, endsAt: new Date(minutes(90)).toISOString(), delayInMinutes: 15 },
        minutes(6),
      ),
    ).toEqual(extended);
    const cleared = await putExtendedWaitingTime(
      principal,
      { locationId, endsAt: new Date(minutes(90)).toISOString(), delayInMinutes: null },
      minutes(7),
    );
    expect(cleared).toMatchObject({ delayInMinutes: null, version: 3 });

    const updates = (await events('extended-waiting-time.updated')).filter((e) => e.resourceId === String(locationId));
    expect(updates.map((e) => e.changes)).toEqual([
      { endsAt: new Date(minutes(90)).toISOString() },
      { delayInMinutes: null },
    ]);

    // Deleting after it ended changes nothing; a new one after that is a new start.
    expect(await deleteExtendedWaitingTime(principal, { locationId }, minutes(90))).toBeNull();
    expect((await events('extended-waiting-time.deleted')).filter((e) => e.resourceId === String(locationId))).toEqual(
      [],
    );
    const again = await putExtendedWaitingTime(
      principal,
      { locationId, endsAt: new Date(minutes(150)).toISOString() },
      minutes(100),
    );
    expect(again).toMatchObject({ delayInMinutes: null, version: 4, createdAt: new Date(minutes(100)).toISOString() });
    expect(
      (await events('extended-waiting-time.created')).filter((e) => e.resourceId === String(locationId)),
    ).toHaveLength(2);

    expect(await deleteExtendedWaitingTime(principal, { locationId }, minutes(110))).toEqual(again);
    expect(await getExtendedWaitingTime(principal, { locationId }, undefined, minutes(111))).toBeNull();
    expect(
      (await events('extended-waiting-time.deleted'))
        .filter((e) => e.resourceId === String(locationId))
        .map((e) => e.data),
    ).toEqual([again]);
  });

  it('refuses an end that has passed or lies over 7 days ahead (422), writing nothing', async () => {
    const locationId = await newLocation('Patient bistro');
    await expect(
      putExtendedWaitingTime(principal, { locationId, endsAt: new Date(t0).toISOString() }, t0),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE', details: [{ path: '/endsAt' }] });
    await expect(
      putExtendedWaitingTime(principal, { locationId, endsAt: new Date(t0 + 7 * 86_400_000 + 1000).toISOString() }, t0),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    expect(
      await putExtendedWaitingTime(principal, { locationId, endsAt: new Date(t0 + 7 * 86_400_000).toISOString() }, t0),
    ).toMatchObject({ version: 1 });
  });
});
