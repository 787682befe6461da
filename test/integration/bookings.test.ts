/** The bookings repositories against DynamoDB Local: one transaction per change, its conditions, and the reads lists use. */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTogether } from '../../shared/data/batch';
import { bookings, CodeTaken, type Booking, type BookingTab } from '../../shared/data/bookings';
import { aroundSteps, bookingsAround, type AroundBooking } from '../../shared/data/bookingsAround';
import { bookingSettings } from '../../shared/data/bookingSettings';
import { writeBooking, type BookingWrite } from '../../shared/data/bookingWrite';
import { db, tableName } from '../../shared/data/client';
import { locations, type Location } from '../../shared/data/locations';
import { dueForNoShow, sweepShard } from '../../shared/data/noShowSweep';
import { TableOccupied } from '../../shared/data/openTabs';
import { orders, type Order } from '../../shared/data/orders';
import { Contention, tableDays } from '../../shared/data/tableDays';
import { diningTables } from '../../shared/data/tables';
import { tabs, type Tab } from '../../shared/data/tabs';
import { transact } from '../../shared/data/transact';
import { placeHolds } from '../../shared/domain/bookings/holdPlacement';
import { holdsTables } from '../../shared/domain/bookings/holds';
import { ruleError, tooManyActiveBookings } from '../../shared/domain/bookings/rules';
import { defaultSettings } from '../../shared/domain/bookings/settings';
import { normalizeHours } from '../../shared/domain/openingHours';
import { newEvent } from '../../shared/events/catalog';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

/** Each test file works in its own company, so files can run in parallel on one table. */
const ids = idBlock(import.meta.url);
const companyId = ids.next();
const LOCATION = 31;

async function events(): Promise<Record<string, unknown>[]> {
  const out = await companyEvents(companyId);
  return out.Items ?? [];
}
const raw = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk } }))).Item;

const code = () =>
  Array.from({ length: 8 }, () => 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'[Math.floor(Math.random() * 31)]).join('');

// Booking dates here are fixed and in the past on purpose: the repository stores and finds them, it never compares them with now.
let seq = 0;
/** A booking of the test location, primary tab before arrival. */
function aBooking(change: Partial<Booking> = {}): Booking {
  const now = new Date().toISOString();
  const n = seq++;
  const tab: BookingTab = { id: randomUUID(), tableId: change.tableIds?.[0] ?? null, status: 'pre_arrival' };
  return {
    id: randomUUID(),
    locationId: LOCATION,
    bookingDate: '2025-05-10',
    startTime: `1${n % 10}:00`,
    endTime: `1${n % 10}:30`,
    timezone: 'Europe/Stockholm',
    startsAt: `2025-05-10T0${n % 10}:00:00.000Z`,
    endsAt: `2025-05-10T0${n % 10}:30:00.000Z`,
    guestCount: 2,
    tableId: change.tableIds?.[0] ?? null,
    tableIds: [],
    defaultTabStrategy: 'single',
    primaryUserId: null,
    guestName: 'Test',
    guestEmail: null,
    guestPhone: null,
    occasion: null,
    specialRequests: null,
    internalNotes: null,
    paymentType: null,
    depositAmountCents: null,
    bookingSource: null,
    status: 'confirmed',
    statusBeforeSeating: null,
    confirmationCode: code(),
    locked: false,
    tab,
    tabs: [tab],
    seatingOrderId: null,
    autoNoShowAt: null,
    cancellationReason: null,
    seatedAt: null,
    completedAt: null,
    cancelledAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
    ...change,
  };
}

const tabOf = (b: Booking, t: BookingTab): Tab => ({
  id: t.id,
  locationId: b.locationId,
  bookingId: b.id,
  tableId: t.tableId,
  status: t.status,
  primaryUserId: b.primaryUserId,
  purchaseCount: 0,
  orderCount: 0,
  openedAt: null,
  closedAt: null,
  createdAt: b.createdAt,
  updatedAt: b.createdAt,
  version: 1,
});

/** A table of the test location: a booking that uses a table needs it to exist (its count of users is kept on it). */
async function aTable(): Promise<string> {
  const now = new Date().toISOString();
  const id = randomUUID();
  await diningTables.create(
    companyId,
    LOCATION,
    [
      {
        id,
        locationId: LOCATION,
        name: `T-${id}`,
        minCapacity: 1,
        maxCapacity: 8,
        combinableWith: [],
        createdAt: now,
        updatedAt: now,
        version: 1,
      },
    ],
    [],
    [],
  );
  return id;
}

/** Writes a new booking with its tabs and its creation event. */
const create = (b: Booking, extra: Partial<BookingWrite> = {}) =>
  writeBooking(companyId, {
    next: b,
    tabs: b.tabs.map((t) => ({ create: tabOf(b, t) })),
    activeBookings: { delta: 1 },
    events: [newEvent(companyId, 'booking.created', b.id, { ...b })],
    ...extra,
  });

beforeAll(async () => {
  const now = new Date().toISOString();
  const l: Location = {
    id: LOCATION,
    name: 'Integration',
    timezone: 'Europe/Stockholm',
    operatingHours: normalizeHours({}),
    address: null,
    phone: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.create(companyId, l, newEvent(companyId, 'location.created', String(LOCATION), { ...l }));
});

describe('bookings repository: creating', () => {
  it('writes the booking, its code, its tabs, its links and its event in one transaction', async () => {
    const table = await aTable();
    const b = aBooking({ tableIds: [table], primaryUserId: 901 });
    const before = (await events()).length;
    await create(b);
    expect(await bookings.get(companyId, b.id)).toEqual(b);
    expect(await bookings.findByCode(b.confirmationCode)).toEqual({ companyId, booking: b });
    expect(await tabs.get(companyId, b.tab.id)).toMatchObject({
      bookingId: b.id,
      status: 'pre_arrival',
      purchaseCount: 0,
      orderCount: 0,
    });
    expect(await raw(`C#${companyId}#TABLE#${table}#BOOKINGS`, `2025-05-10#${b.startTime}#${b.id}`)).toMatchObject({
      bookingId: b.id,
    });
    expect(await raw(`C#${companyId}#USER#901#BOOKINGS`, `2025-05-10#${b.startTime}#${b.id}`)).toMatchObject({
      bookingId: b.id,
    });
    expect(await raw(`C#${companyId}#USER#901#ACTIVE`, `L#${String(LOCATION).padStart(12, '0')}`)).toMatchObject({
      n: 1,
    });
    expect((await events()).length).toBe(before + 1);
  });

  it('refuses a taken confirmation code with CodeTaken, writing nothing', async () => {
    const first = aBooking();
    await create(first);
    const second = aBooking({ confirmationCode: first.confirmationCode });
    const before = (await events()).length;
    await expect(create(second)).rejects.toBeInstanceOf(CodeTaken);
    expect(await bookings.get(companyId, second.id)).toBeUndefined();
    expect(await tabs.get(companyId, second.tab.id)).toBeUndefined();
    expect((await events()).length).toBe(before);
  });

  it('refuses a booking at a location the company does not have (404)', async () => {
    await expect(create(aBooking({ locationId: 999 }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("caps the guest's active bookings with a condition on the count (422), writing nothing", async () => {
    const guest = 902;
    await create(aBooking({ primaryUserId: guest }), {
      activeBookings: { delta: 1, cap: { max: 1, error: () => ruleError(tooManyActiveBookings(1)) } },
    });
    const over = aBooking({ primaryUserId: guest });
    await expect(
      create(over, { activeBookings: { delta: 1, cap: { max: 1, error: () => ruleError(tooManyActiveBookings(1)) } } }),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE', details: [{ path: '/settings/maxActiveBookingsPerGuest' }] });
    expect(await bookings.get(companyId, over.id)).toBeUndefined();
  });
});

describe('bookings repository: table days', () => {
  const day = (tableId: string) => ({ tableId, date: '2025-05-10' });
  const readDays = async (wanted: { tableId: string; date: string }[]) =>
    (await readTogether({ days: tableDays.read(companyId, wanted) })).days;

  it('reads absent days as empty, writes them once (absent → version 1), and refuses a write at a stale version with Contention', async () => {
    const table = await aTable();
    expect(await readDays([day(table)])).toEqual([{ tableId: table, date: '2025-05-10', holds: {}, version: null }]);
    const a = aBooking({ tableIds: [table] });
    await create(a, {
      tableDays: [{ tableId: table, date: '2025-05-10', holds: { [a.id]: [1, 2] }, expectedVersion: null }],
    });
    expect(await readDays([day(table)])).toEqual([
      { tableId: table, date: '2025-05-10', holds: { [a.id]: [1, 2] }, version: 1 },
    ]);

    const b = aBooking({ tableIds: [table] });
    await expect(
      create(b, {
        tableDays: [{ tableId: table, date: '2025-05-10', holds: { [b.id]: [3, 4] }, expectedVersion: null }],
      }),
    ).rejects.toBeInstanceOf(Contention);
    expect(await bookings.get(companyId, b.id)).toBeUndefined();
    expect((await readDays([day(table)]))[0]!.holds).toEqual({ [a.id]: [1, 2] });
  });

  it('lets exactly one of concurrent writes of one table day commit', async () => {
    const table = await aTable();
    const attempts = Array.from({ length: 8 }, () => aBooking({ tableIds: [table] }));
    const results = await Promise.allSettled(
      attempts.map((b) =>
        create(b, {
          tableDays: [{ tableId: table, date: '2025-05-10', holds: { [b.id]: [1, 2] }, expectedVersion: null }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(Contention);
    expect(Object.keys((await readDays([day(table)]))[0]!.holds)).toHaveLength(1);
  });

  it('places a hold from the days read with everything else, reading any day it needs that was not read', async () => {
    const table = await aTable();
    const a = aBooking({ tableIds: [table] });
    await create(a, {
      tableDays: [{ tableId: table, date: '2025-05-10', holds: { [a.id]: [1, 2] }, expectedVersion: null }],
    });
    const slot = { startMs: Date.parse('2025-05-10T10:00:00Z'), endMs: Date.parse('2025-05-10T23:00:00Z') };
    const placement = {
      bookingId: 'b',
      requested: { field: '/tableIds' as const, tableIds: [table] },
      slot,
      zone: 'Europe/Stockholm',
      bufferMinutes: 0,
    };
    const given = await readDays([day(table)]);
    const writes = await placeHolds(companyId, placement, given, []);
    expect(writes.map((w) => [w.date, w.expectedVersion, Object.keys(w.holds).sort()])).toEqual([
      ['2025-05-10', 1, [a.id, 'b'].sort()],
      ['2025-05-11', null, ['b']],
    ]);
  });

  it('drops a hold without reading, moving the version on', async () => {
    const table = await aTable();
    const a = aBooking({ tableIds: [table] });
    await create(a, {
      tableDays: [
        { tableId: table, date: '2025-05-10', holds: { [a.id]: [1, 2], other: [5, 6] }, expectedVersion: null },
      ],
    });
    const cancelled = { ...a, status: 'cancelled' as const, version: 2 };
    await writeBooking(companyId, {
      prev: a,
      next: cancelled,
      releaseHolds: { tableIds: [table], dates: ['2025-05-10'] },
      events: [newEvent(companyId, 'booking.cancelled', a.id, { ...cancelled })],
    });
    expect(await readDays([day(table)])).toEqual([
      { tableId: table, date: '2025-05-10', holds: { other: [5, 6] }, version: 2 },
    ]);
  });
});

describe('bookings repository: changes', () => {
  it('refuses a write at a stale booking version with 409, writing nothing', async () => {
    const a = aBooking();
    await create(a);
    const next = { ...a, guestCount: 4, version: 2 };
    await writeBooking(companyId, {
      prev: a,
      next,
      events: [newEvent(companyId, 'booking.updated', a.id, { ...next }, { guestCount: 4 })],
    });
    const stale = { ...a, guestCount: 6, version: 2 };
    await expect(
      writeBooking(companyId, {
        prev: a,
        next: stale,
        events: [newEvent(companyId, 'booking.updated', a.id, { ...stale })],
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await bookings.get(companyId, a.id))!.guestCount).toBe(4);
  });

  it("keeps the code lookup's copy of the booking current: a by-code read is one GetItem", async () => {
    const a = aBooking();
    await create(a);
    const next = { ...a, guestCount: 5, version: 2 };
    await writeBooking(companyId, { prev: a, next, events: [] });
    expect(await bookings.findByCode(a.confirmationCode)).toEqual({ companyId, booking: next });
  });

  it('moves the link items and the sweep item with the booking', async () => {
    const table = await aTable();
    const a = aBooking({ tableIds: [table], autoNoShowAt: '2025-05-10T10:20:00.000Z' });
    await create(a);
    // The hour's shard of the booking: the same for every due time it will have.
    const shard = (hour: string) => `SWEEP#${hour}#${String(sweepShard(companyId, a.id)).padStart(2, '0')}`;
    expect(await raw(shard('2025-05-10T10'), `2025-05-10T10:20:00.000Z#${companyId}#${a.id}`)).toBeDefined();
    const moved = {
      ...a,
      bookingDate: '2025-05-11',
      startTime: '20:00',
      autoNoShowAt: '2025-05-11T18:20:00.000Z',
      version: 2,
    };
    await writeBooking(companyId, {
      prev: a,
      next: moved,
      events: [newEvent(companyId, 'booking.updated', a.id, { ...moved })],
    });
    expect(await raw(`C#${companyId}#TABLE#${table}#BOOKINGS`, `2025-05-10#${a.startTime}#${a.id}`)).toBeUndefined();
    expect(await raw(`C#${companyId}#TABLE#${table}#BOOKINGS`, `2025-05-11#20:00#${a.id}`)).toBeDefined();
    expect(await raw(shard('2025-05-10T10'), `2025-05-10T10:20:00.000Z#${companyId}#${a.id}`)).toBeUndefined();
    expect(await raw(shard('2025-05-11T18'), `2025-05-11T18:20:00.000Z#${companyId}#${a.id}`)).toBeDefined();
    const due = await dueForNoShow(Date.parse('2025-05-11T17:00:00Z'), Date.parse('2025-05-11T18:30:00Z'));
    expect(due).toContainEqual({ companyId, bookingId: a.id, dueAt: '2025-05-11T18:20:00.000Z' });
    expect(
      (await dueForNoShow(Date.parse('2025-05-11T17:00:00Z'), Date.parse('2025-05-11T18:10:00Z'))).map(
        (d) => d.bookingId,
      ),
    ).not.toContain(a.id);
  });

  it('keeps one open tab per table: a second claim fails with TableOccupied, writing nothing', async () => {
    const table = await aTable();
    const first = aBooking({ tableIds: [table] });
    await create(first, { openTabs: [{ op: 'claim', tableId: table, tabId: first.tab.id, bookingId: first.id }] });
    const second = aBooking({ tableIds: [table] });
    await expect(
      create(second, { openTabs: [{ op: 'claim', tableId: table, tabId: second.tab.id, bookingId: second.id }] }),
    ).rejects.toBeInstanceOf(TableOccupied);
    expect(await bookings.get(companyId, second.id)).toBeUndefined();
    // Only the booking holding the claim may release it.
    await create(second);
    const next = { ...second, version: 2 };
    await expect(
      writeBooking(companyId, {
        prev: second,
        next,
        openTabs: [{ op: 'release', tableId: table, bookingId: second.id }],
        events: [],
      }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('not held by this booking'),
    });
    expect((await bookings.get(companyId, second.id))!.version).toBe(1);
  });

  it('refuses to return a tab to pre-arrival once something was ordered on it', async () => {
    const a = aBooking({ tab: { id: randomUUID(), tableId: null, status: 'open' } });
    a.tabs = [a.tab];
    await create(a);
    const order: Order = {
      id: randomUUID(),
      tabId: a.tab.id,
      bookingId: a.id,
      locationId: LOCATION,
      kind: 'order',
      items: [],
      dispatches: [],
      extendedWaitingTime: null,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      version: 1,
    };
    await orders.place(companyId, order, [], newEvent(companyId, 'order.created', order.id, { ...order }));
    expect((await tabs.get(companyId, a.tab.id))!.orderCount).toBe(1);
    const next = { ...a, version: 2 };
    const back = {
      id: a.tab.id,
      expectedStatus: 'open' as const,
      set: { status: 'pre_arrival' as const },
      untouched: true,
    };
    await expect(writeBooking(companyId, { prev: a, next, tabs: [back], events: [] })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await tabs.get(companyId, a.tab.id))!.status).toBe('open');
    expect((await orders.listByTab(companyId, a.tab.id, { page: 1, limit: 10 })).items).toEqual([order]);
  });

  it('places orders only on open tabs', async () => {
    const a = aBooking();
    await create(a);
    const order: Order = {
      id: randomUUID(),
      tabId: a.tab.id,
      bookingId: a.id,
      locationId: LOCATION,
      kind: 'order',
      items: [],
      dispatches: [],
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      version: 1,
    };
    await expect(
      orders.place(companyId, order, [], newEvent(companyId, 'order.created', order.id, { ...order })),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await orders.get(companyId, order.id)).toBeUndefined();
  });
});

describe('bookings repository: lists', () => {
  it('pages a location by date and time, filtering on the page, with links for tables and guests', async () => {
    const table = await aTable();
    const made = [
      aBooking({ bookingDate: '2025-06-01', startTime: '12:00', tableIds: [table], primaryUserId: 950 }),
      aBooking({ bookingDate: '2025-06-01', startTime: '18:00', status: 'cancelled' }),
      aBooking({ bookingDate: '2025-06-02', startTime: '11:00', tableIds: [table] }),
    ];
    for (const b of made) await create(b);
    const query = { page: 1, limit: 10, from: '2025-06-01', to: '2025-06-02', keep: () => true };
    const byLocation = await bookings.list(companyId, { ...query, source: { by: 'location', locationId: LOCATION } });
    expect(byLocation.items.map((b) => b.id)).toEqual(made.map((b) => b.id));
    const confirmed = await bookings.list(companyId, {
      ...query,
      source: { by: 'company' },
      keep: (b) => b.status === 'confirmed',
    });
    expect(confirmed.items.map((b) => b.id)).toEqual([made[0]!.id, made[2]!.id]);
    const byTable = await bookings.list(companyId, { ...query, source: { by: 'table', tableId: table }, limit: 1 });
    expect(byTable.items.map((b) => b.id)).toEqual([made[0]!.id]);
    expect(byTable.pagination).toMatchObject({ total: 2, nextCursor: expect.any(String) });
    const second = await bookings.list(companyId, {
      ...query,
      source: { by: 'table', tableId: table },
      limit: 1,
      cursor: byTable.pagination.nextCursor!,
    });
    expect(second.items.map((b) => b.id)).toEqual([made[2]!.id]);
    expect((await bookings.list(companyId, { ...query, source: { by: 'guest', userId: 950 } })).items).toEqual([
      made[0],
    ]);
    expect((await bookings.onDate(companyId, LOCATION, '2025-06-01')).map((b) => b.id)).toEqual([
      made[0]!.id,
      made[1]!.id,
    ]);
  });
});

describe("bookings around a date (availability's buckets)", () => {
  /** What availability sees of a booking, in a stable order. */
  const seen = (list: readonly AroundBooking[]) =>
    list
      .map(({ id, tableIds, startsAt, endsAt, guestCount, status, bookingDate, locked }) => ({
        id,
        tableIds,
        startsAt,
        endsAt,
        guestCount,
        status,
        bookingDate,
        locked,
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
  const DATE = '2025-07-20';
  const around = () => bookingsAround.between(companyId, LOCATION, '2025-07-19', '2025-07-21');
  const fromItems = async () =>
    (await bookings.between(companyId, LOCATION, '2025-07-19', '2025-07-21')).filter(holdsTables);
  const change = async (prev: Booking, patch: Partial<Booking>) => {
    const next = { ...prev, ...patch, version: prev.version + 1, updatedAt: new Date().toISOString() };
    await writeBooking(companyId, {
      prev,
      next,
      events: [newEvent(companyId, 'booking.updated', next.id, { ...next })],
    });
    return next;
  };

  it("follow every write of the location's bookings, and nothing else, in the location's marked buckets", async () => {
    expect((await readTogether({ whole: bookingsAround.markerRead(companyId, LOCATION) })).whole).toBe(true); // written with the location
    const [t1, t2] = [await aTable(), await aTable()];
    const at = (hour: number, minutes = 90) => ({
      bookingDate: DATE,
      startTime: `${String(hour).padStart(2, '0')}:15`,
      startsAt: `${DATE}T${String(hour - 2).padStart(2, '0')}:15:00.000Z`,
      endsAt: new Date(
        Date.parse(`${DATE}T${String(hour - 2).padStart(2, '0')}:15:00.000Z`) + minutes * 60_000,
      ).toISOString(),
    });
    let a = aBooking({ ...at(18), tableIds: [t1, t2], guestCount: 6 });
    let b = aBooking({ ...at(18), tableIds: [], status: 'pending' });
    const c = aBooking({ ...at(23, 180), tableIds: [t2], locked: true });
    const d = aBooking({ ...at(12), status: 'cancelled' });
    for (const x of [a, b, c, d]) await create(x);
    expect(seen(await around())).toEqual(seen(await fromItems()));
    expect((await around()).map((x) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());

    // A change availability does not read writes no bucket.
    const before = await raw(`C#${companyId}#L#${String(LOCATION).padStart(12, '0')}#AROUND`, `${DATE}#18`);
    a = await change(a, { specialRequests: 'A window seat' });
    expect(await raw(`C#${companyId}#L#${String(LOCATION).padStart(12, '0')}#AROUND`, `${DATE}#18`)).toEqual(before);

    // Moved to another hour, seated, cancelled: each follows.
    a = await change(a, { ...at(20), guestCount: 5 });
    b = await change(b, { status: 'seated' });
    await change(c, { status: 'cancelled' });
    expect(seen(await around())).toEqual(seen(await fromItems()));
    expect((await around()).map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect((await around()).find((x) => x.id === a.id)).toMatchObject({
      guestCount: 5,
      tableIds: [t1, t2],
      locked: false,
    });
  });
});

describe('bookings around a date: the backfill of a location older than its buckets', () => {
  it('puts every booking holding tables in its bucket, removes what is stale, and marks the buckets whole', async () => {
    const pk = `C#${companyId}#L#${String(LOCATION).padStart(12, '0')}#AROUND`;
    const marker = { pk: `C#${companyId}`, sk: `AROUND#L#${String(LOCATION).padStart(12, '0')}` };
    // As if the location were older than the buckets: none of them, no marker; and one stale entry.
    const buckets = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      }),
    );
    for (const item of [...(buckets.Items ?? []), marker])
      await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
    const ghost = aBooking({ bookingDate: '2025-07-20', startTime: '05:00' });
    await transact(aroundSteps(companyId, [{ next: ghost }]));
    await create(aBooking({ bookingDate: '2025-08-01', startTime: '12:00' }));
    expect((await readTogether({ whole: bookingsAround.markerRead(companyId, LOCATION) })).whole).toBe(false);

    expect(await bookingsAround.backfill(companyId, LOCATION, '2025-01-01')).toBe(2); // a round to write, one to find it right
    expect((await readTogether({ whole: bookingsAround.markerRead(companyId, LOCATION) })).whole).toBe(true);
    const all = (await bookings.between(companyId, LOCATION, '2025-01-01', '9999-12-31', Infinity)).filter(holdsTables);
    const entries = await bookingsAround.between(companyId, LOCATION, '2025-01-01', '9999-12-31');
    expect(entries.map((e) => e.id).sort()).toEqual(all.map((b) => b.id).sort());
    expect(entries.map((e) => e.id)).not.toContain(ghost.id);
    expect(await bookingsAround.backfill(companyId, LOCATION, '2025-01-01')).toBe(1); // already right
  });
});

describe('booking settings repository', () => {
  it('stores the defaults once, whoever reads first, and refuses a write at a stale version', async () => {
    const defaults = defaultSettings(LOCATION, new Date().toISOString());
    const stored = await Promise.all([
      bookingSettings.storeDefaults(companyId, defaults),
      bookingSettings.storeDefaults(companyId, { ...defaults, createdAt: 'later' }),
    ]);
    expect(stored[0]).toEqual(stored[1]);
    const current = (await bookingSettings.get(companyId, LOCATION))!;
    const next = { ...current, bufferMinutes: 45, version: current.version + 1 };
    await bookingSettings.put(
      companyId,
      next,
      current.version,
      newEvent(companyId, 'booking-settings.updated', String(LOCATION), { ...next }),
    );
    await expect(
      bookingSettings.put(
        companyId,
        { ...next, bufferMinutes: 50 },
        current.version,
        newEvent(companyId, 'booking-settings.updated', String(LOCATION), {}),
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await bookingSettings.get(companyId, LOCATION))!.bufferMinutes).toBe(45);
    await expect(bookingSettings.storeDefaults(companyId, defaultSettings(998, 'x'))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
