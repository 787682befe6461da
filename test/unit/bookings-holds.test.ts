/** Table holds per local day (shared/domain/bookings/holds.ts): which days, clashes, and what is written back. */
import { describe, expect, it } from 'vitest';
import type { Booking } from '../../shared/data/bookings';
import type { DiningTable } from '../../shared/data/tables';
import type { TableDay } from '../../shared/data/tableDays';
import {
  holdDays,
  holdReads,
  holdsOf,
  holdWrites,
  localDates,
  MAX_BUFFER_MINUTES,
  planHolds,
  possibleHoldDates,
  releaseOf,
} from '../../shared/domain/bookings/holds';
import { slotOf } from '../../shared/domain/bookings/time';

const zone = 'Europe/Stockholm';
const at = (iso: string) => Date.parse(iso);
const slot = (from: string, to: string) => ({ startMs: at(from), endMs: at(to) });

describe('the local days an interval touches', () => {
  it('is one day for an evening, two across midnight (end exclusive)', () => {
    expect(localDates(slot('2026-06-01T17:00:00Z', '2026-06-01T19:00:00Z'), zone)).toEqual(['2026-06-01']);
    expect(localDates(slot('2026-06-01T20:00:00Z', '2026-06-01T23:00:00Z'), zone)).toEqual([
      '2026-06-01',
      '2026-06-02',
    ]);
    // Ends exactly at local midnight: the next day is not touched.
    expect(localDates(slot('2026-06-01T20:00:00Z', '2026-06-01T22:00:00Z'), zone)).toEqual(['2026-06-01']);
  });

  it('follows the zone, not UTC: 00:30 local on 28 March 2027 is 27 March in UTC but the 28th here', () => {
    expect(localDates(slot('2027-03-27T23:30:00Z', '2027-03-28T00:30:00Z'), zone)).toEqual(['2027-03-28']);
  });

  it('widens the guard days by the buffer on either side', () => {
    const evening = slot('2026-06-01T20:00:00Z', '2026-06-01T21:30:00Z'); // 22:00-23:30 local
    expect(holdDays(evening, 0, zone)).toEqual({ hold: ['2026-06-01'], guard: ['2026-06-01'] });
    expect(holdDays(evening, 60, zone)).toEqual({ hold: ['2026-06-01'], guard: ['2026-06-01', '2026-06-02'] });
  });
});

describe('placing a hold', () => {
  const day = (tableId: string, date: string, holds: TableDay['holds'], version: number | null = 3): TableDay => ({
    tableId,
    date,
    holds,
    version,
  });
  const evening = slot('2026-06-01T17:00:00Z', '2026-06-01T19:00:00Z');

  it('writes the hold into its days, keeping the others, at the version read', () => {
    const plan = planHolds({
      bookingId: 'new',
      read: [
        day('t1', '2026-06-01', { old: [at('2026-06-01T10:00:00Z'), at('2026-06-01T12:00:00Z')] }),
        day('t2', '2026-06-01', {}, null),
      ],
      tableIds: ['t1', 't2'],
      slot: evening,
      holdDates: ['2026-06-01'],
      bufferMinutes: 15,
    });
    expect(plan).toEqual({
      writes: [
        {
          tableId: 't1',
          date: '2026-06-01',
          holds: {
            old: [at('2026-06-01T10:00:00Z'), at('2026-06-01T12:00:00Z')],
            new: [evening.startMs, evening.endMs],
          },
          expectedVersion: 3,
        },
        { tableId: 't2', date: '2026-06-01', holds: { new: [evening.startMs, evening.endMs] }, expectedVersion: null },
      ],
    });
  });

  it('answers the clash (within the buffer) instead of writes', () => {
    const plan = planHolds({
      bookingId: 'new',
      read: [day('t1', '2026-06-01', { other: [at('2026-06-01T15:00:00Z'), at('2026-06-01T16:50:00Z')] })],
      tableIds: ['t1'],
      slot: evening,
      holdDates: ['2026-06-01'],
      bufferMinutes: 15,
    });
    expect(plan).toEqual({
      clash: {
        tableId: 't1',
        with: { bookingId: 'other', startMs: at('2026-06-01T15:00:00Z'), endMs: at('2026-06-01T16:50:00Z') },
      },
    });
  });

  it('moves a booking: its old hold leaves the table and day it no longer uses, and never clashes with itself', () => {
    const plan = planHolds({
      bookingId: 'me',
      read: [day('t1', '2026-06-01', { me: [evening.startMs, evening.endMs] }), day('t2', '2026-06-01', {}, 1)],
      tableIds: ['t2'],
      slot: evening,
      holdDates: ['2026-06-01'],
      bufferMinutes: 15,
    });
    expect(plan).toEqual({
      writes: [
        { tableId: 't1', date: '2026-06-01', holds: {}, expectedVersion: 3 },
        { tableId: 't2', date: '2026-06-01', holds: { me: [evening.startMs, evening.endMs] }, expectedVersion: 1 },
      ],
    });
  });

  it('counts a hold spanning midnight once', () => {
    const late: [number, number] = [at('2026-06-01T21:00:00Z'), at('2026-06-01T23:00:00Z')];
    expect(holdsOf([day('t1', '2026-06-01', { late }), day('t1', '2026-06-02', { late })])).toEqual([
      { bookingId: 'late', startMs: late[0], endMs: late[1] },
    ]);
  });
});

describe('releasing a hold', () => {
  it("names the booking's tables and the local days its interval touches", () => {
    const late = {
      tableIds: ['a'],
      startsAt: '2026-06-01T20:00:00.000Z',
      endsAt: '2026-06-01T23:00:00.000Z',
      timezone: 'Europe/Stockholm',
    } as Booking;
    expect(releaseOf(late)).toEqual({ tableIds: ['a'], dates: ['2026-06-01', '2026-06-02'] });
  });
});

describe('placing a hold', () => {
  const requested = { field: '/tableIds' as const, tableIds: ['t1', 't2'] };
  const evening = slot('2026-06-01T17:00:00Z', '2026-06-01T19:00:00Z');
  const placement = { bookingId: 'b', requested, slot: evening, zone, bufferMinutes: 15 };
  const empty = (tableId: string, date: string): TableDay => ({ tableId, date, holds: {}, version: null });

  it('reads the guard days of the new tables and the days of the old hold', () => {
    expect(holdReads(placement)).toEqual([
      { tableId: 't1', date: '2026-06-01' },
      { tableId: 't2', date: '2026-06-01' },
    ]);
    const moved = {
      ...placement,
      requested: { field: '/tableId' as const, tableIds: ['t2'] },
      before: { tableIds: ['t1'], slot: slot('2026-05-31T20:00:00Z', '2026-05-31T23:00:00Z') },
    };
    expect(holdReads(moved)).toEqual([
      { tableId: 't2', date: '2026-06-01' },
      { tableId: 't1', date: '2026-05-31' },
      { tableId: 't1', date: '2026-06-01' },
    ]);
  });

  it("writes every day read, and answers 409 naming the taken table's place and name", () => {
    const writes = holdWrites(placement, [empty('t1', '2026-06-01'), empty('t2', '2026-06-01')], []);
    expect(writes.map((w) => [w.tableId, w.holds.b, w.expectedVersion])).toEqual([
      ['t1', [evening.startMs, evening.endMs], null],
      ['t2', [evening.startMs, evening.endMs], null],
    ]);
    const taken: TableDay = {
      tableId: 't2',
      date: '2026-06-01',
      holds: { other: [at('2026-06-01T19:00:00Z'), at('2026-06-01T20:00:00Z')] },
      version: 3,
    };
    const tables = [{ id: 't2', name: 'Window' }] as DiningTable[];
    expect(() => holdWrites(placement, [empty('t1', '2026-06-01'), taken], tables)).toThrow(
      expect.objectContaining({
        code: 'CONFLICT',
        message: 'Table Window is already booked at that time',
        details: [
          { path: '/tableIds/1', message: 'is booked 2026-06-01 21:00-22:00 (with 15 minutes between bookings)' },
        ],
      }),
    );
  });
});

describe('the dates a hold could touch, before the zone and the settings are read', () => {
  it('is the booking date alone for a midday booking, and takes the neighbours a buffer or a late end could reach', () => {
    expect(possibleHoldDates('2026-06-01', '12:00', { endTime: '14:00' })).toEqual(['2026-06-01']);
    expect(possibleHoldDates('2026-06-01', '01:30', { endTime: '03:00' })).toEqual(['2026-05-31', '2026-06-01']);
    expect(possibleHoldDates('2026-06-01', '22:00', { endTime: '01:00' })).toEqual(['2026-06-01', '2026-06-02']);
    expect(possibleHoldDates('2026-06-01', '18:00', { minutes: 480 })).toEqual(['2026-06-01', '2026-06-02']);
  });

  it('covers every guard day of the hold in any zone whose clocks move by at most an hour, whatever the buffer', () => {
    const cases: [string, string, string, string][] = [
      ['2026-03-29', '01:30', '03:30', 'Europe/Stockholm'],
      ['2026-10-25', '21:45', '23:59', 'Europe/Stockholm'],
      ['2026-06-01', '23:00', '02:30', 'Pacific/Auckland'],
      ['2026-06-01', '02:00', '04:00', 'America/Los_Angeles'],
      ['2026-11-01', '00:30', '01:30', 'America/New_York'],
    ];
    for (const [date, start, end, zone] of cases) {
      const guard = holdDays(slotOf(date, start, end, zone), MAX_BUFFER_MINUTES, zone).guard;
      expect(possibleHoldDates(date, start, { endTime: end })).toEqual(expect.arrayContaining(guard));
    }
  });
});
