/**
 * Guessing codes over HTTP (docs/access.md, “Codes”): the by-code operations count in the client
 * IP's window at the standard tier whatever credential is sent; a client's failed lookups have a
 * budget of their own, over which every by-code request of that client answers 429; new codes are
 * 18 characters; codes of 8 characters issued before still work. Every request whose count is
 * asserted comes from a client address of its own (`newClientAddress`), never 127.0.0.1.
 */
import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CODE_MISSES_PER_HOUR } from '../../shared/domain/rateWindow';
import { CONFIRMATION_ALPHABET } from '../../shared/schemas/confirmationCode';
import { call, company, inOneRateWindow, newClientAddress, type Answer } from '../support/http';
import { giveLegacyCode, testKey } from '../support/stage-data';
import { admin, book, dayAhead, expectRefused, getBooking, newPlace, type Place } from './bookings-helpers';

let place: Place;
beforeAll(async () => {
  place = await newPlace();
});

let day = 20;
const booking = () => book(place, { bookingDate: dayAhead(day++) });

/** A waitlist entry at the test's place (its answer as the API gives it). */
const joinWaitlist = (guestName: string, guestEmail: string) =>
  call('POST', '/api/v1/booking-waitlist', {
    key: admin(),
    body: {
      locationId: place.id,
      partySize: 2,
      desiredDate: dayAhead(9),
      windowStart: '18:00',
      windowEnd: '21:00',
      guestName,
      guestEmail,
    },
  });

const members = (code: string, options: { key?: string; from: string }) =>
  call('GET', `/api/v1/bookings/by-code/${code}/members`, options);
const cancel = (code: string, from: string) => call('POST', `/api/v1/bookings/by-code/${code}/cancel`, { from });
const waitlistEntry = (code: string, from: string) => call('GET', `/api/v1/booking-waitlist/by-code/${code}`, { from });
const rsvp = (confirmationCode: string, from: string) =>
  call('POST', '/api/v1/bookings/rsvp', {
    body: { confirmationCode, guestName: 'Guess', guestEmail: 'guess@example.com', rsvpStatus: 'accepted' },
    from,
  });

const remaining = (a: Answer) => a.headers.get('x-ratelimit-remaining');
const randomCode = (length: number) =>
  Array.from({ length }, () => CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)]).join('');

describe("the client IP's public window", () => {
  it("counts a company's unlimited key on a by-code operation in the client IP's window at the standard tier, not in the key's", async () => {
    const b = await booking();
    const { answers } = await inOneRateWindow(async () => {
      const from = newClientAddress();
      const key = await testKey(company(1).companyId, { tier: 'unlimited', permissions: ['locations.read'] });
      const own = () => call('GET', '/api/v1/locations?limit=1', { key, from });
      return {
        answers: [
          await own(),
          await members(b.confirmationCode, { key, from }),
          await members(b.confirmationCode, { from }),
          await call('POST', `/api/v1/bookings/by-code/${randomCode(18)}/cancel`, { key, from }),
          await own(),
        ],
      };
    });
    const [keyed, withKey, anonymous, cancelWithKey, keyedAgain] = answers;
    expect(keyed!.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(remaining(keyed!)).toBe('99999');
    // The by-code answers show the public tier and the client IP's count, key or no key.
    expect(withKey!.status).toBe(200);
    expect([withKey, anonymous, cancelWithKey].map((a) => a!.headers.get('x-ratelimit-limit'))).toEqual([
      '1000',
      '1000',
      '1000',
    ]);
    expect([withKey, anonymous].map((a) => remaining(a!))).toEqual(['999', '998']);
    // The cancel is another function, another container: its count is the window's as leased, low
    // by at most what the first holds unspent of its block (docs/api.md, "How the window is counted").
    expect(Number(remaining(cancelWithKey!))).toBeGreaterThanOrEqual(995);
    expect(Number(remaining(cancelWithKey!))).toBeLessThanOrEqual(997);
    // The key's own window did not count them.
    expect(remaining(keyedAgain!)).toBe('99998');
  });
});

describe('the budget of failed lookups', () => {
  it(`refuses a client's by-code requests with 429 after ${CODE_MISSES_PER_HOUR} failed lookups, a correct code too, while another client is served`, async () => {
    const b = await booking();
    const entry = (await joinWaitlist('Wanda Waiting', 'wanda@example.com')).body.data;
    const run = await inOneRateWindow(async () => {
      const guesser = newClientAddress();
      // Found codes spend nothing of the budget.
      const found = [
        await members(b.confirmationCode, { from: guesser }),
        await waitlistEntry(entry.code, guesser),
        await members(b.confirmationCode, { key: admin(), from: guesser }),
      ];
      // Unknown codes of either length, and codes that are not codes at all, on every kind of by-code operation.
      const guesses = [
        (i: number) => members(randomCode(i % 2 ? 8 : 18), { from: guesser }),
        (i: number) => cancel(i % 2 ? randomCode(18) : 'not-a-code', guesser),
        (i: number) => waitlistEntry(randomCode(i % 2 ? 18 : 8), guesser),
        (i: number) => rsvp(i % 2 ? randomCode(18) : 'abc', guesser),
        () => members(randomCode(18), { key: admin(), from: guesser }),
      ];
      const misses: Answer[] = [];
      for (let i = 0; i < CODE_MISSES_PER_HOUR; i++) misses.push(await guesses[i % guesses.length]!(i));
      const refused = [
        await members(randomCode(18), { from: guesser }),
        await members(b.confirmationCode, { from: guesser }),
        await members(b.confirmationCode, { key: admin(), from: guesser }),
        await cancel(b.confirmationCode, guesser),
        await waitlistEntry(entry.code, guesser),
      ];
      const elsewhere = await members(b.confirmationCode, { from: newClientAddress() });
      return { found, misses, refused, elsewhere, answers: [...found, ...misses, ...refused, elsewhere] };
    });

    expect(run.found.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(run.misses.map((a) => a.status).every((s) => s === 404 || s === 400)).toBe(true);
    for (const out of run.refused) {
      expectRefused(out, 429, 'RATE_LIMITED');
      expect(out.body.error.message).toBe(
        `More than ${CODE_MISSES_PER_HOUR} lookups of unknown codes from this address this hour: no code is looked up for it until the hour ends`,
      );
      const retryAfter = Number(out.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(out.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    // The refused cancel wrote nothing.
    expect((await getBooking(b.id)).status).toBe(b.status);
    // Another client holding the code is served.
    expect(run.elsewhere.status).toBe(200);
    expect(run.elsewhere.body.data).toEqual([]);
  });

  it('counts concurrent guesses: no more misses get through than the budget holds', async () => {
    const { answers } = await inOneRateWindow(async () => {
      const guesser = newClientAddress();
      return {
        answers: await Promise.all(
          Array.from({ length: CODE_MISSES_PER_HOUR + 10 }, () => members(randomCode(18), { from: guesser })),
        ),
      };
    });
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(CODE_MISSES_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });
});

describe('code lengths', () => {
  it('issues codes of 18 characters to bookings and waitlist entries', async () => {
    const b = await booking();
    expect(b.confirmationCode).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{18}$/);
    const entry = await joinWaitlist('Lena Long', 'lena@example.com');
    expect(entry.status, JSON.stringify(entry.body)).toBe(200);
    expect(entry.body.data.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{18}$/);
  });

  it('keeps serving a booking whose 8-character code was issued before', async () => {
    const b = await booking();
    const legacy = randomCode(8);
    await giveLegacyCode(company(1).companyId, b.id, legacy);
    const from = newClientAddress();
    const party = await members(legacy, { from });
    expect(party.status, JSON.stringify(party.body)).toBe(200);
    const staff = await call('GET', `/api/v1/bookings?confirmationCode=${legacy}`, { key: admin() });
    expect(staff.status, JSON.stringify(staff.body)).toBe(200);
    expect(staff.body.data.map((x: { id: string }) => x.id)).toEqual([b.id]);
    const out = await cancel(legacy, from);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data).toMatchObject({ id: b.id, confirmationCode: legacy, status: 'cancelled' });
    // The code it was made with is gone with the change.
    expectRefused(await members(b.confirmationCode, { from }), 404, 'NOT_FOUND');
  });
});
