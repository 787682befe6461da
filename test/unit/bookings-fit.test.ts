/**
 * Which tables seat a party and when they are free (fit.ts), what the floor can still sell
 * (sellable.ts), and automatic assignment's choice (assignment.ts), with answers worked by hand.
 * Times are minutes from an arbitrary midnight: these rules know no zone.
 */
import { describe, expect, it } from 'vitest';
import type { DiningTable } from '../../shared/data/tables';
import { chooseTables, type SeatingFloor } from '../../shared/domain/bookings/assignment';
import {
  freeSets,
  holdsByTable,
  isFree,
  MAX_COMBINED_TABLES,
  MAX_SETS_PER_TABLE,
  partySets,
  seatsNeeded,
  seatsParty,
  tableSets,
  type Placed,
} from '../../shared/domain/bookings/fit';
import {
  compareScores,
  oversize,
  sellableSeatMinutes,
  staysLeft,
  type SellingTerms,
} from '../../shared/domain/bookings/sellable';
import { table, grid } from '../support/floors';

const MINUTE = 60_000;
const at = (hhmm: string) => (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))) * MINUTE;
const stay = (from: string, to: string) => ({ startMs: at(from), endMs: at(to) });

const ids = (sets: { tableIds: string[] }[]) => sets.map((s) => s.tableIds.join('+'));

describe('table sets', () => {
  const chain = [table('C1', 2, 4, ['C2']), table('C2', 1, 2, ['C1', 'C3']), table('C3', 3, 6, ['C2'])];

  it('are each table alone and every connected set of combinable tables, fewest tables then fewest seats first, the largest table primary', () => {
    expect(tableSets(chain)).toEqual([
      { tableIds: ['C2'], min: 1, max: 2 },
      { tableIds: ['C1'], min: 2, max: 4 },
      { tableIds: ['C3'], min: 3, max: 6 },
      { tableIds: ['C1', 'C2'], min: 3, max: 6 },
      { tableIds: ['C3', 'C2'], min: 4, max: 8 },
      { tableIds: ['C3', 'C1', 'C2'], min: 6, max: 12 },
    ]);
  });

  it('do not join tables that only a third connects, when the third is not among them (a pool)', () => {
    expect(ids(tableSets([chain[0]!, chain[2]!]))).toEqual(['C1', 'C3']);
  });

  it('stop growing once a set seats the largest party asked for', () => {
    expect(ids(tableSets(chain, 5))).toEqual(['C2', 'C1', 'C3', 'C1+C2', 'C3+C2']);
  });

  it('take a partner list written on one side only', () => {
    expect(ids(tableSets([table('A', 2, 4, ['B']), table('B', 2, 4)]))).toEqual(['A', 'B', 'A+B']);
  });

  it('are bounded per table where every table combines with every other, each table alone and in every pair', () => {
    const all = Array.from({ length: 24 }, (_, i) => `T${i}`);
    const sets = tableSets(
      all.map((id) =>
        table(
          id,
          1,
          2,
          all.filter((o) => o !== id),
        ),
      ),
    );
    expect(sets.length).toBeLessThanOrEqual(all.length * MAX_SETS_PER_TABLE);
    expect(Math.max(...sets.map((s) => s.tableIds.length))).toBeLessThanOrEqual(MAX_COMBINED_TABLES);
    const keys = new Set(sets.map((s) => [...s.tableIds].sort().join()));
    expect(keys.size).toBe(sets.length);
    // The old global cap (5000, spent on the first tables) listed T23 with no partner at all.
    for (const a of all) {
      expect(keys.has(a)).toBe(true);
      for (const b of all) if (a < b) expect(keys.has([a, b].sort().join())).toBe(true);
    }
  });
});

describe('the sets a party may sit at (create and availability alike)', () => {
  const floor = grid(4, 5);

  it('list every table of a 4×5 grid of combinable two-tops on its own for a couple, and nothing bigger', () => {
    // Unbounded and capped globally, only 6 of the 20 were listed alone: a couple was refused at 14 free tables.
    expect(ids(partySets(floor, 2)).sort()).toEqual(floor.map((t) => t.id).sort());
    expect(ids(partySets(floor, 0)).length).toBe(20);
  });

  it('list for a party of 4 exactly the adjacent pairs of the grid (31), and for 8 the sets of four', () => {
    const four = partySets(floor, 4);
    expect(four.every((s) => s.tableIds.length === 2)).toBe(true);
    // 4 rows × 4 pairs across + 3 pairs down × 5 columns.
    expect(four.length).toBe(4 * 4 + 3 * 5);
    const eight = partySets(floor, 8);
    expect(eight.length).toBeGreaterThan(0);
    expect(eight.every((s) => s.tableIds.length === 4 && s.min <= 8 && s.max === 8)).toBe(true);
    // Every table takes part in a set for eight.
    expect(new Set(eight.flatMap((s) => s.tableIds)).size).toBe(20);
  });

  it('count against the cap only the sets that seat the party: on a floor where everything combines, every table seats eight', () => {
    const all = Array.from({ length: 20 }, (_, i) => `T${i}`);
    const dense = all.map((id) =>
      table(
        id,
        1,
        2,
        all.filter((o) => o !== id),
      ),
    );
    const eight = partySets(dense, 8);
    expect(eight.every((s) => s.tableIds.length === 4)).toBe(true);
    expect(new Set(eight.flatMap((s) => s.tableIds)).size).toBe(20);
    // The first table's smaller sets (1 + 19 + 171) do not use up its cap.
    expect(eight.filter((s) => s.tableIds.includes('T0')).length).toBeGreaterThanOrEqual(MAX_SETS_PER_TABLE);
  });

  it('leave no set that only wastes seats: none seats fewer than the party, none grows past it', () => {
    const tables = [table('A', 2, 4, ['B']), table('B', 2, 4, ['A', 'C']), table('C', 1, 2, ['B']), table('D', 6, 8)];
    expect(ids(partySets(tables, 3))).toEqual(['A', 'B']);
    expect(ids(partySets(tables, 6))).toEqual(['D', 'B+C', 'A+B']);
    // B+C (6) grows to A+B+C only from A, and A+B already seats seven: no third table.
    expect(ids(partySets(tables, 7))).toEqual(['D', 'A+B']);
    expect(ids(partySets(tables, 9))).toEqual(['A+B+C']);
  });
});

describe('seating a party', () => {
  it('needs at least one seat, and a set from its minimum to its maximum', () => {
    expect(seatsNeeded(0)).toBe(1);
    expect([1, 2, 4, 5].map((n) => seatsParty({ min: 2, max: 4 }, n))).toEqual([false, true, true, false]);
    expect(seatsParty({ min: 1, max: 2 }, 0)).toBe(true);
  });

  const placed: Placed[] = [{ id: 'x', tableIds: ['A', 'B'], ...stay('19:00', '21:00') }];
  const holds = holdsByTable(placed);

  it("is possible where no hold clashes, buffers counted, the booking's own hold aside", () => {
    expect(isFree(holds, ['A'], stay('17:00', '19:00'), 0)).toBe(true);
    expect(isFree(holds, ['A'], stay('17:00', '19:00'), 15)).toBe(false);
    expect(isFree(holds, ['C'], stay('19:00', '21:00'), 15)).toBe(true);
    expect(isFree(holds, ['C', 'B'], stay('20:00', '22:00'), 0)).toBe(false);
    expect(isFree(holds, ['A'], stay('19:30', '21:30'), 15, 'x')).toBe(true);
  });

  it('lists the free sets that seat the party', () => {
    const sets = tableSets([table('A', 2, 4, ['B']), table('B', 2, 4, ['A']), table('C', 1, 2)]);
    expect(ids(freeSets(sets, holds, 2, stay('19:00', '21:00'), 15))).toEqual(['C']);
    expect(ids(freeSets(sets, holds, 4, stay('21:15', '23:00'), 15))).toEqual(['A', 'B', 'A+B']);
    expect(ids(freeSets(sets, holds, 8, stay('21:15', '23:00'), 15))).toEqual(['A+B']);
  });
});

describe('what a table can still sell', () => {
  const evening = (bufferMinutes: number): SellingTerms => ({
    service: [stay('17:00', '23:00')],
    stayMinutes: 120,
    bufferMinutes,
  });

  it('counts the stays of the default length that fit in each free window, buffers between them', () => {
    // 360 minutes: two stays with a buffer of 15 (2·120 + 15), three without.
    expect(staysLeft([], evening(15))).toBe(2);
    expect(staysLeft([], evening(0))).toBe(3);
    // 19:00-21:00 leaves 17:00-18:45 and 21:15-23:00: 105 minutes each, nothing sellable.
    expect(staysLeft([stay('19:00', '21:00')], evening(15))).toBe(0);
    expect(staysLeft([stay('19:00', '21:00')], evening(0))).toBe(2);
    // 17:00-19:00 leaves 19:15-23:00, 225 minutes: one stay.
    expect(staysLeft([stay('17:00', '19:00')], evening(15))).toBe(1);
  });

  it('counts within each span of the service, holds in any order, holds outside it ignored', () => {
    const day: SellingTerms = {
      service: [stay('11:00', '15:00'), stay('17:00', '23:00')],
      stayMinutes: 90,
      bufferMinutes: 0,
    };
    expect(staysLeft([], day)).toBe(2 + 4);
    expect(staysLeft([stay('20:00', '21:30'), stay('12:00', '13:30'), stay('15:00', '17:00')], day)).toBe(1 + 3);
    // A hold over the start of a span: only what is left after it.
    expect(staysLeft([stay('16:00', '17:30')], day)).toBe(2 + 3);
  });

  it('is worth seats × stays × minutes', () => {
    expect(sellableSeatMinutes(4, [], evening(15))).toBe(4 * 2 * 120);
    expect(oversize(8, 2, stay('19:00', '21:00'))).toBe(6 * 120);
    expect(oversize(2, 0, stay('19:00', '21:00'))).toBe(120);
  });

  it('compares seatings: guests placed, then oversize, then sellable, then moves', () => {
    const s = { placedCovers: 10, sellableSeatMinutes: 1000, oversizeSeatMinutes: 100, moves: 2 };
    expect(compareScores({ ...s, placedCovers: 11, oversizeSeatMinutes: 900, sellableSeatMinutes: 0 }, s)).toBeLessThan(
      0,
    );
    // Fewer seats wasted comes before more sellable time: a couple is not kept on a four-top to spare a two-top's evening.
    expect(compareScores({ ...s, oversizeSeatMinutes: 99, sellableSeatMinutes: 0 }, s)).toBeLessThan(0);
    expect(compareScores({ ...s, sellableSeatMinutes: 1001, oversizeSeatMinutes: 101 }, s)).toBeGreaterThan(0);
    expect(compareScores({ ...s, sellableSeatMinutes: 1001, moves: 9 }, s)).toBeLessThan(0);
    expect(compareScores({ ...s, moves: 3 }, s)).toBeGreaterThan(0);
    expect(compareScores(s, { ...s })).toBe(0);
  });
});

describe("automatic assignment's choice", () => {
  const floorOf = (tables: DiningTable[], placed: Placed[], bufferMinutes = 0): SeatingFloor => ({
    seats: new Map(tables.map((t) => [t.id, t.maxCapacity])),
    sets: tableSets(tables),
    holds: holdsByTable(placed),
    terms: { service: [stay('17:00', '23:00')], stayMinutes: 120, bufferMinutes },
  });

  it('gives a couple the two-top, not the eight-top the evening needs', () => {
    const floor = floorOf([table('EIGHT', 2, 8), table('TWO', 1, 2)], []);
    // No seat over the party; the stay takes one 120-minute stay of 2 seats (240 seat-minutes).
    expect(chooseTables(floor, { guestCount: 2, stay: stay('19:00', '21:00') })).toEqual({
      set: { tableIds: ['TWO'], min: 1, max: 2 },
      excessSeats: 0,
      sellableLost: 240,
      defaultSellableLost: 240,
    });
  });

  it('takes the table whose leftover is lost anyway, not one whose evening it would cut', () => {
    // A is free all evening; B has 20:00-22:00. In 90-minute stays (the request's own) 18:00-19:30
    // loses 2 on either (A: 4 → 19:30-23:00 sells 2; B: 17:00-20:00 sells 2 → none), and both
    // are one table; in 120-minute stays it loses 2 of A's 3 but only the 1 B had: B.
    const floor = floorOf(
      [table('A', 1, 4), table('B', 1, 4)],
      [{ id: 'x', tableIds: ['B'], ...stay('20:00', '22:00') }],
    );
    expect(chooseTables(floor, { guestCount: 2, stay: stay('18:00', '19:30') })?.set.tableIds).toEqual(['B']);
  });

  it('pushes tables together only when no table alone seats the party, and then the fewest seats', () => {
    const tables = [table('A', 2, 4, ['B']), table('B', 2, 4, ['A', 'C']), table('C', 1, 2, ['B']), table('SIX', 3, 6)];
    expect(chooseTables(floorOf(tables, []), { guestCount: 6, stay: stay('19:00', '21:00') })?.set.tableIds).toEqual([
      'SIX',
    ]);
    const busy = floorOf(tables, [{ id: 'x', tableIds: ['SIX'], ...stay('18:00', '20:00') }]);
    expect(chooseTables(busy, { guestCount: 6, stay: stay('19:00', '21:00') })?.set.tableIds).toEqual(['B', 'C']);
  });

  /** What a stay takes from a table in stays of the default length: the measure assignment once ranked by first. */
  const defaultLost = (floor: SeatingFloor, tableId: string, s: { startMs: number; endMs: number }) => {
    const holds = floor.holds.get(tableId) ?? [];
    const seats = floor.seats.get(tableId)!;
    return sellableSeatMinutes(seats, holds, floor.terms) - sellableSeatMinutes(seats, [...holds, s], floor.terms);
  };

  it('gives a party of 2 the free two-top before a free four-top, even where the four-top loses no default stay', () => {
    // The four-top is free only 18:55-20:25 (holds until 18:40 and from 20:40, buffer 15): a
    // 90-minute gap, no 120-minute stay, so the old measure lost nothing there and took it.
    const floor = floorOf(
      [table('FOUR', 1, 4), table('TWO', 1, 2)],
      [
        { id: 'a', tableIds: ['FOUR'], ...stay('17:00', '18:40') },
        { id: 'b', tableIds: ['FOUR'], ...stay('20:40', '23:00') },
      ],
      15,
    );
    const request = stay('18:55', '20:25');
    expect(defaultLost(floor, 'FOUR', request)).toBe(0);
    expect(defaultLost(floor, 'TWO', request)).toBe(240);
    expect(chooseTables(floor, { guestCount: 2, stay: request })).toMatchObject({
      set: { tableIds: ['TWO'] },
      excessSeats: 0,
    });
  });

  it("counts gaps in stays of the request's own length: a 90-minute party leaves gaps 90-minute parties can use", () => {
    // X is free 17:45-21:35, Y until 22:35 (buffer 15). 18:55-20:25 on X leaves 40 minutes on
    // either side; on Y it leaves 100 (17:00-18:40 and 20:40-22:20), each room for a 90-minute
    // stay. In 120-minute stays those gaps are worthless (Y loses 2 stays, X 1): X was taken.
    const floor = floorOf(
      [table('X', 1, 2), table('Y', 1, 2)],
      [
        { id: 'a', tableIds: ['X'], ...stay('17:00', '17:45') },
        { id: 'b', tableIds: ['X'], ...stay('21:35', '23:00') },
        { id: 'c', tableIds: ['Y'], ...stay('22:35', '23:00') },
      ],
      15,
    );
    const request = stay('18:55', '20:25');
    expect(defaultLost(floor, 'X', request)).toBeLessThan(defaultLost(floor, 'Y', request));
    // In 90-minute stays: X 2 → 0, Y 3 → 2 (of 2 seats × 90 minutes each).
    expect(chooseTables(floor, { guestCount: 2, stay: request })).toMatchObject({
      set: { tableIds: ['Y'] },
      sellableLost: 180,
      defaultSellableLost: 480,
    });
  });

  it('takes the fewest tables when seats over the party and sellable time lost are equal', () => {
    const tables = [table('P', 1, 2, ['Q']), table('Q', 1, 2, ['P']), table('FOUR', 2, 4), table('SIX', 3, 6)];
    // The pushed-together pair listed first: a tie kept by order would take it.
    const floor = { ...floorOf(tables, []), sets: [...tableSets(tables)].reverse() };
    // P+Q and FOUR both seat exactly 4 and lose 4 seats × one 120-minute stay; SIX has 2 seats too many.
    expect(chooseTables(floor, { guestCount: 4, stay: stay('19:00', '21:00') })).toMatchObject({
      set: { tableIds: ['FOUR'] },
      excessSeats: 0,
      sellableLost: 480,
    });
    // Fewest seats comes before fewest tables: with FOUR held, the pair, not the six-top.
    const busy = { ...floor, holds: holdsByTable([{ id: 'x', tableIds: ['FOUR'], ...stay('18:00', '20:00') }]) };
    expect(chooseTables(busy, { guestCount: 4, stay: stay('19:00', '21:00') })?.set.tableIds).toEqual(['P', 'Q']);
  });

  it('is deterministic: the same floor gives the same choice whatever the order of its holds, a full tie the earlier set', () => {
    const tables = [table('A', 1, 4), table('B', 1, 4), table('C', 1, 4)];
    const placed: Placed[] = [
      { id: 'x', tableIds: ['A'], ...stay('21:00', '23:00') },
      { id: 'y', tableIds: ['A'], ...stay('17:00', '18:00') },
      { id: 'z', tableIds: ['C'], ...stay('17:00', '18:00') },
    ];
    const request = { guestCount: 3, stay: stay('18:30', '20:00') };
    const first = chooseTables(floorOf(tables, placed, 15), request);
    expect(chooseTables(floorOf(tables, [...placed].reverse(), 15), request)).toEqual(first);
    expect(chooseTables(floorOf(tables, placed, 15), request)).toEqual(first);
    // Two free four-tops alike in every figure: the one the floor lists first.
    const alike = floorOf(tables.slice(1), [], 0);
    expect(chooseTables(alike, request)?.set.tableIds).toEqual(['B']);
    expect(chooseTables({ ...alike, sets: [...alike.sets].reverse() }, request)?.set.tableIds).toEqual(['C']);
  });

  it('answers nothing when no set that seats the party is free', () => {
    const floor = floorOf([table('A', 1, 4)], [{ id: 'x', tableIds: ['A'], ...stay('19:00', '21:00') }], 15);
    expect(chooseTables(floor, { guestCount: 2, stay: stay('21:00', '23:00') })).toBeUndefined();
    expect(chooseTables(floor, { guestCount: 5, stay: stay('17:00', '18:30') })).toBeUndefined();
  });

  it("sets a booking's own hold aside when it chooses again for it", () => {
    const floor = floorOf([table('A', 1, 4)], [{ id: 'x', tableIds: ['A'], ...stay('19:00', '21:00') }], 15);
    expect(chooseTables(floor, { guestCount: 2, stay: stay('19:30', '21:30'), bookingId: 'x' })?.set.tableIds).toEqual([
      'A',
    ]);
  });
});
