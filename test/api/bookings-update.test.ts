/** Updating bookings over HTTP (docs/bookings.md): moves re-check holds and rules, tables replace the set, tabs follow. */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { seededLocation } from './setup-helpers';
import {
  act,
  admin,
  book,
  dayAhead,
  eventsOf,
  expectRefused,
  getBooking,
  keyWith,
  newPlace,
  nextSkippedHour,
  theirAdmin,
  theirLocation,
  unknownUuid,
  type Place,
  every,
  walkInToday,
} from './bookings-helpers';
import type { Schemas } from '../support/client';

const patch = (id: string, body: unknown, key = admin()) => call('PATCH', `/api/v1/bookings/${id}`, { key, body });
const lock = (id: string) => call('PATCH', `/api/v1/bookings/${id}/lock`, { key: admin(), body: { locked: true } });
const today = walkInToday;

describe('PATCH /api/v1/bookings/{id}: fields', () => {
  it('changes the fields sent and records booking.updated with only those changes', async () => {
    const place = await newPlace();
    const b = await book(place);
    const since = new Date().toISOString();
    const out = await patch(b.id, {
      internalNotes: 'Allergic to nuts',
      guestCount: 3,
      occasion: null,
      paymentType: 'invoice',
      depositAmountCents: 2500,
      specialRequests: 'Quiet',
    });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({
      ...b,
      internalNotes: 'Allergic to nuts',
      guestCount: 3,
      paymentType: 'invoice',
      depositAmountCents: 2500,
      specialRequests: 'Quiet',
      version: 2,
      updatedAt: expect.any(String),
    });
    expect(await getBooking(b.id)).toEqual(out.body.data);
    const [event] = await eventsOf('booking.updated', b.id, since);
    expect(event!.changes).toEqual({
      internalNotes: 'Allergic to nuts',
      guestCount: 3,
      paymentType: 'invoice',
      depositAmountCents: 2500,
      specialRequests: 'Quiet',
    });
    expect(event!.data).toEqual(out.body.data);
  });

  it('answers a change that changes nothing with the booking as it is (no write)', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    const same = await patch(b.id, { guestCount: b.guestCount, startTime: b.startTime });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(b);
  });

  it('moves the booking: a new start keeps its length, the old slot frees, the new one is checked (409 when taken)', async () => {
    const place = await newPlace({ bufferMinutes: 0 });
    const a = await book(place, { startTime: '18:00', endTime: '20:00' });
    const b = await book(place, { startTime: '20:00', endTime: '22:00' });
    const since = new Date().toISOString();
    const moved = await patch(a.id, { startTime: '16:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ startTime: '16:00', endTime: '18:00', version: 2 });
    const [event] = await eventsOf('booking.updated', a.id, since);
    expect(Object.keys(event!.changes!).sort()).toEqual(['endTime', 'endsAt', 'startTime', 'startsAt']);
    // 18:00-20:00 is free again; 19:00 over b's start is not while the booking there is locked (else it would be re-seated).
    const blocker = await book(place, { startTime: '18:00', endTime: '20:00' });
    expect((await lock(blocker.id)).status).toBe(200);
    const clash = await patch(b.id, { startTime: '19:00', endTime: '21:00' });
    expectRefused(clash, 409, 'CONFLICT');
    expect(await getBooking(b.id)).toEqual(b);
  });

  it('moves the booking to another day, where lists by date find it', async () => {
    const place = await newPlace();
    const b = await book(place);
    await patch(b.id, { bookingDate: dayAhead(12), endTime: '22:00' });
    const listed = async (date: string) =>
      (
        await call('GET', `/api/v1/bookings?locationId=${place.id}&bookingDate=${date}`, { key: admin() })
      ).body.data.map((x: { id: string }) => x.id);
    expect(await listed(dayAhead(12))).toEqual([b.id]);
    expect(await listed(dayAhead(10))).toEqual([]);
    expect((await getBooking(b.id)).endTime).toBe('22:00');
  });

  it('re-checks the settings on a move or a new party size (422 naming the rule)', async () => {
    const place = await newPlace({ maxAdvanceDays: 30, maxPartySize: 6 });
    const b = await book(place);
    expectRefused(await patch(b.id, { bookingDate: dayAhead(40) }), 422, 'UNPROCESSABLE', '/settings/maxAdvanceDays');
    expectRefused(await patch(b.id, { guestCount: 7 }), 422, 'UNPROCESSABLE', '/settings/maxPartySize');
    expect(await getBooking(b.id)).toEqual(b);
  });

  it('re-checks the zone on a move: 422 for the hour the clocks skip on the next spring-forward day, a day it could move to otherwise', async () => {
    const { zone, date } = nextSkippedHour();
    const place = await newPlace({}, 1, zone);
    const b = await book(place);
    expectRefused(await patch(b.id, { bookingDate: date, startTime: '02:30' }), 422, 'UNPROCESSABLE', '/startTime');
    expect(await getBooking(b.id)).toEqual(b);
    const moved = await patch(b.id, { bookingDate: date, startTime: '03:30' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ bookingDate: date, startTime: '03:30', endTime: '05:30' });
  });

  it('keeps a locked booking editable by hand', async () => {
    const place = await newPlace();
    const b = await book(place);
    expect(
      (await call('PATCH', `/api/v1/bookings/${b.id}/lock`, { key: admin(), body: { locked: true } })).status,
    ).toBe(200);
    const out = await patch(b.id, { startTime: '18:00', tableIds: [place.tables[1]!.id] });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ locked: true, startTime: '18:00', tableIds: [place.tables[1]!.id] });
  });

  it('keeps a finished booking where it was (409) but lets its notes change', async () => {
    const place = await newPlace();
    const b = await book(place);
    expect((await act(b.id, 'cancel', {})).status).toBe(200);
    expectRefused(await patch(b.id, { startTime: '12:00' }), 409, 'CONFLICT');
    expectRefused(await patch(b.id, { tableIds: [] }), 409, 'CONFLICT');
    expect((await patch(b.id, { internalNotes: 'Called to cancel' })).body.data).toMatchObject({
      status: 'cancelled',
      internalNotes: 'Called to cancel',
    });
  });
});

describe('PATCH /api/v1/bookings/{id}: stays that cannot be (docs/bookings.md, "Time")', () => {
  it('refuses an end before the start where the booking hours end before midnight, and a stay over 8 hours: 400 on /endTime, nothing changes', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') });
    const b = await book(place);
    expectRefused(await patch(b.id, { startTime: '20:00', endTime: '19:00' }), 400, 'VALIDATION_FAILED', '/endTime');
    expectRefused(await patch(b.id, { endTime: '18:00' }), 400, 'VALIDATION_FAILED', '/endTime');
    const long = await patch(b.id, { startTime: '10:00', endTime: '18:30' });
    expectRefused(long, 400, 'VALIDATION_FAILED', '/endTime');
    expect(long.body.error.details[0].message).toContain('at most 480 minutes');
    expect(await getBooking(b.id)).toEqual(b);
  });

  it('moves the end past midnight where the booking hours go on until 02:00', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '02:00') });
    const b = await book(place, { startTime: '22:00', endTime: '23:00' });
    const moved = await patch(b.id, { endTime: '01:00' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(Date.parse(moved.body.data.endsAt) - Date.parse(moved.body.data.startsAt)).toBe(3 * 3_600_000);
  });
});

describe('PATCH /api/v1/bookings/{id}: tables and tabs', () => {
  const tabsOf = (b: Schemas['Booking']) => b.tabs.map((t) => [t.tableId, t.status]);

  it('replaces the set with tableIds (first = primary); the single tab follows the primary table; a legacy tableId is a one-element set', async () => {
    const place = await newPlace();
    const [t1, t2, t3] = place.tables.map((t) => t.id);
    const b = await book(place, { tableIds: [t1] });
    const out = await patch(b.id, { tableIds: [t2, t3] });
    expect(out.body.data).toMatchObject({
      tableId: t2,
      tableIds: [t2, t3],
      tab: { id: b.tab.id, tableId: t2, status: 'pre_arrival' },
    });
    expect(out.body.data.tabs).toHaveLength(1);
    const legacy = await patch(b.id, { tableId: t1 });
    expect(legacy.body.data).toMatchObject({ tableId: t1, tableIds: [t1] });
    // t2 and t3 are free again at that time.
    await book(place, { tableIds: [t2, t3] });
  });

  it("checks new tables: another location's is 404 naming its place; a taken one is 409", async () => {
    const place = await newPlace();
    const other = await newPlace({}, 1);
    const b = await book(place);
    expectRefused(
      await patch(b.id, { tableIds: [place.tables[0]!.id, other.tables[0]!.id] }),
      404,
      'NOT_FOUND',
      '/tableIds/1',
    );
    expectRefused(await patch(b.id, { tableId: unknownUuid }), 404, 'NOT_FOUND', '/tableId');
    // Taken by a locked booking (one that may move is re-seated instead: bookings-assign.test.ts).
    const holder = await book(place, { tableIds: [place.tables[1]!.id] });
    expect((await lock(holder.id)).status).toBe(200);
    expectRefused(
      await patch(b.id, { tableIds: [place.tables[0]!.id, place.tables[1]!.id] }),
      409,
      'CONFLICT',
      '/tableIds/1',
    );
    expect(await getBooking(b.id)).toEqual(b);
  });

  it('gives each table its tab with per_resource: new tables get one, removed ones close theirs', async () => {
    const place = await newPlace();
    const [t1, t2, t3] = place.tables.map((t) => t.id);
    const b = await book(place, { tableIds: [t1, t2], defaultTabStrategy: 'per_resource' });
    const out = await patch(b.id, { tableIds: [t1, t3] });
    expect(tabsOf(out.body.data)).toEqual([
      [t1, 'pre_arrival'],
      [t3, 'pre_arrival'],
    ]);
    expect(out.body.data.tabs[0].id).toBe(b.tabs[0]!.id);
    expect(out.body.data.tabs[1].id).not.toBe(b.tabs[1]!.id);
  });

  it('changes defaultTabStrategy until seated (tabs follow), and refuses with 409 once seated', async () => {
    const place = await newPlace();
    const [t1, t2] = place.tables.map((t) => t.id);
    const b = await book(place, { tableIds: [t1, t2] });
    const split = await patch(b.id, { defaultTabStrategy: 'per_resource' });
    expect(tabsOf(split.body.data)).toEqual([
      [t1, 'pre_arrival'],
      [t2, 'pre_arrival'],
    ]);
    const back = await patch(b.id, { defaultTabStrategy: 'single' });
    expect(tabsOf(back.body.data)).toEqual([[t1, 'pre_arrival']]);
    const seated = await book(place, { ...today(), tableIds: [place.tables[2]!.id], seatImmediately: true });
    expectRefused(await patch(seated.id, { defaultTabStrategy: 'per_resource' }), 409, 'CONFLICT');
    expect(await getBooking(seated.id)).toEqual(seated);
  });

  it('refuses to drop a table with an open tab without confirmRemoveActiveTab (409, nothing changes); with it the tab closes and the table frees', async () => {
    const place = await newPlace({ bufferMinutes: 0 });
    const [t1, t2] = place.tables.map((t) => t.id);
    const b = await book(place, {
      ...today(),
      tableIds: [t1, t2],
      defaultTabStrategy: 'per_resource',
      seatImmediately: true,
    });
    expect(tabsOf(b)).toEqual([
      [t1, 'open'],
      [t2, 'open'],
    ]);
    const refused = await patch(b.id, { tableIds: [t1] });
    expectRefused(refused, 409, 'CONFLICT', '/tableIds');
    expectRefused(await patch(b.id, { tableIds: [t1], confirmRemoveActiveTab: false }), 409, 'CONFLICT');
    expect(await getBooking(b.id)).toEqual(b);

    const confirmed = await patch(b.id, { tableIds: [t1], confirmRemoveActiveTab: true });
    expect(confirmed.status).toBe(200);
    expect(tabsOf(confirmed.body.data)).toEqual([[t1, 'open']]);
    // t2's open tab closed and its claim went: a party can sit there now (no seatWarning).
    const next = await book(place, {
      bookingDate: dayAhead(1),
      startTime: '00:00',
      endTime: '01:00',
      tableIds: [t2],
      seatImmediately: true,
    });
    expect(next).toMatchObject({ status: 'seated' });
    expect(next).not.toHaveProperty('seatWarning');
  });
});

describe('PATCH /api/v1/bookings/{id}: validation, permissions, tenancy', () => {
  let shared: Promise<{ place: Place; booking: Schemas['CreatedBooking'] }> | undefined;
  const fixture = () =>
    (shared ??= (async () => {
      const place = await newPlace();
      return { place, booking: await book(place) };
    })());

  it.each([
    ['an empty body', {}, '/'],
    ['bookingDate not a date', { bookingDate: '2027-02-30' }, '/bookingDate'],
    ['startTime not HH:MM', { startTime: '7pm' }, '/startTime'],
    ['guestCount above 100', { guestCount: 101 }, '/guestCount'],
    ['guestCount below 0', { guestCount: -1 }, '/guestCount'],
    ['guestCount 0 (only a walk-in seated at once has an uncounted party)', { guestCount: 0 }, '/guestCount'],
    ['tableIds repeated', { tableIds: [unknownUuid, unknownUuid] }, '/tableIds'],
    ['defaultTabStrategy unknown', { defaultTabStrategy: 'shared' }, '/defaultTabStrategy'],
    ['confirmRemoveActiveTab not a boolean', { confirmRemoveActiveTab: 'yes' }, '/confirmRemoveActiveTab'],
    ['depositAmountCents below 0', { depositAmountCents: -5 }, '/depositAmountCents'],
    ['a field only create accepts (guestName)', { guestName: 'Other' }, '/guestName'],
  ])('refuses %s with 400 and changes nothing', async (_, body, path) => {
    const { booking } = await fixture();
    const out = await patch(booking.id, body);
    expectRefused(out, 400, 'VALIDATION_FAILED');
    if (path !== '/') expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await getBooking(booking.id)).toEqual(booking);
  });

  it("answers 400 for a malformed id and 404 for an unknown one or another company's", async () => {
    expectRefused(await patch('nope', { guestCount: 2 }), 400, 'VALIDATION_FAILED');
    expectRefused(await patch(unknownUuid, { guestCount: 2 }), 404, 'NOT_FOUND');
    const theirs = await call('POST', '/api/v1/bookings', {
      key: theirAdmin(),
      body: {
        locationId: theirLocation(),
        bookingDate: dayAhead(10),
        startTime: '13:00',
        guestCount: 2,
        guestName: 'Theirs',
      },
    });
    expectRefused(await patch(theirs.body.data.id, { guestCount: 3 }), 404, 'NOT_FOUND');
    expect(
      (await call('GET', `/api/v1/bookings/${theirs.body.data.id}`, { key: theirAdmin() })).body.data.guestCount,
    ).toBe(2);
  });

  it('needs bookings.update (403); a key limited to other locations gets 403', async () => {
    const { booking } = await fixture();
    expectRefused(
      await patch(
        booking.id,
        { guestCount: 4 },
        await keyWith(['bookings.read', 'bookings.manage', 'bookings.create']),
      ),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await patch(booking.id, { guestCount: 4 }, await keyWith(['bookings.update'], [seededLocation(0).locationId])),
      403,
      'FORBIDDEN',
    );
    expect(await getBooking(booking.id)).toEqual(booking);
  });

  it('lets one of two concurrent moves into the same slot win', async () => {
    const place = await newPlace({}, 1);
    const a = await book(place, { startTime: '12:00', endTime: '13:00' });
    const b = await book(place, { startTime: '14:00', endTime: '15:00' });
    const answers = await Promise.all([
      patch(a.id, { startTime: '18:00', endTime: '19:00' }),
      patch(b.id, { startTime: '18:30', endTime: '19:30' }),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
  });
});
