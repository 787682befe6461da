/**
 * The bench's re-check of automatic assignment's refusals (bench/fixtures/seating.ts
 * `checkRefusals`): it tells a party turned away that fits from one no seating admits and from one
 * that fits only by moving more bookings than one transaction holds, so that bench §7's row can fail.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MovableBooking } from '../../shared/domain/bookings/optimizer';
import { MAX_RESEAT_MOVES } from '../../shared/domain/bookings/reseat';
import { loadSolver, type Solver } from '../../shared/domain/bookings/solver';
import { automaticEvening, checkRefusals, eveningOf, type Evening } from '../../bench/fixtures/seating';
import { table } from '../support/floors';

const H = 3_600_000;
const LIMITS = { maxNodes: 1_000_000, timeLimitSeconds: 20 };
const terms = { service: [{ startMs: 17 * H, endMs: 24 * H }], stayMinutes: 120, bufferMinutes: 0 };

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});

/**
 * A chain of `n` bookings: table Ti seats i+1 to i+2 guests, booking bi (i+2 guests) sits at Ti
 * and fits only Ti and T(i+1); the party of one fits only T0, so seating it moves all n one table along.
 */
function chain(n: number): { evening: Evening; seating: MovableBooking[] } {
  const seating = Array.from({ length: n }, (_, i) => ({
    id: `b${i}`,
    guestCount: i + 2,
    tableIds: [`T${i}`],
    startMs: 19 * H,
    endMs: 21 * H,
  }));
  const tables = Array.from({ length: n + 1 }, (_, i) => table(`T${i}`, i + 1, i + 2));
  return { evening: { tables, terms, asked: [] }, seating };
}
const party = { id: 'p', guestCount: 1, startMs: 19 * H, endMs: 21 * H };

describe('checkRefusals', () => {
  it(`counts a refusal that a seating moving ${MAX_RESEAT_MOVES} bookings admits as a party that fits`, () => {
    const { evening, seating } = chain(MAX_RESEAT_MOVES);
    expect(checkRefusals(evening, [{ request: party, seating }], solver, LIMITS)).toMatchObject({
      refusals: 1,
      fits: 1,
      beyondMoves: 0,
      noSeating: 0,
      limited: 0,
    });
  });

  it('counts one whose every seating moves more bookings than a transaction holds apart', () => {
    const { evening, seating } = chain(MAX_RESEAT_MOVES + 1);
    expect(checkRefusals(evening, [{ request: party, seating }], solver, LIMITS)).toMatchObject({
      fits: 0,
      beyondMoves: 1,
      noSeating: 0,
    });
  });

  it('proves a refusal when no seating exists', () => {
    // Every booking already one table along, a first party of one at T0: the second fits only T0 too.
    const { evening, seating } = chain(3);
    const full = [
      { ...party, id: 'first', tableIds: ['T0'] },
      ...seating.map((b, i) => ({ ...b, tableIds: [`T${i + 1}`] })),
    ];
    expect(checkRefusals(evening, [{ request: party, seating: full }], solver, LIMITS)).toMatchObject({
      noSeating: 1,
      fits: 0,
      beyondMoves: 0,
    });
  });

  it("finds none that fits among a bench evening's refusals, and the one that needs more moves than a transaction holds", () => {
    // Seed 20271203 (the bench's evening 81 of 35 requests): its request r24, a couple, fits only
    // by moving ten bookings.
    const evening = eveningOf(20_271_203, 20, 35);
    const { refused } = automaticEvening(evening, solver);
    const check = checkRefusals(evening, refused, solver, LIMITS);
    expect(check).toMatchObject({ refusals: refused.length, fits: 0, beyondMoves: 1, limited: 0 });
    expect(check.noSeating).toBe(refused.length - 1);
  });
});
