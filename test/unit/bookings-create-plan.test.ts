/**
 * The plan of a create (create.ts planCreate), without a database: from what a read answered, the
 * writes (the booking, the holds, each booking a re-seating moves), a refusal as a value, or what it
 * needs first (the solver, table days the read could not name, a table found taken).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '../../shared/data/bookings';
import type { BookingWrite } from '../../shared/data/bookingWrite';
import type { DiningTable } from '../../shared/data/tables';
import type { TableDay } from '../../shared/data/tableDays';
import {
  planCreate,
  type CreatePlan,
  type CreateRead,
  type CreateState,
  type Fresh,
} from '../../shared/domain/bookings/create';
import { addDays } from '../../shared/domain/bookings/serviceHours';
import { loadSolver, type Solver } from '../../shared/domain/bookings/solver';
import type { CreateBookingBody } from '../../shared/schemas/bookings';
import { nextSpringForward } from '../support/dst';
import { locationOf, table } from '../support/floors';

const zone = 'Europe/Stockholm';
// An ordinary day (two weeks after the next spring-forward), planned two days ahead.
const day = addDays(nextSpringForward(zone)!, 14);
const now = new Date(Date.parse(`${addDays(day, -2)}T12:00:00Z`));

const location = locationOf('Plan', zone, ['17:00', '23:00'], now);

const two = table('T2', 1, 2);
const four = table('T4', 2, 4);

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});

let made = 0;
const fresh = (id = `new-${++made}`): Fresh => ({
  id,
  confirmationCode: `CODE${made}`,
  now,
  uuid: () => `uuid-${++made}`,
});
const state = (): CreateState => ({ taken: [], seat: false });
const emptyDay = (tableId: string): TableDay => ({ tableId, date: day, holds: {}, version: null });

const ask = (extra: Partial<CreateBookingBody> = {}): CreateBookingBody => ({
  locationId: 1,
  bookingDate: day,
  startTime: '19:00',
  guestCount: 2,
  guestName: 'Ada',
  ...extra,
});

/** What a create reads: named tables (their days), or the floor (every table, the bookings around). */
function readOf(tables: DiningTable[], around?: Booking[]): CreateRead {
  return {
    location,
    settings: undefined,
    tables: around ? [] : tables,
    guest: undefined,
    days: around ? [] : tables.map((t) => emptyDay(t.id)),
    floor: around ? { tables, bookings: around, offers: [] } : undefined,
  };
}

/** Plans until it writes or refuses, answering its asks (the solver, empty days) as the operation would; the asks in order. */
function settle(input: CreateBookingBody, read: CreateRead, days: TableDay[] = [], id?: string) {
  const asked: string[] = [];
  let given: Solver | undefined;
  let known = [...read.days, ...days];
  const f = fresh(id);
  for (;;) {
    const p: CreatePlan = planCreate(1, input, read, known, state(), f, given);
    if ('solve' in p) {
      asked.push('solve');
      given = solver;
    } else if ('read' in p) {
      asked.push(`read ${p.read.map((d) => d.tableId).join(',')}`);
      known = [...known, ...p.read.map((d) => emptyDay(d.tableId))];
    } else return { plan: p, asked };
  }
}

const written = (p: CreatePlan): BookingWrite[] => {
  if (!('write' in p)) throw new Error(`expected writes, got ${JSON.stringify(p)}`);
  return p.write;
};

/** A booking made by the plan itself, at the tables named. */
function bookedAt(tableIds: string[], guestCount: number): Booking {
  const { plan } = settle(ask({ tableIds, guestCount }), readOf([two, four].filter((t) => tableIds.includes(t.id))));
  return written(plan)[0]!.next;
}

describe('the plan of a create', () => {
  it('writes a booking at the named table with its hold, in one change', () => {
    const { plan, asked } = settle(ask({ tableIds: ['T4'] }), readOf([four]));
    expect(asked).toEqual([]);
    const [w, ...rest] = written(plan);
    expect(rest).toEqual([]);
    expect(w!.next).toMatchObject({ tableIds: ['T4'], status: 'confirmed', guestCount: 2, bookingDate: day });
    expect(w!.tableDays?.find((d) => d.tableId === 'T4')?.holds).toHaveProperty(w!.next.id);
    expect(w!.events.map((e) => e.payload.event)).toEqual(['booking.created']);
  });

  it("chooses a free table, and first asks for that table's days", () => {
    const { plan, asked } = settle(ask(), readOf([two, four], []));
    expect(asked).toEqual(['read T2']);
    expect(written(plan)[0]!.next.tableIds).toEqual(['T2']);
  });

  it('re-seats when no table is free: asks for the solver, then the days, then writes the booking and the move', () => {
    // A couple holds the only four-top; the two-top is free. A party of four needs the four-top.
    const couple = bookedAt(['T4'], 2);
    const { plan, asked } = settle(ask({ guestCount: 4 }), readOf([two, four], [couple]));
    expect(asked).toEqual(['solve', 'read T4,T2']);
    const [created, moved, ...rest] = written(plan);
    expect(rest).toEqual([]);
    expect(created!.next.tableIds).toEqual(['T4']);
    expect(moved).toMatchObject({ prev: couple, moved: true, next: { id: couple.id, tableIds: ['T2'] } });
    expect(moved!.next.version).toBe(couple.version + 1);
    expect(moved!.events).toEqual([
      {
        companyId: 1,
        payload: expect.objectContaining({
          event: 'booking.updated',
          resourceId: couple.id,
          changes: expect.objectContaining({ tableId: 'T2', tableIds: ['T2'] }),
        }),
      },
    ]);
    // The table days are written once, with the new booking: T4 holds it, T2 holds the couple.
    const days = new Map(created!.tableDays!.map((d) => [d.tableId, d.holds]));
    expect(Object.keys(days.get('T4')!)).toEqual([created!.next.id]);
    expect(Object.keys(days.get('T2')!)).toEqual([couple.id]);
    expect(moved!.tableDays).toEqual([]);
  });

  it('never moves a locked booking: 409 with the next available time instead', () => {
    const locked = { ...bookedAt(['T4'], 2), locked: true };
    const { plan } = settle(ask({ guestCount: 4 }), readOf([two, four], [locked]));
    expect(plan).toEqual({ refuse: expect.objectContaining({ status: 409, code: 'CONFLICT' }) });
  });

  it('reports a table found taken in its day (a booking the floor did not show) as a hold to keep clear of', () => {
    const hold = { [`other`]: [Date.parse(`${day}T17:30:00Z`), Date.parse(`${day}T19:30:00Z`)] as [number, number] };
    const p = planCreate(
      1,
      ask(),
      readOf([two, four], []),
      [{ ...emptyDay('T2'), holds: hold, version: 3 }],
      state(),
      fresh(),
    );
    expect(p).toEqual({
      taken: expect.objectContaining({
        tableIds: ['T2'],
        startsAt: new Date(hold.other[0]).toISOString(),
        endsAt: new Date(hold.other[1]).toISOString(),
      }),
    });
    // Kept clear of, the next plan takes the four-top.
    const again = planCreate(
      1,
      ask(),
      readOf([two, four], []),
      [{ ...emptyDay('T2'), holds: hold, version: 3 }, emptyDay('T4')],
      { ...state(), taken: [(p as { taken: CreateState['taken'][number] }).taken] },
      fresh(),
    );
    expect(written(again)[0]!.next.tableIds).toEqual(['T4']);
  });

  it('answers refusals as values: a named table taken (409 on /tableIds/0), a start in the past (422)', () => {
    const taken = { x: [Date.parse(`${day}T17:00:00Z`), Date.parse(`${day}T19:00:00Z`)] as [number, number] };
    const read = { ...readOf([four]), days: [{ ...emptyDay('T4'), holds: taken, version: 1 }] };
    expect(planCreate(1, ask({ tableIds: ['T4'] }), read, read.days, state(), fresh())).toEqual({
      refuse: expect.objectContaining({ status: 409, details: [expect.objectContaining({ path: '/tableIds/0' })] }),
    });
    const past = planCreate(
      1,
      ask({ tableIds: ['T4'], bookingDate: addDays(day, -3) }),
      readOf([four]),
      [],
      state(),
      fresh(),
    );
    expect(past).toEqual({ refuse: expect.objectContaining({ status: 422 }) });
  });
});
