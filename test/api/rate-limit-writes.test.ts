/**
 * A refused request writes nothing, even when its operation reads before it writes: the rate
 * window is counted beside those reads, and the write waits for its verdict.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { exhaustRateWindow, testKey } from '../support/stage-data';
import { admin, book, eventsOf, getBooking, newPlace } from './bookings-helpers';
import { seededLocation } from './setup-helpers';

let exhausted: string;

beforeAll(async () => {
  exhausted = await testKey(1, {
    tier: 'standard',
    permissions: ['coursings.read', 'coursings.update', 'bookings.read', 'bookings.update'],
    name: 'exhausted key',
  });
  await exhaustRateWindow(exhausted);
});

const expectRateLimited = (answer: { status: number; body: unknown; headers: Headers }) => {
  expect(answer.status).toBe(429);
  expect(answer.body).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED' } });
  expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
};

describe('a write refused by the rate window', () => {
  it('leaves a coursing as it was (PUT reads the coursing first)', async () => {
    const { locationId } = seededLocation(0);
    const made = await call('POST', '/api/v1/coursings', {
      key: admin(),
      body: { locationId, title: 'Before the limit', order: 42 },
    });
    expect(made.status).toBe(200);
    const since = new Date().toISOString();

    expectRateLimited(
      await call('PUT', `/api/v1/coursings/${made.body.data.id}`, {
        key: exhausted,
        body: { title: 'Over the limit', order: 43 },
      }),
    );

    const listed = await call('GET', `/api/v1/coursings?locationId=${locationId}&limit=100`, { key: admin() });
    expect(listed.body.data.find((c: { id: string }) => c.id === made.body.data.id)).toEqual(made.body.data);
    expect(await eventsOf('coursing.updated', made.body.data.id, since)).toEqual([]);
  });

  it('leaves a booking as it was (a move reads the booking, the settings, the tables and their holds first)', async () => {
    const place = await newPlace({ bufferMinutes: 0 });
    const booking = await book(place, { startTime: '18:00', endTime: '20:00' });
    const since = new Date().toISOString();

    expectRateLimited(
      await call('PATCH', `/api/v1/bookings/${booking.id}`, {
        key: exhausted,
        body: { startTime: '20:00', guestCount: 4 },
      }),
    );

    expect(await getBooking(booking.id)).toEqual(booking);
    expect(await eventsOf('booking.updated', booking.id, since)).toEqual([]);
    // The table's holds were not moved either: the slot the move would have taken is still free.
    await book(place, { startTime: '20:00', endTime: '22:00', guestName: 'Grace Hopper' });
  });
});
