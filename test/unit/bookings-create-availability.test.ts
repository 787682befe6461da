/**
 * Availability equals create, on the pure functions a create without tables runs
 * (placement.ts assertWithinBookingHours and assignedPlacement, re-seating included) against what
 * availability.ts daySlots offers on the same floor, re-seating included as the operation asks it
 * (docs/availability.md, "Availability and create"): every slot offered is one a create takes (at
 * tables, moving bookings or not, or by the overbooking buffer when the slot says so), every
 * slot refused as closed is refused by the hours, every slot without a table is refused with 409.
 * Worked cases first (the 4×5 grid of combinable two-tops, a create at 04:00), then a property
 * over generated floors (grids included), bookings and settings.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BookingSettings } from '../../shared/data/bookingSettings';
import type { DiningTable } from '../../shared/data/tables';
import { daySlots, inForce, withReseating, type BookingAround } from '../../shared/domain/bookings/availability';
import {
  assertWithinBookingHours,
  assignedPlacement,
  type PartyPlacement,
} from '../../shared/domain/bookings/placement';
import { holdsByTable, isFree, seatsParty } from '../../shared/domain/bookings/fit';
import type { AssignmentFloor } from '../../shared/domain/bookings/floor';
import { reseatFloor, reseating } from '../../shared/domain/bookings/reseat';
import { addDays } from '../../shared/domain/bookings/serviceHours';
import { defaultSettings } from '../../shared/domain/bookings/settings';
import { loadSolver, type Solver } from '../../shared/domain/bookings/solver';
import { intervalOf, localDay, slotLasting, slotOf } from '../../shared/domain/bookings/time';
import { AppError } from '../../shared/errors';
import { weekdays, type WeekHours } from '../../shared/schemas/locations';
import { nextSpringForward } from '../support/dst';
import { table, grid } from '../support/floors';

const zone = 'Europe/Stockholm';
// An ordinary day (two weeks after the next spring-forward), asked two days ahead.
const day = addDays(nextSpringForward(zone)!, 14);
const nowMs = localDay(day, zone).startMs - 2 * 86_400_000;

const every = (...intervals: [string, string][]): WeekHours =>
  Object.fromEntries(weekdays.map((d) => [d, intervals.map(([open, close]) => ({ open, close }))])) as WeekHours;

const settingsWith = (extra: Partial<BookingSettings>): BookingSettings => ({
  ...defaultSettings(1, ''),
  maxAdvanceDays: 365,
  operatingHours: every(['17:00', '23:00']),
  ...extra,
});

let n = 0;
const booking = (tableIds: string[], from: string, to: string, extra: Partial<BookingAround> = {}): BookingAround => {
  const slot = slotOf(day, from, to, zone);
  return {
    id: `b${++n}`,
    tableIds,
    startsAt: slot.startsAt,
    endsAt: slot.endsAt,
    guestCount: 2,
    status: 'confirmed',
    ...extra,
  };
};

const floorOf = (
  tables: DiningTable[],
  bookings: BookingAround[],
  settings = settingsWith({}),
  locationHours: WeekHours = every(),
): AssignmentFloor => ({ location: { timezone: zone, operatingHours: locationHours }, settings, tables, bookings });

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});

/** Availability's slots, re-seating asked as the operation asks it (floor.ts getAvailability). */
const slotsOf = (floor: AssignmentFloor, partySize: number) => {
  const seating = reseatFloor(day, floor.bookings, floor.tables, floor.settings.bufferMinutes);
  const slots = daySlots({
    date: day,
    zone,
    nowMs,
    partySize,
    rules: inForce(floor.location.operatingHours, floor.settings, floor.tables),
    bookings: floor.bookings,
  });
  return withReseating(
    slots,
    (stay) => reseating(solver, seating, { id: '', guestCount: partySize, ...stay }) !== undefined,
  );
};

/** The stay a create without `endTime` names at `time`. */
const stayAt = (floor: AssignmentFloor, time: string) =>
  slotLasting(day, time, floor.settings.defaultDurationMinutes, zone);

/** What the create path answers at `time` for the party: where it sits (and the moves), or the refusal's status and code. */
function placed(
  floor: AssignmentFloor,
  guestCount: number,
  time: string,
): PartyPlacement | { status: number; code: string } {
  const stay = stayAt(floor, time);
  try {
    assertWithinBookingHours(floor, day, stay);
    const placement = assignedPlacement(floor, { bookingDate: day, guestCount }, stay, [], nowMs, solver);
    if (placement === 'solve') throw new Error('the solver was given');
    return placement;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code };
    throw err;
  }
}

/** The same, the tables only (none moved in these cases). */
function create(floor: AssignmentFloor, guestCount: number, time: string): string[] | { status: number; code: string } {
  const answer = placed(floor, guestCount, time);
  if (!('tableIds' in answer)) return answer;
  expect(answer.moves).toEqual([]);
  return answer.tableIds;
}

describe('a 4×5 grid of combinable two-tops', () => {
  const tables = grid(4, 5);

  it('seats a couple at whichever single table is free, as availability offers it', () => {
    for (const free of tables) {
      const held = tables.filter((t) => t !== free).map((t) => booking([t.id], '17:00', '23:00'));
      const floor = floorOf(tables, held);
      const slot = slotsOf(floor, 2).find((s) => s.time === '19:00')!;
      expect(slot).toMatchObject({ available: true });
      expect(slot.overbooked).toBeUndefined();
      expect(create(floor, 2, '19:00')).toEqual([free.id]);
    }
  });

  it('with the first six tables held, seats a couple (it was 409 while availability listed 14 free tables)', () => {
    const held = tables.slice(0, 6).map((t) => booking([t.id], '17:00', '23:00'));
    const floor = floorOf(tables, held);
    expect(slotsOf(floor, 2).find((s) => s.time === '19:00')).toMatchObject({ available: true });
    const chosen = create(floor, 2, '19:00');
    expect(Array.isArray(chosen) && chosen.length === 1 && !tables.slice(0, 6).some((t) => t.id === chosen[0])).toBe(
      true,
    );
  });

  it('seats eight at four adjacent free two-tops, and refuses with 409 when no four are adjacent', () => {
    // Rows 0 and 2 held: rows 1 and 3 are free but not adjacent to each other; five in a row is enough.
    const rows02 = tables.filter((t) => t.id.startsWith('G0') || t.id.startsWith('G2'));
    const floor = floorOf(
      tables,
      rows02.map((t) => booking([t.id], '17:00', '23:00')),
    );
    expect(slotsOf(floor, 8).find((s) => s.time === '19:00')).toMatchObject({ available: true });
    const eight = create(floor, 8, '19:00');
    expect(Array.isArray(eight) && eight.length).toBe(4);
    // Every other table held (a chessboard): no two free tables touch.
    const chess = tables.filter((t) => {
      const [r, c] = t.id.slice(1).split('-').map(Number);
      return (r! + c!) % 2 === 0;
    });
    const apart = floorOf(
      tables,
      chess.map((t) => booking([t.id], '17:00', '23:00')),
    );
    expect(slotsOf(apart, 4).find((s) => s.time === '19:00')).toMatchObject({
      available: false,
      reason: 'no_table_fits',
    });
    expect(create(apart, 4, '19:00')).toEqual({ status: 409, code: 'CONFLICT' });
    expect(create(apart, 2, '19:00')).toHaveLength(1);
  });
});

describe('the booking hours on a create without tables', () => {
  const floor = floorOf([table('T1', 1, 4)], []);

  it('refuse a stay availability marks closed with 422 on /startTime, and take one it offers', () => {
    expect(slotsOf(floor, 2).find((s) => s.time === '04:00')).toMatchObject({ available: false, reason: 'closed' });
    expect(() => assertWithinBookingHours(floor, day, stayAt(floor, '04:00'))).toThrow(
      expect.objectContaining({
        status: 422,
        code: 'UNPROCESSABLE',
        details: [expect.objectContaining({ path: '/startTime', message: expect.stringContaining('17:00-23:00') })],
      }),
    );
    // 21:15 + 120 minutes runs past the 23:00 close: closed too; 21:00 ends at the close.
    expect(create(floor, 2, '21:15')).toEqual({ status: 422, code: 'UNPROCESSABLE' });
    expect(create(floor, 2, '21:00')).toEqual(['T1']);
  });

  it("read the settings' hours over the location's, and a place with none is closed all day", () => {
    const located = floorOf([table('T1', 1, 4)], [], settingsWith({ operatingHours: null }), every(['03:00', '06:00']));
    expect(create(located, 2, '04:00')).toEqual(['T1']);
    expect(create(located, 2, '19:00')).toEqual({ status: 422, code: 'UNPROCESSABLE' });
    const none = floorOf([table('T1', 1, 4)], [], settingsWith({ operatingHours: null }), every());
    expect(create(none, 2, '19:00')).toEqual({ status: 422, code: 'UNPROCESSABLE' });
  });
});

/** A floor: a grid of two-tops, or tables of any size with random combinable pairs. */
const tablesArb: fc.Arbitrary<DiningTable[]> = fc.oneof(
  fc
    .record({ rows: fc.integer({ min: 1, max: 4 }), columns: fc.integer({ min: 1, max: 5 }) })
    .map(({ rows, columns }) => grid(rows, columns)),
  fc
    .array(fc.record({ min: fc.integer({ min: 1, max: 3 }), extra: fc.integer({ min: 0, max: 6 }) }), {
      minLength: 1,
      maxLength: 10,
    })
    .chain((sizes) =>
      fc
        .uniqueArray(
          // Two distinct tables (the second after the first, wrapping round), never a table with itself.
          fc
            .tuple(fc.nat({ max: sizes.length - 1 }), fc.nat({ max: Math.max(0, sizes.length - 2) }))
            .map(([a, step]) => [a, (a + 1 + step) % sizes.length] as const),
          {
            maxLength: sizes.length > 1 ? sizes.length * 2 : 0,
            selector: ([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`,
          },
        )
        .map((pairs) =>
          sizes.map((s, i) =>
            table(
              `T${i}`,
              s.min,
              s.min + s.extra,
              pairs.filter(([a, b]) => a === i || b === i).map(([a, b]) => `T${a === i ? b : a}`),
            ),
          ),
        ),
    ),
);

const quarter = (q: number) =>
  `${String(Math.floor(q / 4) % 24).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;

/** The floor with bookings on it (on one to three of its tables, or none: taken by the overbooking buffer). */
const caseArb = tablesArb.chain((tables) =>
  fc.record({
    tables: fc.constant(tables),
    bookings: fc.array(
      fc.record({
        tables: fc.subarray(
          tables.map((t) => t.id),
          { minLength: 0, maxLength: Math.min(3, tables.length) },
        ),
        start: fc.integer({ min: 14 * 4, max: 22 * 4 }),
        quarters: fc.integer({ min: 2, max: 12 }),
        guestCount: fc.integer({ min: 1, max: 8 }),
        status: fc.constantFrom('confirmed', 'confirmed', 'seated', 'cancelled'),
        // Of the date and unlocked: re-seating may move it (if it is not seated).
        movable: fc.boolean(),
      }),
      { maxLength: 25 },
    ),
    partySize: fc.integer({ min: 1, max: 10 }),
    settings: fc.record({
      bufferMinutes: fc.constantFrom(0, 15, 30),
      defaultDurationMinutes: fc.constantFrom(60, 90, 120),
      overbookingBufferPercentage: fc.constantFrom(0, 0, 20),
      hours: fc.constantFrom(every(['17:00', '23:00']), every(['11:30', '14:00'], ['17:00', '01:00'])),
    }),
  }),
);

describe('availability equals create (property)', () => {
  it('every slot offered is taken by the create path, every slot refused is refused by it', () => {
    let reseated = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const bookings = c.bookings.map((b, i) =>
          booking(b.tables, quarter(b.start), quarter(b.start + b.quarters), {
            id: `p${i}`,
            guestCount: b.guestCount,
            status: b.status as BookingAround['status'],
            ...(b.movable ? { bookingDate: day, locked: false } : {}),
          }),
        );
        const floor = floorOf(
          c.tables,
          bookings,
          settingsWith({
            bufferMinutes: c.settings.bufferMinutes,
            defaultDurationMinutes: c.settings.defaultDurationMinutes,
            overbookingBufferPercentage: c.settings.overbookingBufferPercentage,
            operatingHours: c.settings.hours,
          }),
        );
        for (const slot of slotsOf(floor, c.partySize)) {
          const answer = placed(floor, c.partySize, slot.time);
          const at = `${slot.time}: ${JSON.stringify(slot)} → ${JSON.stringify(answer)}`;
          if (slot.available && !slot.overbooked) {
            expect('tableIds' in answer && answer.tableIds.length > 0, at).toBe(true);
            const { tableIds: chosen, moves } = answer as PartyPlacement;
            if (moves.length > 0) reseated++;
            const byId = new Map(c.tables.map((t) => [t.id, t]));
            const seats = {
              min: chosen.reduce((s, id) => s + byId.get(id)!.minCapacity, 0),
              max: chosen.reduce((s, id) => s + byId.get(id)!.maxCapacity, 0),
            };
            expect(seatsParty(seats, c.partySize), at).toBe(true);
            // The floor after the moves holds the party without a clash, buffers kept; only movable bookings moved.
            const to = new Map(moves.map((m) => [m.bookingId, m.to]));
            const movable = new Set(
              bookings.filter((b) => b.bookingDate === day && b.status === 'confirmed').map((b) => b.id),
            );
            expect(
              moves.every((m) => movable.has(m.bookingId)),
              at,
            ).toBe(true);
            const after = bookings
              .filter((b) => b.status !== 'cancelled')
              .map((b) => ({ id: b.id, tableIds: to.get(b.id) ?? b.tableIds, ...intervalOf(b) }));
            const stay = stayAt(floor, slot.time);
            expect(isFree(holdsByTable(after), chosen, stay, c.settings.bufferMinutes), at).toBe(true);
            for (const m of moves) {
              const b = after.find((x) => x.id === m.bookingId)!;
              const others = holdsByTable([
                ...after.filter((x) => x.id !== b.id),
                { id: 'new', tableIds: chosen, ...stay },
              ]);
              expect(isFree(others, m.to, b, c.settings.bufferMinutes), at).toBe(true);
            }
          } else if (slot.available) expect(answer, at).toEqual({ tableIds: [], moves: [] });
          else if (slot.reason === 'closed') expect(answer, at).toEqual({ status: 422, code: 'UNPROCESSABLE' });
          else expect(answer, at).toEqual({ status: 409, code: 'CONFLICT' });
        }
      }),
      {
        numRuns: 60,
        // A day only a re-seating opens, besides the generated ones (which include such days only by
        // chance): a couple at the only four-top, movable to the two-top, and a party of four.
        examples: [
          [
            {
              tables: [table('T0', 1, 2), table('T1', 1, 4)],
              bookings: [
                { tables: ['T1'], start: 18 * 4, quarters: 8, guestCount: 2, status: 'confirmed', movable: true },
              ],
              partySize: 4,
              settings: {
                bufferMinutes: 0,
                defaultDurationMinutes: 120,
                overbookingBufferPercentage: 0,
                hours: every(['17:00', '23:00']),
              },
            },
          ],
        ],
      },
    );
    // The days asked about include slots only a re-seating makes available.
    expect(reseated).toBeGreaterThan(0);
  }, 120_000);
});
