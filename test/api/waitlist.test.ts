/**
 * The booking waitlist over HTTP (docs/api.md; docs/conventions.md, “Permissions”; docs/waitlist.md): join, list, get,
 * offer (re-seating the movable bookings that hold the named tables), and the public by-code get,
 * accept, decline and leave; bounds, permissions, the tenant wall and the events of each change;
 * and a waitlist accept racing a normal booking for the same last table, round after round:
 * exactly one wins.
 */
import { describe, expect, it } from 'vitest';
import { call, company, newClientAddress, type Answer } from '../support/http';
import {
  admin,
  book,
  dayAhead,
  eventsOf,
  expectRefused,
  getBooking,
  keyWith,
  newPlace,
  sellingFloor,
  theirAdmin,
  theirLocation,
  unknownUuid,
  type Place,
} from './bookings-helpers';
import { useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

useOwnCompany('Waitlist company');

const base = '/api/v1/booking-waitlist';
const date = dayAhead(9);
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{18}$/;

const joinBody = (place: Place, extra: Record<string, unknown> = {}) => ({
  locationId: place.id,
  partySize: 2,
  desiredDate: date,
  windowStart: '18:00',
  windowEnd: '21:00',
  guestName: 'Wim Waiting',
  guestEmail: 'wim@example.com',
  ...extra,
});
const join = (body: unknown, key = admin()) => call('POST', base, { key, body });
async function joined(place: Place, extra: Record<string, unknown> = {}): Promise<Schemas['WaitlistEntry']> {
  const out = await join(joinBody(place, extra));
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}
const offer = (id: string, body: Record<string, unknown>, key = admin()) =>
  call('POST', `${base}/${id}/offer`, { key, body });
const offerBody = (place: Place, extra: Record<string, unknown> = {}) => ({
  tableIds: [place.tables[0]!.id],
  startTime: '19:00',
  endTime: '21:00',
  ...extra,
});
async function offered(place: Place, extra: Record<string, unknown> = {}): Promise<Schemas['WaitlistEntry']> {
  const e = await joined(place);
  const out = await offer(e.id, offerBody(place, extra));
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}
/** A code the list does not have, or a malformed one, is a failed lookup (docs/access.md, “Codes”): those come from an address of their own. */
const byCode = (code: string, op?: 'accept' | 'decline' | 'leave', from?: string) =>
  op === undefined
    ? call('GET', `${base}/by-code/${code}`, { from })
    : call(op === 'leave' ? 'DELETE' : 'POST', `${base}/by-code/${code}/${op}`, { from });
const missFrom = newClientAddress();
const bookTable = (place: Place, tableId: string, startTime = '19:30') =>
  call('POST', '/api/v1/bookings', {
    key: admin(),
    body: {
      locationId: place.id,
      bookingDate: date,
      startTime,
      endTime: '21:00',
      timezone: place.timezone,
      guestCount: 2,
      tableIds: [tableId],
      guestName: 'Normal Booker',
    },
  });
const since = () => new Date(Date.now() - 1000).toISOString();

describe('POST /api/v1/booking-waitlist', () => {
  it('adds the party as waiting, with a code, and sends waitlist.joined', async () => {
    const place = await newPlace();
    const t0 = since();
    const out = await join(joinBody(place, { guestPhone: '+46 70 111 22 33', notes: 'Window please' }));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const e = out.body.data;
    expect(e).toEqual({
      id: expect.any(String),
      locationId: place.id,
      code: expect.stringMatching(CODE),
      status: 'waiting',
      partySize: 2,
      desiredDate: date,
      windowStart: '18:00',
      windowEnd: '21:00',
      primaryUserId: null,
      guestName: 'Wim Waiting',
      guestEmail: 'wim@example.com',
      guestPhone: '+46701112233',
      notes: 'Window please',
      offer: null,
      bookingId: null,
      version: 1,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await call('GET', `${base}/${e.id}`, { key: admin() })).body.data).toEqual(e);
    const events = await eventsOf('waitlist.joined', e.id, t0);
    expect(events.map((ev) => ev.data)).toEqual([e]);
  });

  it('refuses what is not valid: 400 naming the field, 422 for a date that has passed, 404 for another location', async () => {
    const place = await newPlace();
    expectRefused(
      await join(joinBody(place, { guestName: undefined, guestEmail: undefined })),
      400,
      'VALIDATION_FAILED',
      '/guestName',
    );
    expectRefused(await join(joinBody(place, { partySize: 0 })), 400, 'VALIDATION_FAILED', '/partySize');
    expectRefused(await join(joinBody(place, { partySize: 101 })), 400, 'VALIDATION_FAILED', '/partySize');
    expect((await join(joinBody(place, { partySize: 100 }))).status).toBe(200);
    expectRefused(
      await join(joinBody(place, { windowStart: '21:00', windowEnd: '18:00' })),
      400,
      'VALIDATION_FAILED',
      '/windowEnd',
    );
    expectRefused(await join(joinBody(place, { windowStart: '24:00' })), 400, 'VALIDATION_FAILED', '/windowStart');
    expectRefused(await join(joinBody(place, { desiredDate: '2026-02-30' })), 400, 'VALIDATION_FAILED', '/desiredDate');
    expectRefused(await join(joinBody(place, { color: 'red' })), 400, 'VALIDATION_FAILED');
    expectRefused(await join(joinBody(place, { guestPhone: '+46 1' })), 400, 'VALIDATION_FAILED', '/guestPhone');
    expectRefused(await join(joinBody(place, { desiredDate: dayAhead(-2) })), 422, 'UNPROCESSABLE', '/desiredDate');
    expectRefused(await join(joinBody(place, { locationId: theirLocation() })), 404, 'NOT_FOUND', '/locationId');
    expectRefused(await join(joinBody(place, { primaryUserId: 999_999_999 })), 404, 'NOT_FOUND', '/primaryUserId');
  });

  it('needs bookings.create, and a key limited to other locations may not join there', async () => {
    const place = await newPlace();
    expectRefused(await join(joinBody(place), await keyWith(['bookings.read'])), 403, 'FORBIDDEN');
    expectRefused(await join(joinBody(place), await keyWith(['bookings.create'], [theirLocation()])), 403, 'FORBIDDEN');
    expect((await join(joinBody(place), await keyWith(['bookings.create'], [place.id]))).status).toBe(200);
    expectRefused(await call('POST', base, { body: joinBody(place) }), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/v1/booking-waitlist and /{id}', () => {
  it('lists by location, date and status, page by page', async () => {
    const place = await newPlace();
    const a = await joined(place);
    const b = await joined(place, { desiredDate: dayAhead(10) });
    const c = await offered(place);
    const list = (query: string, key = admin()) => call('GET', `${base}?${query}`, { key });
    const ids = (out: Answer) => out.body.data.map((e: { id: string }) => e.id);
    const all = await list(`locationId=${place.id}`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(ids(all)).toEqual([a.id, c.id, b.id]);
    expect(ids(await list(`locationId=${place.id}&date=${date}`))).toEqual([a.id, c.id]);
    expect(ids(await list(`locationId=${place.id}&status=offered`))).toEqual([c.id]);
    expect(ids(await list(`locationId=${place.id}&status=waiting&date=${dayAhead(10)}`))).toEqual([b.id]);
    const first = await list(`locationId=${place.id}&limit=2`);
    expect(ids(first)).toEqual([a.id, c.id]);
    expect(first.body.meta.pagination).toMatchObject({ page: 1, limit: 2, nextCursor: expect.any(String) });
    const second = await list(`locationId=${place.id}&limit=2&cursor=${first.body.meta.pagination.nextCursor}`);
    expect(ids(second)).toEqual([b.id]);
    expect(second.body.meta.pagination.nextCursor).toBeNull();
    // Company 1's read-only key does not find this company's location (404, as an unknown one); a key with bookings.read alone reads an entry.
    expectRefused(await list(`locationId=${place.id}`, company(1).keys.readonly), 404, 'NOT_FOUND');
    expect((await call('GET', `${base}/${c.id}`, { key: await keyWith(['bookings.read']) })).body.data).toEqual(c);
  });

  it('refuses bad filters (400), a credential without bookings.read or for other locations (403), other companies (404)', async () => {
    const place = await newPlace();
    const e = await joined(place);
    expectRefused(await call('GET', `${base}?status=seated`, { key: admin() }), 400, 'VALIDATION_FAILED', '/status');
    expectRefused(await call('GET', `${base}?limit=101`, { key: admin() }), 400, 'VALIDATION_FAILED', '/limit');
    expectRefused(await call('GET', `${base}?date=tomorrow`, { key: admin() }), 400, 'VALIDATION_FAILED', '/date');
    expectRefused(await call('GET', `${base}/not-a-uuid`, { key: admin() }), 400, 'VALIDATION_FAILED');
    expectRefused(await call('GET', base, { key: await keyWith(['bookings.create']) }), 403, 'FORBIDDEN');
    expectRefused(
      await call('GET', `${base}/${e.id}`, { key: await keyWith(['bookings.read'], [theirLocation()]) }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('GET', `${base}/${e.id}`, { key: theirAdmin() }), 404, 'NOT_FOUND');
    expectRefused(await call('GET', `${base}/${unknownUuid}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('GET', `${base}?locationId=${place.id}`, { key: theirAdmin() }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/v1/booking-waitlist/{id}/offer', () => {
  it('holds the table for the guest (a normal booking then is refused), tells the expiry, sends waitlist.offered', async () => {
    const place = await newPlace({ bufferMinutes: 15 });
    const e = await joined(place);
    const t0 = since();
    const before = Date.now();
    const out = await offer(e.id, offerBody(place, { holdMinutes: 30 }));
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const o = out.body.data;
    expect(o).toMatchObject({
      id: e.id,
      status: 'offered',
      version: 2,
      offer: {
        tableIds: [place.tables[0]!.id],
        bookingDate: date,
        startTime: '19:00',
        endTime: '21:00',
        timezone: place.timezone,
      },
    });
    const expires = Date.parse(o.offer.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * 60_000);
    expect(expires - Date.parse(o.offer.offeredAt)).toBe(30 * 60_000);
    expectRefused(await bookTable(place, place.tables[0]!.id), 409, 'CONFLICT');
    expect((await bookTable(place, place.tables[1]!.id)).status).toBe(200);
    expect((await eventsOf('waitlist.offered', e.id, t0)).map((ev) => ev.data.status)).toEqual(['offered']);
    expect((await byCode(e.code)).body.data).toMatchObject({
      status: 'offered',
      offer: { expiresAt: o.offer.expiresAt },
    });
  });

  it('refuses bounds (400), unknown tables (404), small tables, past times and party rules (422), a taken table and a second offer (409)', async () => {
    const place = await newPlace({ maxPartySize: 6 });
    const e = await joined(place);
    expectRefused(await offer(e.id, offerBody(place, { holdMinutes: 0 })), 400, 'VALIDATION_FAILED', '/holdMinutes');
    expectRefused(await offer(e.id, offerBody(place, { holdMinutes: 1441 })), 400, 'VALIDATION_FAILED', '/holdMinutes');
    expectRefused(await offer(e.id, offerBody(place, { tableIds: [] })), 400, 'VALIDATION_FAILED', '/tableIds');
    expectRefused(await offer(e.id, { startTime: '19:00' }), 400, 'VALIDATION_FAILED', '/tableIds');
    // An end before the start is a next-day end only where the hours go past midnight, and 23 hours is over the cap either way.
    expectRefused(
      await offer(e.id, offerBody(place, { startTime: '20:00', endTime: '19:00' })),
      400,
      'VALIDATION_FAILED',
      '/endTime',
    );
    expectRefused(await offer(e.id, offerBody(place, { tableIds: [unknownUuid] })), 404, 'NOT_FOUND', '/tableIds/0');
    expectRefused(await offer(e.id, offerBody(place, { bookingDate: date })), 400, 'VALIDATION_FAILED');
    const tonight = await joined(place, {
      desiredDate: new Date().toLocaleDateString('sv-SE', { timeZone: place.timezone }),
      windowStart: '00:00',
    });
    expectRefused(
      await offer(tonight.id, offerBody(place, { startTime: '00:00', endTime: '01:00' })),
      422,
      'UNPROCESSABLE',
      '/startTime',
    );
    const big = await joined(place, { partySize: 9 });
    expectRefused(
      await offer(big.id, offerBody(place, { tableIds: [place.tables[0]!.id] })),
      422,
      'UNPROCESSABLE',
      '/tableIds',
    );
    expectRefused(
      await offer(big.id, offerBody(place, { tableIds: [place.tables[0]!.id, place.tables[1]!.id] })),
      422,
      'UNPROCESSABLE',
      '/settings/maxPartySize',
    );
    // A table taken by a booking that stays where it is (locked); one that may move is re-seated (below).
    const taken = await bookTable(place, place.tables[2]!.id);
    expect(taken.status).toBe(200);
    const lock = await call('PATCH', `/api/v1/bookings/${taken.body.data.id}/lock`, {
      key: admin(),
      body: { locked: true },
    });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    expectRefused(
      await offer(e.id, offerBody(place, { tableIds: [place.tables[2]!.id] })),
      409,
      'CONFLICT',
      '/tableIds/0',
    );
    expect((await offer(e.id, offerBody(place))).status).toBe(200);
    expectRefused(await offer(e.id, offerBody(place, { tableIds: [place.tables[1]!.id] })), 409, 'CONFLICT');
    // Nothing of the refused offers stayed: the entry moved once.
    expect((await call('GET', `${base}/${e.id}`, { key: admin() })).body.data).toMatchObject({
      status: 'offered',
      version: 2,
      offer: { tableIds: [place.tables[0]!.id] },
    });
  });

  it('needs bookings.manage; other companies and other locations cannot offer', async () => {
    const place = await newPlace();
    const e = await joined(place);
    expectRefused(
      await offer(e.id, offerBody(place), await keyWith(['bookings.read', 'bookings.create'])),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await offer(e.id, offerBody(place), await keyWith(['bookings.manage'], [theirLocation()])),
      403,
      'FORBIDDEN',
    );
    expectRefused(await offer(e.id, offerBody(place), theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await offer(unknownUuid, offerBody(place)), 404, 'NOT_FOUND');
    expect((await call('GET', `${base}/${e.id}`, { key: admin() })).body.data.status).toBe('waiting');
  });
});

describe('an offer of a table taken by a booking that may move', () => {
  /** A location with a two-top and a four-top, a couple booked by name on the four-top at 19:00, and a party of four waiting. */
  async function coupleOnTheFourTop() {
    const place = await sellingFloor([
      ['T2', 1, 2],
      ['T4', 1, 4],
    ]);
    const couple = await book(place, {
      bookingDate: date,
      startTime: '19:00',
      endTime: '21:00',
      tableIds: [place.table('T4')],
      guestCount: 2,
    });
    const four = await joined(place, { partySize: 4 });
    return { place, couple, four, atT4: offerBody(place, { tableIds: [place.table('T4')] }) };
  }

  it('moves the couple to the free two-top and holds the four-top for the party: one transaction, one booking.updated', async () => {
    const { place, couple, four, atT4 } = await coupleOnTheFourTop();
    const t0 = since();
    const out = await offer(four.id, atT4);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toMatchObject({
      status: 'offered',
      version: 2,
      offer: { tableIds: [place.table('T4')], startTime: '19:00', endTime: '21:00' },
    });
    expect(await getBooking(couple.id)).toMatchObject({
      tableIds: [place.table('T2')],
      tableId: place.table('T2'),
      tab: { tableId: place.table('T2') },
      version: couple.version + 1,
    });
    const updates = await eventsOf('booking.updated', couple.id, t0);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.changes).toMatchObject({ tableIds: [place.table('T2')] });
    expect(await eventsOf('waitlist.offered', four.id, t0)).toHaveLength(1);
    // The offer holds the four-top and the couple holds the two-top: neither can be booked by name at that time.
    expectRefused(await bookTable(place, place.table('T4'), '19:00'), 409, 'CONFLICT');
    expectRefused(await bookTable(place, place.table('T2'), '19:00'), 409, 'CONFLICT');
    // The guest accepts: the booking sits at the four-top.
    const accepted = await byCode(four.code, 'accept');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await getBooking(accepted.body.data.bookingId)).toMatchObject({
      tableIds: [place.table('T4')],
      guestCount: 4,
    });
  });

  it('never moves a locked or a seated booking: 409 as before, nothing written', async () => {
    for (const hold of ['lock', 'seat'] as const) {
      const { place, couple, four, atT4 } = await coupleOnTheFourTop();
      const held =
        hold === 'lock'
          ? await call('PATCH', `/api/v1/bookings/${couple.id}/lock`, { key: admin(), body: { locked: true } })
          : await call('POST', `/api/v1/bookings/${couple.id}/seat`, { key: admin(), body: {} });
      expect(held.status, JSON.stringify(held.body)).toBe(200);
      const before = await getBooking(couple.id);
      const t0 = since();
      expectRefused(await offer(four.id, atT4), 409, 'CONFLICT', '/tableIds/0');
      expect(await getBooking(couple.id), hold).toEqual(before);
      const moves = (await eventsOf('booking.updated', couple.id, t0)).filter(
        (ev) => ev.changes && 'tableIds' in ev.changes,
      );
      expect(moves, hold).toEqual([]);
      expect((await call('GET', `${base}/${four.id}`, { key: admin() })).body.data, hold).toMatchObject({
        status: 'waiting',
        version: 1,
        offer: null,
      });
      // The two-top is still free at that time: nothing was held for the refused offer.
      expect((await bookTable(place, place.table('T2'), '19:00')).status, hold).toBe(200);
    }
  });

  it('racing a booking of the two-top the couple would move to: exactly one wins, no table held twice (4 rounds)', async () => {
    for (let n = 0; n < 4; n++) {
      const { place, couple, four, atT4 } = await coupleOnTheFourTop();
      const reseat = () => offer(four.id, atT4);
      const direct = () => bookTable(place, place.table('T2'), '19:00');
      const [o, b] =
        n % 2 === 0
          ? await Promise.all([reseat(), direct()])
          : await Promise.all([direct(), reseat()]).then(([x, y]) => [y, x] as const);
      expect([o.status, b.status].sort(), `round ${n}: ${JSON.stringify([o.body, b.body])}`).toEqual([200, 409]);
      const entry = (await call('GET', `${base}/${four.id}`, { key: admin() })).body.data;
      const stayed = await getBooking(couple.id);
      if (o.status === 200) {
        // The offer won: the couple moved to the two-top, the four-top is held for the party.
        expect(entry, `round ${n}`).toMatchObject({ status: 'offered', offer: { tableIds: [place.table('T4')] } });
        expect(stayed.tableIds, `round ${n}`).toEqual([place.table('T2')]);
      } else {
        // The booking won the two-top: the couple stays, the offer wrote nothing.
        expect(entry, `round ${n}`).toMatchObject({ status: 'waiting', version: 1, offer: null });
        expect(stayed, `round ${n}`).toMatchObject({ tableIds: [place.table('T4')], version: couple.version });
        expect(b.body.data.tableIds, `round ${n}`).toEqual([place.table('T2')]);
      }
    }
  });

  it('never moves a booking out of another offer’s way, nor another offer: 409 as before', async () => {
    const { place, four, atT4 } = await coupleOnTheFourTop();
    // The two-top is held by another offer: the couple has nowhere to go.
    const other = await joined(place);
    expect((await offer(other.id, offerBody(place, { tableIds: [place.table('T2')] }))).status).toBe(200);
    expectRefused(await offer(four.id, atT4), 409, 'CONFLICT', '/tableIds/0');
    // A table held by an offer is not freed for another either.
    const third = await joined(place);
    expectRefused(
      await offer(third.id, offerBody(place, { tableIds: [place.table('T2')] })),
      409,
      'CONFLICT',
      '/tableIds/0',
    );
  });
});

describe('availability while an offer holds a table', () => {
  it('shows the held table taken for the offered stay, and free again once declined', async () => {
    const every = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        [{ open: '17:00', close: '23:00' }],
      ]),
    );
    const place = await newPlace({ bufferMinutes: 0, operatingHours: every }, 1);
    const at = async (time: string) => {
      const out = await call('GET', `/api/v1/locations/${place.id}/availability?date=${date}&partySize=2`, {
        key: admin(),
      });
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      return out.body.data.slots.find((s: { time: string }) => s.time === time);
    };
    expect(await at('19:00')).toMatchObject({ available: true });
    const o = await offered(place);
    expect(await at('19:00')).toMatchObject({ available: false, reason: 'no_table_fits' });
    expect(await at('21:00')).toMatchObject({ available: true });
    expect((await byCode(o.code, 'decline')).status).toBe(200);
    expect(await at('19:00')).toMatchObject({ available: true });
  });
});

describe('the public by-code operations', () => {
  it('GET shows the guest their entry without contact details or staff notes', async () => {
    const place = await newPlace();
    const e = await joined(place, { notes: 'VIP' });
    const out = await byCode(e.code);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toEqual({
      id: e.id,
      code: e.code,
      locationId: place.id,
      status: 'waiting',
      partySize: 2,
      desiredDate: date,
      windowStart: '18:00',
      windowEnd: '21:00',
      guestName: 'Wim Waiting',
      offer: null,
      bookingId: null,
    });
    expectRefused(await byCode('AAAAAAAA', undefined, missFrom), 404, 'NOT_FOUND');
    expectRefused(await byCode('short', undefined, missFrom), 400, 'VALIDATION_FAILED');
  });

  it('accept makes the booking with its tab (as a create does) and sends booking.created and waitlist.accepted', async () => {
    const place = await newPlace();
    const o = await offered(place);
    const t0 = since();
    const out = await byCode(o.code, 'accept');
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const bookingId = o.offer!.bookingId ?? out.body.data.bookingId;
    expect(out.body.data).toMatchObject({
      status: 'accepted',
      bookingId,
      booking: {
        id: bookingId,
        status: 'confirmed',
        confirmationCode: expect.stringMatching(CODE),
        tab: { id: expect.any(String) },
      },
    });
    const b = await getBooking(bookingId);
    expect(b).toMatchObject({
      id: bookingId,
      locationId: place.id,
      bookingDate: date,
      startTime: '19:00',
      endTime: '21:00',
      guestCount: 2,
      tableIds: [place.tables[0]!.id],
      guestName: 'Wim Waiting',
      bookingSource: 'waitlist',
      status: 'confirmed',
    });
    expect(b.tab).toEqual({ id: out.body.data.booking.tab.id, tableId: place.tables[0]!.id, status: 'pre_arrival' });
    expect(await eventsOf('booking.created', bookingId, t0)).toHaveLength(1);
    expect((await eventsOf('waitlist.accepted', o.id, t0)).map((ev) => ev.changes)).toEqual([
      { status: 'accepted', bookingId },
    ]);
    // The booking holds the table as any booking does; accepting again answers the same.
    expectRefused(await bookTable(place, place.tables[0]!.id), 409, 'CONFLICT');
    expect((await byCode(o.code, 'accept')).body.data).toEqual(out.body.data);
    expect(await eventsOf('booking.created', bookingId, t0)).toHaveLength(1);
  });

  it('accept without an offer, or after a decline, is 409; nothing is booked', async () => {
    const place = await newPlace();
    const e = await joined(place);
    expectRefused(await byCode(e.code, 'accept'), 409, 'CONFLICT');
    const o = await offered(place);
    expect((await byCode(o.code, 'decline')).body.data.status).toBe('declined');
    expectRefused(await byCode(o.code, 'accept'), 409, 'CONFLICT');
    expectRefused(await byCode('AAAAAAAA', 'accept', missFrom), 404, 'NOT_FOUND');
    const day = await call('GET', `/api/v1/bookings?locationId=${place.id}&bookingDate=${date}`, { key: admin() });
    expect(day.body.data).toEqual([]);
  });

  it('decline frees the table and sends waitlist.declined; it needs an offer', async () => {
    const place = await newPlace();
    const e = await joined(place);
    expectRefused(await byCode(e.code, 'decline'), 409, 'CONFLICT');
    const o = await offered(place);
    const t0 = since();
    const out = await byCode(o.code, 'decline');
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toMatchObject({ status: 'declined' });
    expect((await bookTable(place, place.tables[0]!.id)).status).toBe(200);
    expect(await eventsOf('waitlist.declined', o.id, t0)).toHaveLength(1);
    expectRefused(await byCode('AAAAAAAA', 'decline', missFrom), 404, 'NOT_FOUND');
  });

  it('leave takes the party off the list (an offer held is freed) and sends waitlist.left; leaving twice answers the same', async () => {
    const place = await newPlace();
    const e = await joined(place);
    const t0 = since();
    expect((await byCode(e.code, 'leave')).body.data).toMatchObject({ status: 'left' });
    const o = await offered(place);
    expect((await byCode(o.code, 'leave')).body.data).toMatchObject({ status: 'left' });
    expect((await bookTable(place, place.tables[0]!.id)).status).toBe(200);
    expect((await byCode(o.code, 'leave')).status).toBe(200);
    expect(await eventsOf('waitlist.left', e.id, t0)).toHaveLength(1);
    expect(await eventsOf('waitlist.left', o.id, t0)).toHaveLength(1);
    expectRefused(await offer(e.id, offerBody(place, { tableIds: [place.tables[1]!.id] })), 409, 'CONFLICT');
    expectRefused(await byCode('AAAAAAAA', 'leave', missFrom), 404, 'NOT_FOUND');
  });
});

describe('a waitlist accept racing a normal booking for the same last table', () => {
  const ROUNDS = 8;

  /**
   * One round at a location of one table: the waitlist side (the offer and its accept, or the
   * accept alone of an offer made before) fired with a create of the same table and time. Exactly
   * one wins; the day holds exactly its booking; the entry says which. Answers the winner.
   */
  async function round(n: number, offerFirst: boolean): Promise<'waitlist' | 'booking'> {
    const place = await newPlace({ bufferMinutes: 0 }, 1);
    const table = place.tables[0]!.id;
    const e = await joined(place);
    if (offerFirst) expect((await offer(e.id, offerBody(place))).status).toBe(200);
    const viaWaitlist = async (): Promise<Answer> => {
      if (offerFirst) return byCode(e.code, 'accept');
      const o = await offer(e.id, offerBody(place));
      return o.status === 200 ? byCode(e.code, 'accept') : o;
    };
    const direct = () => bookTable(place, table, '19:00');
    const [w, b]: [Answer, Answer] =
      n % 2 === 0
        ? await Promise.all([viaWaitlist(), direct()])
        : await Promise.all([direct(), viaWaitlist()]).then(([x, y]) => [y, x]);
    expect(
      [w.status, b.status].filter((s) => s === 200),
      `round ${n}: ${JSON.stringify([w.body, b.body])}`,
    ).toHaveLength(1);
    for (const lost of [w, b].filter((a) => a.status !== 200))
      expect(lost.body).toMatchObject({ status: 'error', error: { code: 'CONFLICT' } });
    const day = await call('GET', `/api/v1/bookings?locationId=${place.id}&bookingDate=${date}`, { key: admin() });
    expect(day.body.data, `round ${n}`).toHaveLength(1);
    const entry = (await call('GET', `${base}/${e.id}`, { key: admin() })).body.data;
    if (w.status === 200) {
      expect(day.body.data[0]).toMatchObject({ id: w.body.data.bookingId, bookingSource: 'waitlist' });
      expect(entry).toMatchObject({ status: 'accepted', bookingId: w.body.data.bookingId });
      return 'waitlist';
    }
    expect(day.body.data[0]).toMatchObject({ id: b.body.data.id, guestName: 'Normal Booker' });
    expect(entry).toMatchObject(
      offerFirst ? { status: 'offered', version: 2 } : { status: 'waiting', offer: null, version: 1 },
    );
    return 'booking';
  }

  it(`offer then accept against a create: exactly one has the table, whichever is first (${ROUNDS} rounds)`, {
    timeout: 240_000,
  }, async () => {
    const winners = [];
    for (let n = 0; n < ROUNDS; n++) winners.push(await round(n, false));
    expect(winners).toHaveLength(ROUNDS);
  });

  it(`the accept of a held offer against a create: the hold decides, the accept wins every round (${ROUNDS} rounds)`, {
    timeout: 240_000,
  }, async () => {
    const winners = [];
    for (let n = 0; n < ROUNDS; n++) winners.push(await round(n, true));
    expect(winners).toEqual(Array(ROUNDS).fill('waitlist'));
  });
});
