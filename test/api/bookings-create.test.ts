/** Creating and reading bookings over HTTP (docs/bookings.md, “States”): every field, every refusal, holds under concurrency, time zones. */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import {
  admin,
  book,
  bookingBody,
  dayAhead,
  eventsOf,
  every,
  expectRefused,
  getBooking,
  keyWith,
  newPlace,
  nextSkippedHour,
  theirAdmin,
  theirLocation,
  unknownUuid,
  type Place,
  walkInToday,
} from './bookings-helpers';
import { seededLocation } from './setup-helpers';

const create = (body: unknown, key = admin()) => call('POST', '/api/v1/bookings', { key, body });
const newGuest = async (key = admin()) => {
  const stamp = `${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
  const out = await call('POST', '/api/v1/users/guests', {
    key,
    body: { name: 'Grace Hopper', email: `grace.${stamp}@example.com` },
  });
  expect(out.status).toBe(200);
  return out.body.data as { id: number; name: string; email: string };
};

describe('POST /api/v1/bookings: the happy path', () => {
  it("reads a local guestPhone in the location's country, and refuses one impossible there (400, nothing created)", async () => {
    const place = await newPlace({}, 1);
    expect(
      (await call('PATCH', `/api/v1/locations/${place.id}`, { key: admin(), body: { country: 'SE' } })).status,
    ).toBe(200);
    expectRefused(
      await create(bookingBody(place, { guestPhone: '070-12', bookingDate: dayAhead(11) })),
      400,
      'VALIDATION_FAILED',
      '/guestPhone',
    );
    expect((await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() })).body.data).toEqual([]);
    const out = await create(bookingBody(place, { guestPhone: '070-123 45 67' }));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data.guestPhone).toBe('+46701234567');
    expect((await getBooking(out.body.data.id)).guestPhone).toBe('+46701234567');
  });

  it('creates a confirmed booking with its pre-arrival tab, answers data.tab.id, and records booking.created with the full booking', async () => {
    const place = await newPlace();
    const since = new Date().toISOString();
    const out = await create(
      bookingBody(place, {
        occasion: 'Birthday',
        specialRequests: 'Window',
        internalNotes: 'VIP',
        paymentType: 'card',
        depositAmountCents: 0,
        bookingSource: 'phone',
        guestEmail: 'Ada@Example.com',
        guestPhone: '+46 70 123 45 67',
      }),
    );
    expect(out.status).toBe(200);
    const b = out.body.data;
    expect(b).toMatchObject({
      id: expect.any(String),
      locationId: place.id,
      bookingDate: dayAhead(10),
      startTime: '19:00',
      endTime: '21:00',
      timezone: 'Europe/Stockholm',
      guestCount: 2,
      tableId: place.tables[0]!.id,
      tableIds: [place.tables[0]!.id],
      defaultTabStrategy: 'single',
      primaryUserId: null,
      guestName: 'Ada Lovelace',
      guestEmail: 'ada@example.com',
      guestPhone: '+46701234567',
      occasion: 'Birthday',
      specialRequests: 'Window',
      internalNotes: 'VIP',
      paymentType: 'card',
      depositAmountCents: 0,
      bookingSource: 'phone',
      status: 'confirmed',
      statusBeforeSeating: null,
      confirmationCode: expect.stringMatching(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{18}$/),
      locked: false,
      tab: { id: expect.any(String), tableId: place.tables[0]!.id, status: 'pre_arrival' },
      seatingOrderId: null,
      autoNoShowAt: null,
      version: 1,
    });
    expect(b.tabs).toEqual([b.tab]);
    expect(Date.parse(b.endsAt) - Date.parse(b.startsAt)).toBe(2 * 3_600_000);
    expect(b).not.toHaveProperty('seatWarning');
    expect(await getBooking(b.id)).toEqual(b);
    const [event] = await eventsOf('booking.created', b.id, since);
    expect(event).toMatchObject({ resource: 'booking', resourceId: b.id, data: b, changes: null });
  });

  it('creates a pending booking where confirmation is request-based', async () => {
    const place = await newPlace({ confirmationMode: 'request_based' });
    expect((await book(place)).status).toBe('pending');
  });

  it('ends the booking after defaultDurationMinutes when endTime is absent, and after midnight when endTime is earlier', async () => {
    // Open until 02:00 every day: a stay may end after midnight (docs/bookings.md, "Time").
    const place = await newPlace({ defaultDurationMinutes: 90, operatingHours: every('17:00', '02:00') });
    const byDefault = await book(place, { endTime: undefined, startTime: '18:15' });
    expect(byDefault.endTime).toBe('19:45');
    const late = await book(place, { startTime: '22:30', endTime: '01:00', tableIds: [place.tables[1]!.id] });
    expect(Date.parse(late.endsAt) - Date.parse(late.startsAt)).toBe(2.5 * 3_600_000);
  });

  it('folds a legacy tableId into a one-element set, and lets tableIds supersede it (first = primary)', async () => {
    const place = await newPlace();
    const legacy = await book(place, { tableIds: undefined, tableId: place.tables[1]!.id });
    expect(legacy).toMatchObject({ tableId: place.tables[1]!.id, tableIds: [place.tables[1]!.id] });
    const both = await book(place, {
      tableId: place.tables[0]!.id,
      tableIds: [place.tables[2]!.id, place.tables[0]!.id],
      startTime: '12:00',
      endTime: '13:00',
    });
    expect(both).toMatchObject({ tableId: place.tables[2]!.id, tableIds: [place.tables[2]!.id, place.tables[0]!.id] });
    expect(both.tabs).toHaveLength(1);
    expect(both.tab.tableId).toBe(place.tables[2]!.id);
  });

  it('makes one pre-arrival tab per table with the per_resource strategy', async () => {
    const place = await newPlace();
    const b = await book(place, { tableIds: place.tables.map((t) => t.id), defaultTabStrategy: 'per_resource' });
    expect(b.tabs.map((t) => [t.tableId, t.status])).toEqual(place.tables.map((t) => [t.id, 'pre_arrival']));
    expect(new Set(b.tabs.map((t: { id: string }) => t.id)).size).toBe(3);
  });

  it("books a guest by primaryUserId, taking the guest's contact details", async () => {
    const place = await newPlace();
    const guest = await newGuest();
    const b = await book(place, { primaryUserId: guest.id, guestName: undefined });
    expect(b).toMatchObject({ primaryUserId: guest.id, guestName: guest.name, guestEmail: guest.email });
  });

  it('accepts a walk-in of 0 guests without a name when it is seated at once', async () => {
    const place = await newPlace();
    const b = await book(place, {
      guestCount: 0,
      guestName: undefined,
      seatImmediately: true,
      ...walkInToday(),
    });
    expect(b).toMatchObject({ guestCount: 0, guestName: null, status: 'seated' });
  });
});

describe('POST /api/v1/bookings: validation, one case per bound', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['bookingDate not a date', { bookingDate: '2026/12/01' }, '/bookingDate'],
    ['bookingDate that does not exist', { bookingDate: '2027-02-30' }, '/bookingDate'],
    ['startTime not HH:MM', { startTime: '7:00' }, '/startTime'],
    ['startTime hour 24', { startTime: '24:00' }, '/startTime'],
    ['endTime minutes 60', { endTime: '20:60' }, '/endTime'],
    ['timezone that is not an IANA name', { timezone: 'Mars/Olympus' }, '/timezone'],
    ['guestCount below 0', { guestCount: -1 }, '/guestCount'],
    ['guestCount above 100', { guestCount: 101 }, '/guestCount'],
    ['tableIds with a non-UUID', { tableIds: ['T1'] }, '/tableIds/0'],
    ['tableIds repeated', { tableIds: [unknownUuid, unknownUuid] }, '/tableIds'],
    [
      'tableIds over 8',
      {
        tableIds: Array.from(
          { length: 9 },
          (_, i) => `6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e${String(i).padStart(2, '0')}`,
        ),
      },
      '/tableIds',
    ],
    ['tableId not a UUID', { tableIds: undefined, tableId: 'T1' }, '/tableId'],
    ['defaultTabStrategy unknown', { defaultTabStrategy: 'split' }, '/defaultTabStrategy'],
    ['primaryUserId not a number', { primaryUserId: 'abc' }, '/primaryUserId'],
    ['depositAmountCents below 0', { depositAmountCents: -1 }, '/depositAmountCents'],
    ['depositAmountCents not whole', { depositAmountCents: 10.5 }, '/depositAmountCents'],
    ['guestEmail not an email', { guestEmail: 'ada' }, '/guestEmail'],
    ['guestPhone without a country code (the location has no country)', { guestPhone: '070 123 45 67' }, '/guestPhone'],
    ['guestPhone that cannot exist', { guestPhone: '+46 00 123 4567' }, '/guestPhone'],
    ['guestName over 200 characters', { guestName: 'x'.repeat(201) }, '/guestName'],
    ['internalNotes over 2000 characters', { internalNotes: 'x'.repeat(2001) }, '/internalNotes'],
    ['no guest named and no primaryUserId', { guestName: undefined }, '/guestName'],
    ['guestCount 0 without seatImmediately (only a walk-in seated at once)', { guestCount: 0 }, '/guestCount'],
    ['guestCount 0 with seatImmediately false', { guestCount: 0, seatImmediately: false }, '/guestCount'],
    ['seatImmediately not a boolean', { seatImmediately: 'yes' }, '/seatImmediately'],
    ['an unknown field', { partySize: 2 }, '/partySize'],
    ['locationId missing', { locationId: undefined }, '/locationId'],
    ['bookingDate missing', { bookingDate: undefined }, '/bookingDate'],
    ['startTime missing', { startTime: undefined }, '/startTime'],
    ['guestCount missing', { guestCount: undefined }, '/guestCount'],
  ];

  let shared: Promise<Place> | undefined;
  it.each(cases)('refuses %s with 400 and creates nothing', async (_, change, path) => {
    const place = await (shared ??= newPlace({}, 1));
    expectRefused(await create(bookingBody(place, change)), 400, 'VALIDATION_FAILED', path);
    const listed = await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() });
    expect(listed.body.data).toEqual([]);
  });
});

describe('POST /api/v1/bookings: business rules (422) and time zones', () => {
  it("refuses a timezone other than the location's", async () => {
    const place = await newPlace();
    expectRefused(await create(bookingBody(place, { timezone: 'Europe/London' })), 422, 'UNPROCESSABLE', '/timezone');
  });

  it('refuses a start or an end in the hour the clocks skip on the next spring-forward day (a day it would otherwise book)', async () => {
    const { zone, date } = nextSkippedHour();
    const place = await newPlace({}, 1, zone);
    expectRefused(
      await create(bookingBody(place, { bookingDate: date, startTime: '02:30', endTime: '04:00' })),
      422,
      'UNPROCESSABLE',
      '/startTime',
    );
    expectRefused(
      await create(bookingBody(place, { bookingDate: date, startTime: '01:00', endTime: '02:15' })),
      422,
      'UNPROCESSABLE',
      '/endTime',
    );
    await book(place, { bookingDate: date, startTime: '03:00', endTime: '04:00' }); // the same day is bookable outside the gap
  });

  it("lists by the location's local day: 00:30 and 23:00 on a 23-hour day are that day", async () => {
    const { zone, date } = nextSkippedHour();
    const place = await newPlace({}, 3, zone);
    const early = await book(place, { bookingDate: date, startTime: '00:30', endTime: '01:30' });
    const late = await book(place, { bookingDate: date, startTime: '23:00', endTime: '23:45' });
    const dayBefore = DateTime.fromISO(date).minus({ days: 1 }).toISODate()!;
    expect(early.startsAt).toBe(DateTime.fromISO(`${date}T00:30`, { zone }).toUTC().toISO());
    expect(early.startsAt.slice(0, 10)).toBe(dayBefore); // still the day before in UTC
    const day = await call('GET', `/api/v1/bookings?locationId=${place.id}&bookingDate=${date}`, { key: admin() });
    expect(day.body.data.map((b: { id: string }) => b.id)).toEqual([early.id, late.id]);
    const before = await call('GET', `/api/v1/bookings?locationId=${place.id}&bookingDate=${dayBefore}`, {
      key: admin(),
    });
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([]);
  });

  const rules: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['maxPartySize', { maxPartySize: 4 }, { guestCount: 5 }],
    ['allowedPartySizes', { allowedPartySizes: [2, 4] }, { guestCount: 3 }],
    ['minAdvanceHours', { minAdvanceHours: 48 }, { bookingDate: dayAhead(1) }],
    ['maxAdvanceDays', { maxAdvanceDays: 5 }, { bookingDate: dayAhead(10) }],
    ['bookingWindowDays', { bookingWindowDays: 7 }, { bookingDate: dayAhead(10) }],
  ];
  it.each(rules)('refuses a booking that breaks %s with 422 naming the rule', async (rule, settings, change) => {
    const place = await newPlace(settings);
    const out = await create(bookingBody(place, change));
    expectRefused(out, 422, 'UNPROCESSABLE', `/settings/${rule}`);
    expect((await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() })).body.data).toEqual([]);
  });

  it('refuses a booking in the past (minAdvanceHours 0 means not before now), saying so in words on /startTime', async () => {
    const place = await newPlace();
    const out = await create(bookingBody(place, { bookingDate: dayAhead(-2) }));
    expectRefused(out, 422, 'UNPROCESSABLE', '/startTime');
    expect(out.body.error.message).toBe('Bookings cannot start in the past');
    expect(out.body.error.details[0].message).toBe('is in the past: a booking must start later than now');
    expect(JSON.stringify(out.body)).not.toContain('0 hours');
    expect((await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() })).body.data).toEqual([]);
  });

  it("refuses a guest's booking beyond maxActiveBookingsPerGuest at the location", async () => {
    const place = await newPlace({ maxActiveBookingsPerGuest: 2 });
    const guest = await newGuest();
    await book(place, { primaryUserId: guest.id, startTime: '12:00', endTime: '13:00' });
    await book(place, { primaryUserId: guest.id, startTime: '15:00', endTime: '16:00' });
    expectRefused(
      await create(bookingBody(place, { primaryUserId: guest.id, startTime: '18:00', endTime: '19:00' })),
      422,
      'UNPROCESSABLE',
      '/settings/maxActiveBookingsPerGuest',
    );
    // The cap is per location: the guest may book elsewhere.
    await book(await newPlace({ maxActiveBookingsPerGuest: 2 }, 1), { primaryUserId: guest.id });
  });
});

describe('POST /api/v1/bookings: ids of other places and companies', () => {
  it("answers 404 for an unknown location, another company's location, a table of another location and an unknown guest", async () => {
    const place = await newPlace({}, 1);
    const other = await newPlace({}, 1);
    expectRefused(await create(bookingBody(place, { locationId: 999_999 })), 404, 'NOT_FOUND', '/locationId');
    expectRefused(await create(bookingBody(place, { locationId: theirLocation(), tableIds: [] })), 404, 'NOT_FOUND');
    expectRefused(
      await create(bookingBody(place, { tableIds: [place.tables[0]!.id, other.tables[0]!.id] })),
      404,
      'NOT_FOUND',
      '/tableIds/1',
    );
    expectRefused(
      await create(bookingBody(place, { tableIds: undefined, tableId: unknownUuid })),
      404,
      'NOT_FOUND',
      '/tableId',
    );
    expectRefused(await create(bookingBody(place, { primaryUserId: 999_999_999 })), 404, 'NOT_FOUND', '/primaryUserId');
    const theirGuest = await newGuest(theirAdmin());
    expectRefused(
      await create(bookingBody(place, { primaryUserId: theirGuest.id })),
      404,
      'NOT_FOUND',
      '/primaryUserId',
    );
  });

  it('needs bookings.create (403), and a key limited to other locations gets 403', async () => {
    const place = await newPlace({}, 1);
    expectRefused(
      await create(bookingBody(place), await keyWith(['bookings.read', 'bookings.update', 'bookings.manage'])),
      403,
      'FORBIDDEN',
    );
    const limited = await keyWith(['bookings.create'], [seededLocation(0).locationId]);
    expectRefused(await create(bookingBody(place), limited), 403, 'FORBIDDEN');
  });
});

describe('POST /api/v1/bookings: no double booking', () => {
  it('refuses an overlapping booking of a table, and one inside the buffer, with 409; accepts one after the buffer', async () => {
    const place = await newPlace({ bufferMinutes: 30 });
    const first = await book(place, { startTime: '18:00', endTime: '20:00' });
    const overlap = await create(bookingBody(place, { startTime: '19:00', endTime: '21:00' }));
    expectRefused(overlap, 409, 'CONFLICT', '/tableIds/0');
    expectRefused(await create(bookingBody(place, { startTime: '20:15', endTime: '21:00' })), 409, 'CONFLICT');
    expectRefused(await create(bookingBody(place, { startTime: '16:00', endTime: '17:45' })), 409, 'CONFLICT');
    await book(place, { startTime: '20:30', endTime: '22:00' });
    // Another table at the same time is free.
    await book(place, { startTime: '18:00', endTime: '20:00', tableIds: [place.tables[1]!.id] });
    expect((await getBooking(first.id)).status).toBe('confirmed');
  });

  it('holds a table across midnight: a booking at 23:00-01:00 blocks 00:30 the next day', async () => {
    // Booking hours past midnight every day (a stay crosses midnight only where they do), whatever weekday day 20 is.
    const place = await newPlace({ bufferMinutes: 0, operatingHours: every('18:00', '02:00') });
    await book(place, { bookingDate: dayAhead(20), startTime: '23:00', endTime: '01:00' });
    expectRefused(
      await create(bookingBody(place, { bookingDate: dayAhead(21), startTime: '00:30', endTime: '02:00' })),
      409,
      'CONFLICT',
    );
    await book(place, { bookingDate: dayAhead(21), startTime: '01:00', endTime: '02:00' });
  });

  it('lets exactly one of 20 parallel creates for one table and slot succeed; the rest answer 409', async () => {
    const place = await newPlace({}, 1);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create(bookingBody(place, { startTime: '19:00', endTime: i % 2 ? '21:00' : '20:30', guestName: `Racer ${i}` })),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const listed = await call('GET', `/api/v1/bookings?locationId=${place.id}&limit=100`, { key: admin() });
    expect(listed.body.data).toHaveLength(1);
  });
});

describe('POST /api/v1/bookings: stays that cannot be (docs/bookings.md, "Time")', () => {
  const listed = async (place: Place) =>
    (await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() })).body.data;

  it('refuses 20:00 → 19:00 where the booking hours end before midnight: 400 on /endTime, nothing written', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') });
    const out = await create(bookingBody(place, { startTime: '20:00', endTime: '19:00' }));
    expectRefused(out, 400, 'VALIDATION_FAILED', '/endTime');
    expect(out.body.error.details).toEqual([
      { path: '/endTime', message: expect.stringContaining('must be after startTime (20:00)') },
    ]);
    // A walk-in is held to the same rule; so is an end equal to the start.
    expectRefused(
      await create(
        bookingBody(place, { ...walkInToday(), startTime: '22:00', endTime: '01:00', seatImmediately: true }),
      ),
      400,
      'VALIDATION_FAILED',
      '/endTime',
    );
    expectRefused(
      await create(bookingBody(place, { startTime: '20:00', endTime: '20:00' })),
      400,
      'VALIDATION_FAILED',
      '/endTime',
    );
    expect(await listed(place)).toEqual([]);
  });

  it('accepts 22:00 → 01:00 where the booking hours go on until 02:00: three hours, ending the next day', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '02:00') });
    const b = await book(place, { startTime: '22:00', endTime: '01:00' });
    expect(b).toMatchObject({ startTime: '22:00', endTime: '01:00' });
    expect(Date.parse(b.endsAt) - Date.parse(b.startsAt)).toBe(3 * 3_600_000);
  });

  it('refuses a stay longer than 8 hours (480 minutes), naming the cap: 400 on /endTime, nothing written', async () => {
    const place = await newPlace({ operatingHours: every('10:00', '02:00') });
    const long = await create(bookingBody(place, { startTime: '12:00', endTime: '20:01' }));
    expectRefused(long, 400, 'VALIDATION_FAILED', '/endTime');
    expect(long.body.error.message).toBe('A booking lasts at most 8 hours');
    expect(long.body.error.details[0].message).toContain('at most 480 minutes');
    // Past midnight where the hours go on, but 23 hours long: still the cap.
    expectRefused(
      await create(bookingBody(place, { startTime: '20:00', endTime: '19:00' })),
      400,
      'VALIDATION_FAILED',
      '/endTime',
    );
    // The whole day as a walk-in's stay: the cap, no tab opened.
    expectRefused(
      await create(
        bookingBody(place, { bookingDate: dayAhead(0), startTime: '00:00', endTime: '23:59', seatImmediately: true }),
      ),
      400,
      'VALIDATION_FAILED',
      '/endTime',
    );
    expect(await listed(place)).toEqual([]);
    const eight = await book(place, { startTime: '12:00', endTime: '20:00' });
    expect(Date.parse(eight.endsAt) - Date.parse(eight.startsAt)).toBe(8 * 3_600_000);
  });
});

describe('POST /api/v1/bookings with seatImmediately', () => {
  const now = walkInToday;

  it('seats in the same call when a table is assigned, opening the tab, and records booking.created and booking.seated', async () => {
    const place = await newPlace();
    const since = new Date().toISOString();
    const b = await book(place, { ...now(), seatImmediately: true });
    expect(b).toMatchObject({
      status: 'seated',
      statusBeforeSeating: 'confirmed',
      seatedAt: expect.any(String),
      tab: { status: 'open' },
    });
    expect(b).not.toHaveProperty('seatWarning');
    const [seated] = await eventsOf('booking.seated', b.id, since);
    expect(seated!.data).toMatchObject({ id: b.id, status: 'seated', tabId: b.tab.id });
  });

  it('creates without seating, with a seatWarning, when no table is assigned (a location without tables), when a deposit is unpaid, or when the table has an open tab', async () => {
    const place = await newPlace();
    const noTable = await book(await newPlace({}, 0), { ...now(), tableIds: [], seatImmediately: true });
    expect(noTable).toMatchObject({
      status: 'confirmed',
      tab: { status: 'pre_arrival', tableId: null },
      seatWarning: expect.stringContaining('No table'),
    });
    const deposit = await book(place, { ...now(), depositAmountCents: 5000, seatImmediately: true });
    expect(deposit).toMatchObject({ status: 'confirmed', seatWarning: expect.stringContaining('deposit') });
    expect(await getBooking(deposit.id)).not.toHaveProperty('seatWarning');

    const other = await newPlace({ bufferMinutes: 0 });
    await book(other, { bookingDate: dayAhead(0), startTime: '12:00', endTime: '13:00', seatImmediately: true });
    const second = await book(other, {
      bookingDate: dayAhead(0),
      startTime: '13:00',
      endTime: '15:00',
      seatImmediately: true,
    });
    expect(second).toMatchObject({
      status: 'confirmed',
      tab: { status: 'pre_arrival' },
      seatWarning: expect.stringContaining('open tab'),
    });
  });
});

describe('GET /api/v1/bookings/{id}', () => {
  it("answers 400 for a malformed id, 404 for an unknown one and for another company's booking", async () => {
    expectRefused(await call('GET', '/api/v1/bookings/not-a-uuid', { key: admin() }), 400, 'VALIDATION_FAILED');
    expectRefused(await call('GET', `/api/v1/bookings/${unknownUuid}`, { key: admin() }), 404, 'NOT_FOUND');
    const theirs = await call('POST', '/api/v1/bookings', {
      key: theirAdmin(),
      body: {
        locationId: theirLocation(),
        bookingDate: dayAhead(10),
        startTime: '19:00',
        guestCount: 2,
        guestName: 'Theirs',
      },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expectRefused(await call('GET', `/api/v1/bookings/${theirs.body.data.id}`, { key: admin() }), 404, 'NOT_FOUND');
  });

  it('needs bookings.read (403); a key limited to other locations gets 403', async () => {
    const place = await newPlace({}, 1);
    const b = await book(place);
    expectRefused(
      await call('GET', `/api/v1/bookings/${b.id}`, { key: await keyWith(['bookings.create']) }),
      403,
      'FORBIDDEN',
    );
    const limited = await keyWith(['bookings.read'], [seededLocation(0).locationId]);
    expectRefused(await call('GET', `/api/v1/bookings/${b.id}`, { key: limited }), 403, 'FORBIDDEN');
    const mine = await keyWith(['bookings.read'], [place.id]);
    expect((await call('GET', `/api/v1/bookings/${b.id}`, { key: mine })).status).toBe(200);
  });
});
