/**
 * What a guest is offered online is what they can book (docs/online-booking.md, docs/availability.md),
 * through the public path alone: on generated days, half full and busy (a floor of mixed tables filled by staff
 * bookings without tables, so automatic assignment and re-seating placed them), every time the
 * publishable key's availability offers is booked by a guest's create, and every time it lists as
 * full is refused by it (409). Each booking made is cancelled by its code before the next time is
 * asked, so each answer is judged against the floor it was given on.
 */
import { describe, expect, it } from 'vitest';
import { admin, dayAhead, sellingFloor } from './bookings-helpers';
import { seeded } from '../../shared/domain/bookings/optimizer';
import { call, newClientAddress } from '../support/http';

const PAGE = 'https://www.agreement.example';

describe('online availability agrees with the online create', () => {
  it('on a half-full day and a busy one: every time offered is booked, every full time is refused', async () => {
    const floor = await sellingFloor([
      ['T1', 1, 2],
      ['T2', 1, 2],
      ['T3', 2, 4],
      ['T4', 2, 4],
      ['T5', 3, 6],
      ['T6', 4, 8],
    ]);
    // Two days, one half full and one busy: staff bookings without tables at random times of the
    // evening, refused ones skipped.
    const days = [
      { date: dayAhead(30), seed: 20_261_207, asked: 12 },
      { date: dayAhead(31), seed: 20_261_208, asked: 40 },
    ];
    let staffBooked = 0;
    for (const { date, seed, asked } of days) {
      const next = seeded(seed);
      for (let i = 0; i < asked; i++) {
        const hour = 17 + Math.floor(next() * 4);
        const minute = next() < 0.5 ? '00' : '30';
        const made = await call('POST', '/api/v1/bookings', {
          key: admin(),
          body: {
            locationId: floor.id,
            bookingDate: date,
            startTime: `${hour}:${minute}`,
            guestCount: 1 + Math.floor(next() * 6),
            guestName: `Busy ${i}`,
          },
        });
        if (made.status === 200) staffBooked++;
        else expect(made.status, JSON.stringify(made.body)).toBe(409);
      }
    }
    expect(staffBooked).toBeGreaterThanOrEqual(12);

    const key = (
      await call('POST', '/api/v1/api-keys', {
        key: admin(),
        body: { name: 'Agreement', publishable: true, allowedOrigins: [PAGE], locationIds: [floor.id] },
      })
    ).body.data.key as string;
    const headers = { Origin: PAGE };
    // a client address of its own: its window is this test's alone (test/support/http.ts)
    const from = newClientAddress();
    const timesFor = async (date: string, partySize: number) =>
      (
        await call('GET', `/api/v1/online/locations/${floor.id}/availability?date=${date}&partySize=${partySize}`, {
          key,
          headers,
          from,
        })
      ).body.data.slots as { time: string; available: boolean; waitlist: boolean }[];

    const judged = { offered: 0, full: 0 };
    const disagreements: string[] = [];
    for (const { date } of days)
      for (const partySize of [2, 4, 6]) {
        const times = (await timesFor(date, partySize)).map((s) => s.time);
        for (const time of times) {
          // asked afresh: the floor is the one the create meets
          const slot = (await timesFor(date, partySize)).find((s) => s.time === time)!;
          const made = await call('POST', '/api/v1/online/bookings', {
            key,
            headers,
            // each from an address of its own: a client may make 20 an hour (docs/online-booking.md, "Abuse")
            from: newClientAddress(),
            body: {
              locationId: floor.id,
              bookingDate: date,
              startTime: time,
              guestCount: partySize,
              guestName: 'Agreeing Guest',
              guestEmail: `agree-${floor.id}@example.com`,
            },
          });
          if (slot.available) judged.offered++;
          else judged.full++;
          const accepted = made.status === 200;
          if (accepted !== slot.available || (!accepted && made.status !== 409))
            disagreements.push(`${partySize} on ${date} at ${time}: offered ${slot.available}, create ${made.status}`);
          if (accepted) {
            const code = made.body.data.confirmationCode as string;
            const cancelled = await call('POST', `/api/v1/bookings/by-code/${code}/cancel`, { from });
            expect(cancelled.status).toBe(200);
          }
        }
      }
    console.log(`online agreement: ${JSON.stringify(judged)} slots judged, ${staffBooked} staff bookings`);
    expect(disagreements).toEqual([]);
    // the day is busy enough to judge both ways
    expect(judged.offered).toBeGreaterThan(0);
    expect(judged.full).toBeGreaterThan(0);
  });
});
