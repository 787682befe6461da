/**
 * Availability's compact buckets (shared/data/bookingsAround.ts): a booking's entry holds exactly
 * what availability reads, and the steps of bookings written together touch each bucket once.
 */
import { describe, expect, it } from 'vitest';
import type { Booking } from '../../shared/data/bookings';
import { aroundSteps, decodeAround, encodeAround } from '../../shared/data/bookingsAround';

const booking = (over: Partial<Booking> = {}): Booking =>
  ({
    id: '5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b',
    locationId: 101,
    bookingDate: '2026-12-18',
    startTime: '19:30',
    startsAt: '2026-12-18T18:30:00.000Z',
    endsAt: '2026-12-18T20:30:00.000Z',
    guestCount: 4,
    tableIds: ['aaeeb0a0-94c7-43cf-a156-7ad01a54bd07', '0123ff51-9369-49fd-b45b-2839d90345a5'],
    status: 'confirmed',
    locked: false,
    ...over,
  }) as Booking;

const entry = (b: Booking) => {
  const steps = aroundSteps(7, [{ next: b }]);
  const update = steps[0]!.item.Update!;
  const names = update.ExpressionAttributeNames!;
  const name = Object.values(names).find((n) => n.startsWith('b'))!;
  return { name, value: encodeAround(b)!, key: update.Key };
};

describe('a booking in its bucket', () => {
  it('gives back what availability reads, for every status that holds tables, locked or not, with or without tables', () => {
    for (const over of [
      {},
      { status: 'pending' as const, tableIds: [] },
      { status: 'checked_in' as const, locked: true },
      {
        status: 'seated' as const,
        guestCount: 12,
        startsAt: '2026-12-18T23:45:00.000Z',
        endsAt: '2026-12-19T02:15:00.000Z',
      },
    ]) {
      const b = booking(over);
      const { name, value } = entry(b);
      expect(decodeAround(name, value, b.bookingDate)).toEqual({
        id: b.id,
        bookingDate: b.bookingDate,
        startsAt: b.startsAt,
        endsAt: b.endsAt,
        guestCount: b.guestCount,
        status: b.status,
        locked: b.locked,
        tableIds: b.tableIds,
      });
      expect(name.length + value.length).toBeLessThan(100);
    }
  });

  it('is in the bucket of its local date and start hour; a booking that holds no tables is in none', () => {
    expect(entry(booking()).key).toEqual({ pk: 'C#7#L#000000000101#AROUND', sk: '2026-12-18#19' });
    for (const status of ['cancelled', 'completed', 'no_show'] as const)
      expect(encodeAround(booking({ status }))).toBeUndefined();
  });
});

describe('aroundSteps', () => {
  const prev = booking({ version: 3 });

  it('writes nothing when nothing availability reads changed', () => {
    expect(aroundSteps(7, [{ prev, next: { ...prev, specialRequests: 'Window', version: 4 } }])).toEqual([]);
  });

  it('removes a booking that stops holding tables, and moves one to its new bucket', () => {
    const [cancel] = aroundSteps(7, [{ prev, next: { ...prev, status: 'cancelled' } }]);
    expect(cancel!.item.Update!.UpdateExpression).toMatch(/REMOVE/);
    const moved = aroundSteps(7, [{ prev, next: { ...prev, startTime: '21:00' } }]);
    expect(moved.map((s) => s.item.Update!.Key!.sk)).toEqual(['2026-12-18#19', '2026-12-18#21']);
    expect(moved[0]!.item.Update!.UpdateExpression).toMatch(/REMOVE/);
    expect(moved[1]!.item.Update!.UpdateExpression).not.toMatch(/REMOVE/);
  });

  it('touches a bucket once for bookings written together (a transaction names an item once)', () => {
    const other = booking({ id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', version: 1 });
    const steps = aroundSteps(7, [
      { prev, next: { ...prev, tableIds: [prev.tableIds[1]!] } },
      { prev: other, next: { ...other, tableIds: [prev.tableIds[0]!] } },
    ]);
    expect(steps).toHaveLength(1);
    expect(
      Object.values(steps[0]!.item.Update!.ExpressionAttributeNames!).filter((n) => n.startsWith('b')),
    ).toHaveLength(2);
  });
});
