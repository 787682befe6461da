/** Listing bookings over HTTP (docs/bookings.md): every filter, paging, refusals, tenancy; bookings by table for a day. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import {
  admin,
  book,
  dayAhead,
  every,
  expectRefused,
  keyWith,
  newPlace,
  theirAdmin,
  theirLocation,
  type Place,
} from './bookings-helpers';
import { seededLocation } from './setup-helpers';
import type { Schemas } from '../support/client';

const list = (query: string, key = admin()) => call('GET', `/api/v1/bookings?${query}`, { key });
const ids = (answer: { body: { data: { id: string }[] } }) => answer.body.data.map((b) => b.id);

describe('GET /api/v1/bookings: filters', () => {
  let place: Place;
  let other: Place;
  let guest: { id: number };
  const made: Record<string, Schemas['CreatedBooking']> = {};

  beforeAll(async () => {
    [place, other] = await Promise.all([newPlace({ confirmationMode: 'request_based' }), newPlace()]);
    const g = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      body: { name: 'Filter Guest', email: `filter.${Date.now()}@example.com` },
    });
    guest = g.body.data;
    const [t1, t2] = place.tables;
    made.a = await book(place, {
      bookingDate: dayAhead(10),
      startTime: '12:00',
      endTime: '13:00',
      tableIds: [t1!.id],
      bookingSource: 'web',
    });
    made.b = await book(place, {
      bookingDate: dayAhead(10),
      startTime: '18:00',
      endTime: '19:00',
      tableIds: [t2!.id, t1!.id],
      primaryUserId: guest.id,
      guestName: undefined,
      bookingSource: 'phone',
    });
    made.c = await book(place, {
      bookingDate: dayAhead(11),
      startTime: '12:00',
      endTime: '13:00',
      tableIds: [t2!.id],
      primaryUserId: guest.id,
      guestName: undefined,
    });
    made.d = await book(place, { bookingDate: dayAhead(12), startTime: '09:00', endTime: '10:00', tableIds: [t2!.id] });
    made.e = await book(other, {
      bookingDate: dayAhead(10),
      startTime: '12:30',
      endTime: '13:30',
      primaryUserId: guest.id,
      guestName: undefined,
      bookingSource: 'web',
    });
    expect((await call('POST', `/api/v1/bookings/${made.c.id}/confirm`, { key: admin() })).status).toBe(200);
  });

  it('lists a location by date and time', async () => {
    expect(ids(await list(`locationId=${place.id}`))).toEqual([made.a!.id, made.b!.id, made.c!.id, made.d!.id]);
  });

  it.each([
    ['bookingDate', () => `locationId=${place.id}&bookingDate=${dayAhead(10)}`, () => ['a', 'b']],
    ['startDate', () => `locationId=${place.id}&startDate=${dayAhead(11)}`, () => ['c', 'd']],
    ['endDate', () => `locationId=${place.id}&endDate=${dayAhead(11)}`, () => ['a', 'b', 'c']],
    [
      'startDate and endDate',
      () => `locationId=${place.id}&startDate=${dayAhead(11)}&endDate=${dayAhead(11)}`,
      () => ['c'],
    ],
    ['status', () => `locationId=${place.id}&status=confirmed`, () => ['c']],
    ['bookingSource', () => `locationId=${place.id}&bookingSource=web`, () => ['a']],
    ['tableId (any of its tables)', () => `tableId=${place.tables[0]!.id}`, () => ['a', 'b']],
    ['tableId and a date', () => `tableId=${place.tables[1]!.id}&bookingDate=${dayAhead(11)}`, () => ['c']],
    ['userId, across locations (by date and time)', () => `userId=${guest.id}`, () => ['e', 'b', 'c']],
    ['userId at a location', () => `userId=${guest.id}&locationId=${other.id}`, () => ['e']],
    ['confirmationCode', () => `confirmationCode=${made.b!.confirmationCode}`, () => ['b']],
    [
      'confirmationCode with a filter it fails',
      () => `confirmationCode=${made.b!.confirmationCode}&status=cancelled`,
      () => [],
    ],
    [
      'bookingSource across the company, by date',
      () => `bookingSource=web&startDate=${dayAhead(10)}&endDate=${dayAhead(10)}`,
      () => ['a', 'e'],
    ],
  ] as [string, () => string, () => string[]][])('filters by %s', async (_, query, expected) => {
    const out = await list(query());
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const wanted = expected().map((k) => made[k]!.id);
    const got = ids(out);
    // Company-wide lists see other tests' bookings too: only ours are compared.
    const ours = new Set(Object.values(made).map((b) => b.id));
    expect(got.filter((id) => ours.has(id))).toEqual(wanted);
  });

  it('pages with page and with the cursor alike, with the total counted so far', async () => {
    const first = await list(`locationId=${place.id}&limit=2`);
    expect(ids(first)).toEqual([made.a!.id, made.b!.id]);
    expect(first.body.meta.pagination).toMatchObject({ page: 1, limit: 2, nextCursor: expect.any(String) });
    const second = await list(`locationId=${place.id}&limit=2&page=2`);
    const byCursor = await list(`locationId=${place.id}&limit=2&cursor=${first.body.meta.pagination.nextCursor}`);
    expect(ids(second)).toEqual([made.c!.id, made.d!.id]);
    expect(ids(byCursor)).toEqual(ids(second));
    expect(second.body.meta.pagination).toMatchObject({ page: 2, total: 4, nextCursor: null });
    // A cursor belongs to its list.
    expectRefused(
      await list(`locationId=${other.id}&cursor=${first.body.meta.pagination.nextCursor}`),
      400,
      'VALIDATION_FAILED',
      '/cursor',
    );
  });

  it('pages the table links the same way', async () => {
    const first = await list(`tableId=${place.tables[0]!.id}&limit=1`);
    expect(ids(first)).toEqual([made.a!.id]);
    const next = await list(`tableId=${place.tables[0]!.id}&limit=1&cursor=${first.body.meta.pagination.nextCursor}`);
    expect(ids(next)).toEqual([made.b!.id]);
  });
});

describe('GET /api/v1/bookings: refusals', () => {
  it.each([
    ['bookingDate with startDate', `bookingDate=${dayAhead(1)}&startDate=${dayAhead(1)}`, '/bookingDate'],
    ['startDate after endDate', `startDate=${dayAhead(2)}&endDate=${dayAhead(1)}`, '/endDate'],
    ['bookingDate not a date', 'bookingDate=tomorrow', '/bookingDate'],
    ['status unknown', 'status=late', '/status'],
    ['tableId not a UUID', 'tableId=T1', '/tableId'],
    ['userId not a number', 'userId=ada', '/userId'],
    ['confirmationCode of the wrong alphabet', 'confirmationCode=ABCDEFG0', '/confirmationCode'],
    ['limit 0', 'limit=0', '/limit'],
    ['limit over 100', 'limit=101', '/limit'],
    ['page 0', 'page=0', '/page'],
  ])('answers 400 for %s', async (_, query, path) => {
    expectRefused(await list(query), 400, 'VALIDATION_FAILED', path);
  });

  it('needs bookings.read (403)', async () => {
    expectRefused(await list('', await keyWith(['bookings.create'])), 403, 'FORBIDDEN');
  });

  it("answers 404 for another company's location and never lists its bookings", async () => {
    expectRefused(await list(`locationId=${theirLocation()}`), 404, 'NOT_FOUND');
    const theirs = await call('POST', '/api/v1/bookings', {
      key: theirAdmin(),
      body: {
        locationId: theirLocation(),
        bookingDate: dayAhead(30),
        startTime: '19:00',
        guestCount: 2,
        guestName: 'Theirs',
      },
    });
    expect(theirs.status).toBe(200);
    expect(ids(await list(`bookingDate=${dayAhead(30)}&limit=100`))).not.toContain(theirs.body.data.id);
    expect(ids(await list(`confirmationCode=${theirs.body.data.confirmationCode}`))).toEqual([]);
  });

  it('keeps a key limited to locations to them (403 elsewhere; its one location by default)', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    const key = await keyWith(['bookings.read'], [place.id]);
    expect(ids(await list('', key))).toEqual([b.id]);
    expectRefused(await list(`locationId=${seededLocation(0).locationId}`, key), 403, 'FORBIDDEN');
    const two = await keyWith(['bookings.read'], [place.id, seededLocation(0).locationId]);
    expectRefused(await list('', two), 403, 'FORBIDDEN');
    expect(ids(await list(`tableId=${place.tables[0]!.id}`, key))).toEqual([b.id]);
  });
});

describe('GET /api/v1/locations/{locationId}/bookings/by-table', () => {
  const byTable = (locationId: number | string, query: string, key = admin()) =>
    call('GET', `/api/v1/locations/${locationId}/bookings/by-table?${query}`, { key });

  it("groups a day's bookings by table, leaving out cancelled ones, with the unassigned apart", async () => {
    // Every table taken at 20:00 by a locked booking: a booking then without tables is taken by the overbooking buffer, unassigned.
    // Booking hours that hold 20:00 every day: a booking without tables is held to them.
    const place = await newPlace({
      overbookingBufferPercentage: 50,
      bufferMinutes: 0,
      operatingHours: every('11:00', '23:00'),
    });
    const [t1, t2, t3] = place.tables;
    const day = dayAhead(15);
    const a = await book(place, { bookingDate: day, startTime: '12:00', endTime: '13:00', tableIds: [t1!.id] });
    const b = await book(place, { bookingDate: day, startTime: '18:00', endTime: '19:00', tableIds: [t2!.id, t1!.id] });
    const full = await book(place, {
      bookingDate: day,
      startTime: '19:30',
      endTime: '21:00',
      tableIds: [t1!.id, t2!.id, t3!.id],
    });
    // Locked, so that re-seating may not move it to free a table (docs/optimizer.md).
    const locked = await call('PATCH', `/api/v1/bookings/${full.id}/lock`, { key: admin(), body: { locked: true } });
    expect(locked.status).toBe(200);
    const c = await book(place, { bookingDate: day, startTime: '20:00', endTime: '21:00', tableIds: [] });
    expect(c.tableIds).toEqual([]);
    const gone = await book(place, { bookingDate: day, startTime: '21:00', endTime: '22:00', tableIds: [t2!.id] });
    expect((await call('POST', `/api/v1/bookings/${gone.id}/cancel`, { key: admin(), body: {} })).status).toBe(200);
    await book(place, { bookingDate: dayAhead(16), startTime: '12:00', endTime: '13:00', tableIds: [t1!.id] });

    const out = await byTable(place.id, `date=${day}`);
    expect(out.status).toBe(200);
    expect(out.body.data.locationId).toBe(place.id);
    expect(out.body.data.date).toBe(day);
    const grouped = Object.fromEntries(
      out.body.data.tables.map((t: { tableId: string; bookings: { id: string }[] }) => [
        t.tableId,
        t.bookings.map((x) => x.id),
      ]),
    );
    expect(grouped).toEqual({ [t1!.id]: [a.id, b.id, full.id], [t2!.id]: [b.id, full.id], [t3!.id]: [full.id] });
    expect(out.body.data.unassigned.map((x: { id: string }) => x.id)).toEqual([c.id]);
  });

  it("answers 400 without a valid date, 404 for another company's location, 403 for a key limited elsewhere or without bookings.read", async () => {
    const place = await newPlace({}, 1);
    expectRefused(await byTable(place.id, ''), 400, 'VALIDATION_FAILED', '/date');
    expectRefused(await byTable(place.id, 'date=2027-13-01'), 400, 'VALIDATION_FAILED', '/date');
    expectRefused(await byTable(theirLocation(), `date=${dayAhead(1)}`), 404, 'NOT_FOUND');
    expectRefused(
      await byTable(place.id, `date=${dayAhead(1)}`, await keyWith(['bookings.read'], [seededLocation(0).locationId])),
      403,
      'FORBIDDEN',
    );
    expectRefused(await byTable(place.id, `date=${dayAhead(1)}`, await keyWith(['bookings.create'])), 403, 'FORBIDDEN');
    expect((await byTable(place.id, `date=${dayAhead(1)}`)).body.data).toEqual({
      locationId: place.id,
      date: dayAhead(1),
      tables: [],
      unassigned: [],
    });
  });
});
