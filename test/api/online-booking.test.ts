/**
 * Online booking over HTTP (docs/online-booking.md): a publishable key is made, holds the guest's
 * operations only, answers only its own pages and locations, counts per client; a guest sees times,
 * books, reads the booking by its code, joins the waitlist; nothing a guest should not see is answered.
 */
import { describe, expect, it } from 'vitest';
import { admin, bookingBody, dayAhead, every, newPlace, sellingFloor, type Place } from './bookings-helpers';
import { call, devKeys, newClientAddress } from '../support/http';

const PAGE = 'https://www.bistro.example';
const OTHER_PAGE = 'https://copycat.example';

async function publishableKey(place: Place, extra: Record<string, unknown> = {}) {
  const made = await call('POST', '/api/v1/api-keys', {
    key: admin(),
    body: { name: 'Booking widget', publishable: true, allowedOrigins: [PAGE], locationIds: [place.id], ...extra },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.data as { id: string; key: string; publishable: boolean; permissions: string[]; tier: string };
}

const guest = { guestName: 'Grace Hopper', guestEmail: 'grace@example.com' };
/**
 * The guests' client address: its windows (and its budget of online bookings) are this file's
 * alone, not 127.0.0.1's, which the browser tests share (test/support/http.ts).
 */
const guestClient = newClientAddress();

describe('publishable keys', () => {
  it('are made with their origins and locations, hold the online-booking operations only, and list as such', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') });
    const key = await publishableKey(place);
    expect(key).toMatchObject({
      publishable: true,
      allowedOrigins: [PAGE],
      locationIds: [place.id],
      permissions: ['online_booking.create', 'online_booking.read'],
      tier: 'standard',
      roleId: null,
    });
    const read = await call('GET', `/api/v1/api-keys/${key.id}`, { key: admin() });
    expect(read.body.data).toMatchObject({ publishable: true, allowedOrigins: [PAGE] });
    // every other operation refuses it, its creator's permissions notwithstanding
    for (const [method, path] of [
      ['GET', '/api/v1/bookings'],
      ['GET', `/api/v1/locations/${place.id}/availability?date=${dayAhead(3)}&partySize=2`],
      ['GET', '/api/v1/users/search?q=grace'],
      ['GET', '/api/v1/api-keys'],
    ] as const) {
      const refused = await call(method, path, { key: key.key, from: guestClient, headers: { Origin: PAGE } });
      expect(refused.status, `${method} ${path}`).toBe(403);
    }
  });

  it('refuse what a publishable key must not be (400 per field), and a change of its grant', async () => {
    const place = await newPlace();
    const bad = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'w', publishable: true, permissions: ['bookings.read'], locationIds: null, tier: 'premium' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      '/allowedOrigins',
      '/locationIds',
      '/permissions',
      '/tier',
    ]);
    const originOnSecret = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 's', tier: 'standard', permissions: ['bookings.read'], allowedOrigins: [PAGE] },
    });
    expect(originOnSecret.status).toBe(400);
    const notAnOrigin = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'w', publishable: true, allowedOrigins: ['https://bistro.example/book'], locationIds: [place.id] },
    });
    expect(notAnOrigin.status).toBe(400);
    const key = await publishableKey(place);
    const widen = await call('PATCH', `/api/v1/api-keys/${key.id}`, {
      key: admin(),
      body: { permissions: ['bookings.read'] },
    });
    expect(widen.status).toBe(400);
    const moved = await call('PATCH', `/api/v1/api-keys/${key.id}`, {
      key: admin(),
      body: { allowedOrigins: [PAGE, 'http://127.0.0.1:8080'] },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.allowedOrigins).toEqual([PAGE, 'http://127.0.0.1:8080']);
  });

  it("answer only the key's own pages: another origin is refused (403, no allow-origin); no Origin is let through", async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') });
    const key = await publishableKey(place);
    const path = `/api/v1/online/locations/${place.id}`;
    const own = await call('GET', path, { key: key.key, from: guestClient, headers: { Origin: PAGE } });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(PAGE);
    const other = await call('GET', path, { key: key.key, from: guestClient, headers: { Origin: OTHER_PAGE } });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await call('GET', path, { key: key.key, from: guestClient })).status).toBe(200);
    // a location the key does not name
    const elsewhere = await newPlace();
    const refused = await call('GET', `/api/v1/online/locations/${elsewhere.id}`, {
      key: key.key,
      from: guestClient,
      headers: { Origin: PAGE },
    });
    expect(refused.status).toBe(403);
  });

  it('are preflighted for any origin (a preflight carries no key)', async () => {
    const res = await fetch(`${devKeys().baseUrl}/api/v1/online/bookings`, {
      method: 'OPTIONS',
      headers: { Origin: OTHER_PAGE, 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('let one client make at most 20 online bookings and waitlist entries an hour: the next is refused, writing nothing', async () => {
    const place = await newPlace();
    const key = await publishableKey(place);
    const client = newClientAddress();
    const join = (guestName: string, from = client) =>
      call('POST', '/api/v1/online/waitlist', {
        key: key.key,
        from,
        body: {
          locationId: place.id,
          partySize: 2,
          desiredDate: dayAhead(9),
          windowStart: '19:00',
          guestName,
          guestPhone: '+46701234567',
        },
      });
    for (let i = 1; i <= 20; i++) expect((await join(`Guest ${i}`)).status).toBe(200);
    const refused = await join('Guest 21');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('20 online bookings and waitlist entries');
    expect(refused.headers.get('retry-after')).not.toBeNull();
    const listed = await call('GET', `/api/v1/booking-waitlist?locationId=${place.id}&limit=100`, { key: admin() });
    expect(listed.body.data).toHaveLength(20);
    // another client is not held by it
    expect((await join('Another client', newClientAddress())).status).toBe(200);
  });

  it("count in the client's window, not the key's: two clients each get their own", async () => {
    const place = await newPlace();
    const key = await publishableKey(place);
    const path = `/api/v1/online/locations/${place.id}`;
    const [one, two] = [newClientAddress(), newClientAddress()];
    const first = await call('GET', path, { key: key.key, from: one });
    await call('GET', path, { key: key.key, from: one });
    const second = await call('GET', path, { key: key.key, from: two });
    expect(Number(first.headers.get('x-ratelimit-limit'))).toBe(1000);
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(999);
  });
});

describe('a guest books online', () => {
  it('sees times only, books one, reads it by its code; the booking records its channel and fires booking.created', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') }, 2);
    const key = await publishableKey(place);
    const date = dayAhead(12);
    const headers = { Origin: PAGE };
    const profile = await call('GET', `/api/v1/online/locations/${place.id}`, {
      key: key.key,
      from: guestClient,
      headers,
    });
    expect(profile.body.data).toMatchObject({ locationId: place.id, timezone: place.timezone, minPartySize: 1 });
    const times = await call('GET', `/api/v1/online/locations/${place.id}/availability?date=${date}&partySize=2`, {
      key: key.key,
      from: guestClient,
      headers,
    });
    expect(times.status).toBe(200);
    const slots = times.body.data.slots as { time: string; available: boolean; waitlist: boolean }[];
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.every((s) => s.time >= '17:00')).toBe(true);
    expect(JSON.stringify(times.body)).not.toMatch(/tableId|guestName|reason/);

    const slot = slots.find((s) => s.available)!;
    const made = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      headers,
      body: {
        locationId: place.id,
        bookingDate: date,
        startTime: slot.time,
        guestCount: 2,
        ...guest,
        occasion: 'Anniversary',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const booked = made.body.data;
    expect(booked).toMatchObject({
      status: 'confirmed',
      bookingDate: date,
      startTime: slot.time,
      occasion: 'Anniversary',
    });
    expect(Object.keys(booked)).not.toEqual(expect.arrayContaining(['tableIds']));
    expect(booked).not.toHaveProperty('guestEmail');
    expect(booked).not.toHaveProperty('internalNotes');

    const staff = await call('GET', `/api/v1/bookings/${booked.id}`, { key: admin() });
    expect(staff.body.data).toMatchObject({ bookingSource: 'online', guestEmail: 'grace@example.com' });
    expect(staff.body.data.tableIds).toHaveLength(1);

    const byCode = await call('GET', `/api/v1/bookings/by-code/${booked.confirmationCode}`, { headers });
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toEqual(booked);
    expect(byCode.headers.get('access-control-allow-origin')).toBe('*');
    expect((await call('GET', '/api/v1/bookings/by-code/AAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });

  it('refuses what a guest may not send (tables, notes, no contact) with 400, and writes nothing', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') });
    const key = await publishableKey(place);
    const body = { locationId: place.id, bookingDate: dayAhead(12), startTime: '19:00', guestCount: 2, ...guest };
    for (const extra of [{ tableIds: [place.tables[0]!.id] }, { internalNotes: 'vip' }, { depositAmountCents: 0 }]) {
      const refused = await call('POST', '/api/v1/online/bookings', {
        key: key.key,
        from: guestClient,
        body: { ...body, ...extra },
      });
      expect(refused.status, JSON.stringify(extra)).toBe(400);
    }
    const noContact = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: { ...body, guestEmail: undefined },
    });
    expect(noContact.status).toBe(400);
    expect(noContact.body.error.details.map((d: { path: string }) => d.path)).toEqual(['/guestEmail', '/guestPhone']);
    const list = await call('GET', `/api/v1/bookings?locationId=${place.id}`, { key: admin() });
    expect(list.body.data).toEqual([]);
  });

  it("holds the location's rules: request_based leaves it pending, the per-guest cap counts a known guest's bookings", async () => {
    const place = await newPlace(
      { operatingHours: every('17:00', '23:00'), confirmationMode: 'request_based', maxActiveBookingsPerGuest: 1 },
      3,
    );
    const key = await publishableKey(place);
    const known = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      headers: { 'X-Location-Id': String(place.id) },
      body: { name: 'Known Guest', email: `known-${place.id}@example.com` },
    });
    expect(known.status, JSON.stringify(known.body)).toBe(200);
    const body = (time: string) => ({
      locationId: place.id,
      bookingDate: dayAhead(14),
      startTime: time,
      guestCount: 2,
      guestName: 'Known Guest',
      guestEmail: `KNOWN-${place.id}@example.com`,
    });
    const first = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: body('18:00'),
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.status).toBe('pending');
    const staff = await call('GET', `/api/v1/bookings/${first.body.data.id}`, { key: admin() });
    expect(staff.body.data.primaryUserId).toBe(known.body.data.id);
    const second = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: body('20:00'),
    });
    expect(second.status).toBe(422);
    expect(second.body.error.details[0].path).toBe('/settings/maxActiveBookingsPerGuest');
  });

  it('offers the waitlist for a full time, and joining answers the entry with its code', async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') }, 1);
    const key = await publishableKey(place);
    const date = dayAhead(12);
    const taken = await call('POST', '/api/v1/bookings', {
      key: admin(),
      body: bookingBody(place, { bookingDate: date, startTime: '17:00', endTime: '23:00' }),
    });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const times = await call('GET', `/api/v1/online/locations/${place.id}/availability?date=${date}&partySize=2`, {
      key: key.key,
      from: guestClient,
    });
    const slots = times.body.data.slots as { time: string; available: boolean; waitlist: boolean }[];
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.every((s) => !s.available && s.waitlist)).toBe(true);
    const full = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: { locationId: place.id, bookingDate: date, startTime: '19:00', guestCount: 2, ...guest },
    });
    expect(full.status).toBe(409);
    const joined = await call('POST', '/api/v1/online/waitlist', {
      key: key.key,
      from: guestClient,
      body: { locationId: place.id, partySize: 2, desiredDate: date, windowStart: '19:00', ...guest },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.data).toMatchObject({ status: 'waiting', partySize: 2, windowStart: '19:00' });
    expect(joined.body.data).not.toHaveProperty('guestEmail');
    const entry = await call('GET', `/api/v1/booking-waitlist/by-code/${joined.body.data.code}`);
    expect(entry.body.data.id).toBe(joined.body.data.id);
  });

  it("makes a guest of a new contact in the booking's transaction; a refused booking makes none", async () => {
    const place = await newPlace({ operatingHours: every('17:00', '23:00') }, 1);
    const key = await publishableKey(place);
    const email = `first-${place.id}@example.com`;
    const search = () =>
      call('GET', `/api/v1/users/search?q=first-${place.id}`, {
        key: admin(),
        headers: { 'X-Location-Id': String(place.id) },
      });
    const body = {
      locationId: place.id,
      bookingDate: dayAhead(20),
      guestCount: 2,
      guestName: 'Fay First',
      guestEmail: email,
    };
    // closed at 10:00: refused (422), no guest
    const refused = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: { ...body, startTime: '10:00' },
    });
    expect(refused.status).toBe(422);
    expect((await search()).body.data).toEqual([]);
    const made = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: { ...body, startTime: '19:00' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const staff = await call('GET', `/api/v1/bookings/${made.body.data.id}`, { key: admin() });
    const found = (await search()).body.data as { id: number; name: string }[];
    expect(found.map((g) => g.id)).toEqual([staff.body.data.primaryUserId]);
    expect(found[0]!.name).toBe('Fay First');
  });

  it('changes its time and party by its code, with a table that seats the new party; cancels by code', async () => {
    const place = await sellingPlace();
    const key = await publishableKey(place);
    const date = dayAhead(15);
    const made = await call('POST', '/api/v1/online/bookings', {
      key: key.key,
      from: guestClient,
      body: { locationId: place.id, bookingDate: date, startTime: '18:00', guestCount: 2, ...guest },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const code = made.body.data.confirmationCode as string;
    const moved = await call('PATCH', `/api/v1/bookings/by-code/${code}`, {
      body: { startTime: '20:00', guestCount: 6 },
      headers: { Origin: PAGE },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ startTime: '20:00', guestCount: 6, confirmationCode: code });
    expect(moved.headers.get('access-control-allow-origin')).toBe('*');
    const staff = await call('GET', `/api/v1/bookings/${made.body.data.id}`, { key: admin() });
    expect(staff.body.data.tableIds).toEqual([place.table('Six')]);
    // outside the hours, or a party too large: refused, nothing changed
    expect((await call('PATCH', `/api/v1/bookings/by-code/${code}`, { body: { startTime: '10:00' } })).status).toBe(
      422,
    );
    expect((await call('PATCH', `/api/v1/bookings/by-code/${code}`, { body: { guestCount: 9 } })).status).toBe(409);
    expect((await call('GET', `/api/v1/bookings/by-code/${code}`)).body.data).toEqual(moved.body.data);
    const cancelled = await call('POST', `/api/v1/bookings/by-code/${code}/cancel`);
    expect(cancelled.body.data.status).toBe('cancelled');
    const again = await call('PATCH', `/api/v1/bookings/by-code/${code}`, { body: { startTime: '19:00' } });
    expect(again.status).toBe(409);
  });
});

/** A location of its own with a two-top and a six-top, hours 17:00-23:00. */
const sellingPlace = () =>
  sellingFloor([
    ['Two', 1, 2],
    ['Six', 3, 6],
  ]);
