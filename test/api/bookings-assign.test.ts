/**
 * Automatic assignment over HTTP (docs/bookings.md "Automatic assignment"): a
 * booking created without tables gets the set that keeps the most of the evening sellable; none
 * free answers 409 with the next available times and writes nothing; a walk-in without tables is
 * seated at a free table, or refused; the race for the last table has exactly one winner; with
 * autoOptimizeEnabled a change re-optimizes the rest of the date, never moving a locked booking.
 * Re-seating before refusing: a party no free table seats is seated by moving unlocked, unseated
 * bookings (fewest moves, booking.updated each), and two such creates at once both succeed only when
 * a joint seating exists.
 * Availability equals create: a time availability offers is one a create without tables takes (a
 * grid of combinable two-tops), and one it shows `closed` is refused (422, nothing written).
 */
import { describe, expect, it } from 'vitest';
import { call, type Answer } from '../support/http';
import {
  admin,
  book,
  bookingBody,
  dayAhead,
  eventsOf,
  expectRefused,
  getBooking,
  every,
  sellingFloor,
  walkInToday,
} from './bookings-helpers';
import { newLocation, newTable } from './setup-helpers';
import type { Schemas } from '../support/client';

const date = dayAhead(14);
const evening = { bookingDate: date, startTime: '19:00', endTime: '21:00' };
const create = (body: Record<string, unknown>) => call('POST', '/api/v1/bookings', { key: admin(), body });

/** Every booking of the location on the date (one page is enough for these floors). */
async function bookingsOn(locationId: number, day = date): Promise<Schemas['Booking'][]> {
  const out = await call('GET', `/api/v1/bookings?locationId=${locationId}&bookingDate=${day}&limit=100`, {
    key: admin(),
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}

describe('POST /api/v1/bookings without tables', () => {
  it('assigns the set that keeps the evening sellable: a couple takes the four-top, a party of six the eight-top', async () => {
    const place = await sellingFloor([
      ['T4', 1, 4],
      ['T8', 1, 8],
    ]);
    const since = new Date().toISOString();
    const couple = await book(place, { ...evening, tableIds: undefined, guestCount: 2 });
    expect(couple).toMatchObject({ tableIds: [place.table('T4')], tableId: place.table('T4') });
    const six = await book(place, { ...evening, tableIds: [], guestCount: 6 });
    expect(six.tableIds).toEqual([place.table('T8')]);
    // Stored as answered, the tab at the table, and the event carries the tables.
    expect(await getBooking(couple.id)).toMatchObject({
      tableIds: [place.table('T4')],
      tab: { tableId: place.table('T4') },
    });
    const [created] = await eventsOf('booking.created', couple.id, since);
    expect(created!.data).toMatchObject({ tableIds: [place.table('T4')] });
    // The tables are held: the same four-top cannot be booked at that time by name.
    expectRefused(
      await create(bookingBody(place, { ...evening, tableIds: [place.table('T4')] })),
      409,
      'CONFLICT',
      '/tableIds/0',
    );
  });

  it('answers 409 when no table fits, naming the next available times in details, and writes nothing', async () => {
    // Stays of 90 minutes in hours closing at 23:00: after a dinner 19:00-21:00 and its buffer, 21:15 and 21:30 are left.
    const place = await sellingFloor([['T1', 1, 4]], { bufferMinutes: 15, defaultDurationMinutes: 90 });
    await book(place, { ...evening, tableIds: [place.table('T1')] });
    const out = await create(bookingBody(place, { ...evening, tableIds: undefined }));
    expectRefused(out, 409, 'CONFLICT', '/startTime');
    expect(out.body.error.message).toMatch(/^No availability: .* next available: 21:15/);
    expect(
      out.body.error.details.slice(1).map((d: { message: string }) => d.message.slice(0, 'available at 21:15'.length)),
    ).toEqual(['available at 21:15', 'available at 21:30']);
    // A party too large for every table is refused the same way, with nothing to offer.
    const large = await create(
      bookingBody(place, { ...evening, startTime: '17:00', endTime: '18:00', tableIds: [], guestCount: 7 }),
    );
    expectRefused(large, 409, 'CONFLICT');
    expect(large.body.error.message).toMatch(/nothing later that day/);
    expect((await bookingsOn(place.id)).map((b) => b.tableIds)).toEqual([[place.table('T1')]]);
  });

  it('takes the booking without a table while the overbooking buffer has room, then refuses', async () => {
    // One four-top: a buffer of 50 % is 2 seats beyond the tables.
    const place = await sellingFloor([['T1', 1, 4]], { overbookingBufferPercentage: 50 });
    await book(place, { ...evening, tableIds: [place.table('T1')] });
    const over = await book(place, { ...evening, tableIds: [], guestCount: 2 });
    expect(over.tableIds).toEqual([]);
    expectRefused(
      await create(bookingBody(place, { ...evening, tableIds: [], guestCount: 2 })),
      409,
      'CONFLICT',
      '/startTime',
    );
    expect(await bookingsOn(place.id)).toHaveLength(2);
  });

  it('seats a walk-in without tables at a free table in one call; when none is free, 409 and nothing written', async () => {
    const place = await sellingFloor([['T1', 1, 4]]);
    const now = {
      ...walkInToday(),
      guestName: undefined,
      seatImmediately: true,
    };
    const walkIn = await book(place, { ...now, tableIds: undefined, guestCount: 3 });
    expect(walkIn).toMatchObject({
      status: 'seated',
      tableIds: [place.table('T1')],
      tab: { status: 'open', tableId: place.table('T1') },
    });
    expect(walkIn).not.toHaveProperty('seatWarning');
    const refused = await create(bookingBody(place, { ...now, tableIds: undefined, guestCount: 2 }));
    expectRefused(refused, 409, 'CONFLICT', '/guestCount');
    expect(refused.body.error.message).toMatch(/free now/);
    expect(await bookingsOn(place.id, dayAhead(0))).toHaveLength(1);
  });
});

describe('the race for the last table', () => {
  it('20 creates without tables at once for the last fitting table: exactly one 200, the others 409, one booking on it', async () => {
    const place = await sellingFloor([
      ['T1', 1, 4],
      ['T2', 1, 4],
    ]);
    const first = await book(place, { ...evening, tableIds: [place.table('T1')] });
    const answers: Answer[] = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        create(bookingBody(place, { ...evening, tableIds: undefined, guestName: `Racer ${i}` })),
      ),
    );
    const winners = answers.filter((a) => a.status === 200);
    expect(winners, JSON.stringify(answers.map((a) => [a.status, a.body.error?.message]))).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectRefused(a, 409, 'CONFLICT');
    const winner = winners[0]!.body.data;
    expect(winner.tableIds).toEqual([place.table('T2')]);
    // The end state: the first booking and the winner, one on each table, nothing of the losers.
    const stored = await bookingsOn(place.id);
    expect(stored.map((b) => b.id).sort()).toEqual([first.id, winner.id].sort());
    expect(stored.filter((b) => b.tableIds.includes(place.table('T2'))).map((b) => b.id)).toEqual([winner.id]);
  }, 120_000);
});

/** The slot of `time` of the location's availability for the party on the date. */
async function slotAt(locationId: number, partySize: number, time: string) {
  const out = await call('GET', `/api/v1/locations/${locationId}/availability?date=${date}&partySize=${partySize}`, {
    key: admin(),
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data.slots.find((s: { time: string }) => s.time === time);
}

/** No two of the bookings hold a table at clashing times (all of them 19:00-21:00 here). */
const noTableTwice = (stored: Schemas['Booking'][]) => {
  const tables = stored.flatMap((b) => b.tableIds);
  expect(new Set(tables).size, JSON.stringify(stored.map((b) => [b.guestCount, b.tableIds]))).toBe(tables.length);
};

describe('re-seating before refusing', () => {
  it('moves a couple off the only four-top onto the free two-top to seat four: offered, taken, one booking.updated', async () => {
    const place = await sellingFloor([
      ['T2', 1, 2],
      ['T4', 1, 4],
    ]);
    const couple = await book(place, { ...evening, tableIds: [place.table('T4')], guestCount: 2 });
    expect(await slotAt(place.id, 4, '19:00')).toMatchObject({ available: true });
    const since = new Date().toISOString();
    const four = await book(place, { ...evening, tableIds: undefined, guestCount: 4 });
    expect(four.tableIds).toEqual([place.table('T4')]);
    expect(await getBooking(couple.id)).toMatchObject({
      tableIds: [place.table('T2')],
      tab: { tableId: place.table('T2') },
      version: couple.version + 1,
    });
    const updates = await eventsOf('booking.updated', couple.id, since);
    expect(updates).toHaveLength(1);
    expect(updates[0]!.changes).toMatchObject({ tableIds: [place.table('T2')] });
    noTableTwice(await bookingsOn(place.id));
    // Now nothing moves for a third party: availability and create both refuse it.
    expect(await slotAt(place.id, 2, '19:00')).toMatchObject({ available: false, reason: 'no_table_fits' });
    expectRefused(await create(bookingBody(place, { ...evening, tableIds: undefined })), 409, 'CONFLICT', '/startTime');
  });

  it('never moves a locked or a seated booking: availability shows no table, the create is 409, nothing written', async () => {
    for (const hold of ['lock', 'seat'] as const) {
      const place = await sellingFloor([
        ['T2', 1, 2],
        ['T4', 1, 4],
      ]);
      const couple = await book(place, { ...evening, tableIds: [place.table('T4')], guestCount: 2 });
      const held =
        hold === 'lock'
          ? await call('PATCH', `/api/v1/bookings/${couple.id}/lock`, { key: admin(), body: { locked: true } })
          : await call('POST', `/api/v1/bookings/${couple.id}/seat`, { key: admin(), body: {} });
      expect(held.status, JSON.stringify(held.body)).toBe(200);
      expect(await slotAt(place.id, 4, '19:00'), hold).toMatchObject({ available: false, reason: 'no_table_fits' });
      expectRefused(
        await create(bookingBody(place, { ...evening, tableIds: undefined, guestCount: 4 })),
        409,
        'CONFLICT',
        '/startTime',
      );
      const stored = await bookingsOn(place.id);
      expect(
        stored.map((b) => [b.id, b.tableIds]),
        hold,
      ).toEqual([[couple.id, [place.table('T4')]]]);
    }
  });

  it('a move onto a table another booking holds moves that booking to a free table, one booking.updated each; a locked holder stays and the move is 409', async () => {
    for (const holder of ['movable', 'locked'] as const) {
      const place = await sellingFloor([
        ['T2', 1, 2],
        ['T4', 1, 4],
      ]);
      const couple = await book(place, { ...evening, tableIds: [place.table('T4')], guestCount: 2 });
      if (holder === 'locked') {
        const lock = await call('PATCH', `/api/v1/bookings/${couple.id}/lock`, {
          key: admin(),
          body: { locked: true },
        });
        expect(lock.status, JSON.stringify(lock.body)).toBe(200);
      }
      const four = await book(place, {
        bookingDate: date,
        startTime: '17:00',
        endTime: '18:30',
        tableIds: [place.table('T4')],
        guestCount: 4,
      });
      const since = new Date().toISOString();
      const out = await call('PATCH', `/api/v1/bookings/${four.id}`, {
        key: admin(),
        body: { startTime: '19:00', endTime: '21:00' },
      });
      if (holder === 'locked') {
        expectRefused(out, 409, 'CONFLICT', '/tableId');
        expect(await getBooking(four.id)).toMatchObject({ startTime: '17:00', version: four.version });
        expect(await getBooking(couple.id)).toMatchObject({ tableIds: [place.table('T4')] });
        continue;
      }
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect(out.body.data).toMatchObject({ startTime: '19:00', tableIds: [place.table('T4')] });
      expect(await getBooking(couple.id)).toMatchObject({ tableIds: [place.table('T2')], version: couple.version + 1 });
      const [updated] = await eventsOf('booking.updated', couple.id, since);
      expect(updated!.changes).toMatchObject({ tableIds: [place.table('T2')] });
      noTableTwice(await bookingsOn(place.id));
    }
  });

  it('two creates that each need a re-seating, at once: both succeed when a joint seating exists, exactly one when not', async () => {
    for (const round of [1, 2, 3]) {
      // Two two-tops free: both couples can step down, both parties of four sit.
      const roomy = await sellingFloor([
        ['T2a', 1, 2],
        ['T2b', 1, 2],
        ['T4a', 1, 4],
        ['T4b', 1, 4],
      ]);
      for (const t of ['T4a', 'T4b']) await book(roomy, { ...evening, tableIds: [roomy.table(t)], guestCount: 2 });
      const both = await Promise.all(
        [1, 2].map((i) =>
          create(bookingBody(roomy, { ...evening, tableIds: undefined, guestCount: 4, guestName: `Four ${i}` })),
        ),
      );
      expect(
        both.map((a) => a.status),
        `round ${round}: ${JSON.stringify(both.map((a) => a.body.error))}`,
      ).toEqual([200, 200]);
      const stored = await bookingsOn(roomy.id);
      noTableTwice(stored);
      expect(
        stored
          .filter((b) => b.guestCount === 4)
          .flatMap((b) => b.tableIds)
          .sort(),
      ).toEqual([roomy.table('T4a'), roomy.table('T4b')].sort());

      // One two-top free: only one couple can step down, so only one party of four sits.
      const tight = await sellingFloor([
        ['T2', 1, 2],
        ['T4a', 1, 4],
        ['T4b', 1, 4],
      ]);
      for (const t of ['T4a', 'T4b']) await book(tight, { ...evening, tableIds: [tight.table(t)], guestCount: 2 });
      const one = await Promise.all(
        [1, 2].map((i) =>
          create(bookingBody(tight, { ...evening, tableIds: undefined, guestCount: 4, guestName: `Four ${i}` })),
        ),
      );
      expect(one.map((a) => a.status).sort(), `round ${round}`).toEqual([200, 409]);
      const after = await bookingsOn(tight.id);
      noTableTwice(after);
      expect(after.filter((b) => b.guestCount === 4)).toHaveLength(1);
    }
  }, 120_000);
});

describe('autoOptimizeEnabled', () => {
  it('a create re-optimizes the rest of the date: a couple moves from the eight-top to the free four-top, with booking.updated', async () => {
    const place = await sellingFloor(
      [
        ['T4', 1, 4],
        ['T8', 1, 8],
      ],
      { autoOptimizeEnabled: true },
    );
    const couple = await book(place, { ...evening, tableIds: [place.table('T8')], guestCount: 2 });
    const since = new Date().toISOString();
    const trigger = await book(place, {
      bookingDate: date,
      startTime: '17:00',
      endTime: '18:00',
      tableIds: [place.table('T4')],
      guestCount: 3,
    });
    // The booking just made stays where its answer says; the couple moved.
    expect((await getBooking(trigger.id)).tableIds).toEqual([place.table('T4')]);
    expect(await getBooking(couple.id)).toMatchObject({ tableIds: [place.table('T4')], version: couple.version + 1 });
    const [updated] = await eventsOf('booking.updated', couple.id, since);
    expect(updated!.changes).toMatchObject({ tableIds: [place.table('T4')] });
  });

  it("a move, a cancel and a guest's cancel by code re-optimize too: the four-top freed, the couple takes it", async () => {
    for (const change of ['move', 'cancel', 'cancelByCode'] as const) {
      const place = await sellingFloor(
        [
          ['T4', 1, 4],
          ['T8', 1, 8],
        ],
        { autoOptimizeEnabled: true },
      );
      const three = await book(place, { ...evening, tableIds: [place.table('T4')], guestCount: 3 });
      // Made second, the couple is kept where it was put: the four-top is taken then.
      const couple = await book(place, { ...evening, tableIds: [place.table('T8')], guestCount: 2 });
      expect((await getBooking(couple.id)).tableIds).toEqual([place.table('T8')]);
      const out =
        change === 'move'
          ? await call('PATCH', `/api/v1/bookings/${three.id}`, {
              key: admin(),
              body: { startTime: '17:00', endTime: '18:00' },
            })
          : change === 'cancel'
            ? await call('POST', `/api/v1/bookings/${three.id}/cancel`, { key: admin(), body: {} })
            : await call('POST', `/api/v1/bookings/by-code/${three.confirmationCode}/cancel`, { body: {} });
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      expect((await getBooking(couple.id)).tableIds, change).toEqual([place.table('T4')]);
      expect((await getBooking(three.id)).tableIds, change).toEqual([place.table('T4')]);
    }
  });

  it('never moves a locked booking', async () => {
    const place = await sellingFloor(
      [
        ['T4', 1, 4],
        ['T8', 1, 8],
      ],
      { autoOptimizeEnabled: true },
    );
    const couple = await book(place, { ...evening, tableIds: [place.table('T8')], guestCount: 2 });
    const lock = await call('PATCH', `/api/v1/bookings/${couple.id}/lock`, { key: admin(), body: { locked: true } });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    await book(place, {
      bookingDate: date,
      startTime: '17:00',
      endTime: '18:00',
      tableIds: [place.table('T4')],
      guestCount: 3,
    });
    expect(await getBooking(couple.id)).toMatchObject({
      tableIds: [place.table('T8')],
      locked: true,
      version: couple.version + 1,
    });
  });

  it('is off by default: the couple stays on the eight-top', async () => {
    const place = await sellingFloor([
      ['T4', 1, 4],
      ['T8', 1, 8],
    ]);
    const couple = await book(place, { ...evening, tableIds: [place.table('T8')], guestCount: 2 });
    await book(place, {
      bookingDate: date,
      startTime: '17:00',
      endTime: '18:00',
      tableIds: [place.table('T4')],
      guestCount: 3,
    });
    expect(await getBooking(couple.id)).toMatchObject({ tableIds: [place.table('T8')], version: couple.version });
  });
});

describe('availability equals create without tables', () => {
  const availability = async (locationId: number, partySize: number) => {
    const out = await call('GET', `/api/v1/locations/${locationId}/availability?date=${date}&partySize=${partySize}`, {
      key: admin(),
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    return out.body.data.slots as Schemas['AvailabilitySlot'][];
  };
  const at = (slots: Schemas['AvailabilitySlot'][], time: string) => slots.find((s) => s.time === time);

  it('refuses a create at 04:00, which availability shows closed, with 422 on /startTime and writes nothing', async () => {
    const place = await sellingFloor([['T4', 1, 4]]);
    expect(at(await availability(place.id, 2), '04:00')).toMatchObject({ available: false, reason: 'closed' });
    const out = await create(
      bookingBody(place, { bookingDate: date, startTime: '04:00', endTime: undefined, tableIds: [] }),
    );
    expectRefused(out, 422, 'UNPROCESSABLE', '/startTime');
    expect(out.body.error.message).toMatch(/^Outside the booking hours: .*17:00-23:00/);
    // A stay that runs past the close is outside them too; one that ends at the close is taken.
    expectRefused(
      await create(bookingBody(place, { bookingDate: date, startTime: '22:00', endTime: '23:30', tableIds: [] })),
      422,
      'UNPROCESSABLE',
      '/startTime',
    );
    expect(await bookingsOn(place.id)).toEqual([]);
    const inHours = await book(place, { bookingDate: date, startTime: '21:00', endTime: undefined, tableIds: [] });
    expect(inHours.tableIds).toEqual([place.table('T4')]);
  });

  it('on a 4×5 grid of combinable two-tops, seats a couple at every free table availability counts (it was 409 with 14 free)', async () => {
    const location = await newLocation('Grid bistro');
    const grid: string[][] = [];
    for (let r = 0; r < 4; r++) {
      grid.push([]);
      for (let c = 0; c < 5; c++) {
        const partners = [r > 0 ? grid[r - 1]![c] : undefined, c > 0 ? grid[r]![c - 1] : undefined].filter(
          (id): id is string => id !== undefined,
        );
        grid[r]!.push(
          (await newTable(location.id, { name: `G${r}${c}`, minCapacity: 1, maxCapacity: 2, combinableWith: partners }))
            .id,
        );
      }
    }
    const put = await call('PUT', `/api/v1/locations/${location.id}/booking-settings`, {
      key: admin(),
      body: { maxAdvanceDays: 365, operatingHours: every('17:00', '23:00') },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const place = { id: location.id, timezone: 'Europe/Stockholm', tables: [] };
    // The first six tables as the floor lists them held all evening (the old cap listed only those on their own).
    const listed = await call('GET', `/api/v1/locations/${location.id}/tables?limit=100`, { key: admin() });
    expect(listed.status).toBe(200);
    const order = (listed.body.data as { id: string }[]).map((t) => t.id);
    expect(order).toHaveLength(20);
    for (const id of order.slice(0, 6))
      await book(place, { bookingDate: date, startTime: '17:00', endTime: '23:00', tableIds: [id] });
    const taken = new Set(order.slice(0, 6));
    for (let i = 0; i < 14; i++) {
      expect(at(await availability(location.id, 2), '19:00'), `round ${i}`).toMatchObject({ available: true });
      const couple = await book(place, { ...evening, tableIds: [], guestCount: 2 });
      expect(couple.tableIds).toHaveLength(1);
      expect(taken.has(couple.tableIds[0]!)).toBe(false);
      taken.add(couple.tableIds[0]!);
    }
    expect(taken.size).toBe(20);
    expect(at(await availability(location.id, 2), '19:00')).toMatchObject({
      available: false,
      reason: 'no_table_fits',
    });
    expectRefused(await create(bookingBody(place, { ...evening, tableIds: [], guestCount: 2 })), 409, 'CONFLICT');
  });
});
