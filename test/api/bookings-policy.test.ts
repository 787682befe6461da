/**
 * The selling policy over HTTP (docs/optimizer.md, "The selling policy"): off by default; on, it
 * counts each date's requests, seated or refused, and stays neutral until two past same weekdays
 * have demand; then, on a date forecast to be asked for more than it seats, availability marks
 * `selling_policy` the times it would decline for a party, a create without tables for such a time
 * is refused with a 409 naming the policy (nothing written but the request counted), and a party
 * worth the seats is taken. Turned off, the same request is taken.
 */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { admin, bookingBody, dayAhead, sellingFloor } from './bookings-helpers';

type Place = Awaited<ReturnType<typeof sellingFloor>>;

async function slotAt(locationId: number, date: string, partySize: number, time: string) {
  const out = await call('GET', `/api/v1/locations/${locationId}/availability?date=${date}&partySize=${partySize}`, {
    key: admin(),
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return (out.body.data.slots as { time: string; available: boolean; reason?: string }[]).find((s) => s.time === time);
}

const ask = (place: Place, bookingDate: string, guestCount: number) =>
  call('POST', '/api/v1/bookings', {
    key: admin(),
    body: bookingBody(place, { bookingDate, startTime: '19:00', tableIds: undefined, guestCount }),
  });

async function bookingsOn(locationId: number, date: string): Promise<number> {
  const out = await call('GET', `/api/v1/bookings?locationId=${locationId}&bookingDate=${date}&limit=100`, {
    key: admin(),
  });
  expect(out.status).toBe(200);
  return out.body.data.length;
}

describe('the selling policy', () => {
  it('is off by default', async () => {
    const out = await call('GET', `/api/v1/locations/${(await sellingFloor([['T1', 1, 4]])).id}/booking-settings`, {
      key: admin(),
    });
    expect(out.body.data.sellingPolicyEnabled).toBe(false);
  });

  it('declines a couple on a four-top at a peak its history sells to foursomes, takes a foursome, and refuses nothing when off', async () => {
    // Five four-tops; two past Saturdays (two and one week before the date) each asked for fifteen foursomes at 19:00.
    const place = await sellingFloor(
      ['F1', 'F2', 'F3', 'F4', 'F5'].map((n): [string, number, number] => [n, 1, 4]),
      { sellingPolicyEnabled: true },
    );
    const [first, second, date] = [dayAhead(20), dayAhead(27), dayAhead(34)];
    for (const past of [first, second]) {
      const answers = [];
      for (let i = 0; i < 15; i++) answers.push((await ask(place, past, 4)).status);
      // Neutral without two weeks of history: five seated, ten refused for want of a table (and counted).
      expect(answers.filter((s) => s === 200)).toHaveLength(5);
      expect(answers.filter((s) => s === 409)).toHaveLength(10);
    }
    expect(await slotAt(place.id, date, 2, '19:00')).toMatchObject({ available: false, reason: 'selling_policy' });
    expect(await slotAt(place.id, date, 4, '19:00')).toMatchObject({ available: true });

    const declined = await ask(place, date, 2);
    expect(declined.status, JSON.stringify(declined.body)).toBe(409);
    expect(declined.body.error.code).toBe('CONFLICT');
    expect(declined.body.error.message).toMatch(/^Declined by the selling policy/);
    expect(await bookingsOn(place.id, date)).toBe(0);
    expect((await ask(place, date, 4)).status).toBe(200);

    // Off: the same couple is taken.
    const off = await call('PUT', `/api/v1/locations/${place.id}/booking-settings`, {
      key: admin(),
      body: { sellingPolicyEnabled: false },
    });
    expect(off.status).toBe(200);
    expect(await slotAt(place.id, date, 2, '19:00')).toMatchObject({ available: true });
    expect((await ask(place, date, 2)).status).toBe(200);
    expect(await bookingsOn(place.id, date)).toBe(2);
  });
});
