/**
 * What a careless client is told (docs/api.md, "Errors" and "Text"): one detail per field, the
 * field named and its rule in words (never a regular expression or a schema keyword); control
 * characters refused in names and free text; a body whose bytes are not UTF-8 refused, nothing
 * stored in its place. The sweep of every field is test/unit/text-sweep.test.ts; these are the cases over HTTP.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { admin, bookingBody, dayAhead, expectRefused, newPlace } from './bookings-helpers';
import { newLocation, useOwnCompany } from './setup-helpers';

useOwnCompany('Error texts company');

const createBooking = (body: unknown) => call('POST', '/api/v1/bookings', { key: admin(), body });
const bookingsAt = async (locationId: number) =>
  (await call('GET', `/api/v1/bookings?locationId=${locationId}`, { key: admin() })).body.data;
/** The answer's text as a whole: what must never show a pattern. */
const noPatternIn = (out: { body: unknown }) => {
  const text = JSON.stringify(out.body);
  expect(text).not.toMatch(/must match|pattern|\^|\$"|anyOf|must be equal to constant/);
};

describe('error details in words, one per field', () => {
  it('answers a bad optional email with one detail naming the field and the rule', async () => {
    const place = await newPlace({}, 1);
    const out = await createBooking(bookingBody(place, { guestEmail: 'not-an-email' }));
    expectRefused(out, 400, 'VALIDATION_FAILED');
    expect(out.body.error.details).toEqual([
      { path: '/guestEmail', message: 'must be an email address (e.g. ada@example.com)' },
    ]);
    expect(await bookingsAt(place.id)).toEqual([]);
  });

  it('answers a bad date and a bad time in words, never with the regular expression', async () => {
    const place = await newPlace({}, 1);
    for (const bookingDate of ['2026-13-45', 'tomorrow', '18/12/2026']) {
      const out = await createBooking(bookingBody(place, { bookingDate }));
      expect(out.body.error.details, bookingDate).toEqual([
        { path: '/bookingDate', message: 'must be a date YYYY-MM-DD (a real day)' },
      ]);
      noPatternIn(out);
    }
    const time = await createBooking(bookingBody(place, { startTime: '7pm' }));
    expect(time.body.error.details).toEqual([{ path: '/startTime', message: 'must be a time HH:MM (00:00-23:59)' }]);
    noPatternIn(time);
    const list = await call('GET', '/api/v1/bookings?bookingDate=2026-1-1', { key: admin() });
    expect(list.body.error.details).toEqual([
      { path: '/bookingDate', message: expect.stringMatching(/^must be a date/) },
    ]);
    noPatternIn(list);
  });

  it('answers a path id that is not a UUID (GET /api/v1/bookings/rsvp) with the field and "must be a UUID"', async () => {
    const out = await call('GET', '/api/v1/bookings/rsvp', { key: admin() });
    expectRefused(out, 400, 'VALIDATION_FAILED');
    expect(out.body.error.details).toEqual([{ path: '/id', message: expect.stringMatching(/^must be a UUID/) }]);
    noPatternIn(out);
  });

  it('lists the accepted values of a choice once, and says "or null" of a nullable field', async () => {
    const place = await newPlace({}, 1);
    const strategy = await createBooking(bookingBody(place, { defaultTabStrategy: 'both' }));
    expect(strategy.body.error.details).toEqual([
      { path: '/defaultTabStrategy', message: 'must be one of "single", "per_resource"' },
    ]);
    const notes = await createBooking(bookingBody(place, { specialRequests: 5 }));
    expect(notes.body.error.details).toEqual([{ path: '/specialRequests', message: 'must be a string or null' }]);
  });

  it('says a start in the past is in the past, not "at least 0 hours ahead"', async () => {
    const place = await newPlace({}, 1);
    const out = await createBooking(bookingBody(place, { bookingDate: dayAhead(-1) }));
    expectRefused(out, 422, 'UNPROCESSABLE', '/startTime');
    expect(JSON.stringify(out.body)).not.toContain('0 hours');
  });
});

describe('control characters in names and free text', () => {
  it('refuses NUL, ESC, DEL and C1 in names of guests, bookings, locations and tables (400 on the field, nothing stored)', async () => {
    const place = await newPlace({}, 1);
    for (const c of ['\u0000', '\u001b', '\u007f', '\u0085']) {
      const guest = await call('POST', '/api/v1/users/guests', {
        key: admin(),
        body: { name: `Ada${c}Lovelace`, email: 'ada.control@example.com' },
      });
      expectRefused(guest, 400, 'VALIDATION_FAILED', '/name');
      expect(guest.body.error.details[0].message).toContain('control characters');
      expectRefused(
        await createBooking(bookingBody(place, { guestName: `Ada${c}` })),
        400,
        'VALIDATION_FAILED',
        '/guestName',
      );
      expectRefused(
        await call('PATCH', `/api/v1/locations/${place.id}`, { key: admin(), body: { name: `Bistro${c}` } }),
        400,
        'VALIDATION_FAILED',
        '/name',
      );
      expectRefused(
        await call('POST', `/api/v1/locations/${place.id}/tables`, {
          key: admin(),
          body: { name: `T${c}9`, minCapacity: 1, maxCapacity: 2 },
        }),
        400,
        'VALIDATION_FAILED',
        '/name',
      );
    }
    expect(await bookingsAt(place.id)).toEqual([]);
    const search = await call('GET', '/api/v1/users/search?q=ada.control', { key: admin() });
    expect(search.body.data ?? []).toEqual([]);
  });

  it('keeps tab and line breaks in multi-line notes, and refuses them in a name', async () => {
    const place = await newPlace({}, 1);
    const out = await createBooking(
      bookingBody(place, { specialRequests: 'Window seat\nHigh chair\tplease', internalNotes: 'Regular\r\nVIP' }),
    );
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data.specialRequests).toBe('Window seat\nHigh chair\tplease');
    expectRefused(
      await createBooking(bookingBody(place, { guestName: 'Ada\nLovelace' })),
      400,
      'VALIDATION_FAILED',
      '/guestName',
    );
    expectRefused(
      await createBooking(bookingBody(place, { specialRequests: 'Window\u0000seat' })),
      400,
      'VALIDATION_FAILED',
      '/specialRequests',
    );
  });
});

describe('a body that is not UTF-8', () => {
  /** POSTs raw bytes as a JSON body (fetch would encode a string as UTF-8). */
  const postBytes = async (path: string, ...parts: (string | number[])[]) => {
    const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
    return call('POST', path, {
      key: admin(),
      headers: { 'Content-Type': 'application/json' },
      rawBody: new Uint8Array(bytes),
    });
  };

  it('refuses invalid UTF-8 in a JSON string with 400 and stores nothing (no U+FFFD in its place)', async () => {
    const location = await newLocation('Bytes bistro');
    const name = `Bytes ${Date.now()}`;
    for (const bad of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80]]) {
      const out = await postBytes(
        `/api/v1/locations/${location.id}/tables`,
        `{"name":"${name}`,
        bad,
        '","minCapacity":1,"maxCapacity":2}',
      );
      expectRefused(out, 400, 'VALIDATION_FAILED', '/');
      expect(out.body.error.message).toBe('The body is not valid UTF-8');
    }
    const tables = await call('GET', `/api/v1/locations/${location.id}/tables`, { key: admin() });
    expect(tables.body.data).toEqual([]);
    // The same request in UTF-8 (an emoji of four bytes included) is taken.
    const ok = await postBytes(
      `/api/v1/locations/${location.id}/tables`,
      `{"name":"${name} `,
      [0xf0, 0x9f, 0x8d, 0xb7],
      '","minCapacity":1,"maxCapacity":2}',
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.name).toBe(`${name} 🍷`);
  });

  it('refuses a lone surrogate escaped in JSON (\\ud800), which is no character', async () => {
    const location = await newLocation('Surrogate bistro');
    const out = await postBytes(
      `/api/v1/locations/${location.id}/tables`,
      '{"name":"T\\ud800","minCapacity":1,"maxCapacity":2}',
    );
    expectRefused(out, 400, 'VALIDATION_FAILED', '/name');
  });
});
