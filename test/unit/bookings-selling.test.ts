/**
 * The selling policy (selling.ts; docs/optimizer.md, "The selling policy"): the forecast from the
 * same weekday's demand, the seat-minute prices of its linear program, and the rule that declines
 * a party worth fewer covers than the seats it takes; a create's plan with the policy's demand
 * read (create.ts planCreate), which declines with a 409 the policy names; and, over generated
 * floors, bookings and demand, availability's `selling_policy` slots exactly the creates declined.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '../../shared/data/bookings';
import type { AvailabilitySlot } from '../../shared/domain/bookings/availability';
import { planCreate, type CreateRead } from '../../shared/domain/bookings/create';
import { policyFor, withSellingPolicy } from '../../shared/domain/bookings/floor';
import {
  askOf,
  declines,
  demandDates,
  demandKey,
  expectedRest,
  minuteOfDate,
  policyPrices,
  priceOf,
  type Ask,
  type SellingFloor,
} from '../../shared/domain/bookings/selling';
import type { DemandDay } from '../../shared/data/demand';
import { addDays } from '../../shared/domain/bookings/serviceHours';
import { defaultSettings } from '../../shared/domain/bookings/settings';
import { loadSolver, type Solver } from '../../shared/domain/bookings/solver';
import { slotLasting } from '../../shared/domain/bookings/time';
import { nextSpringForward } from '../support/dst';
import { locationOf, table } from '../support/floors';

let solver: Solver;
beforeAll(async () => {
  solver = await loadSolver();
});

const at = (hh: number, mm = 0) => hh * 60 + mm;
const ask = (guestCount: number, start: number, minutes = 120): Ask => ({ guestCount, startMinute: start, minutes });
const day = (...asks: [Ask, number][]): DemandDay => Object.fromEntries(asks.map(([a, n]) => [demandKey(a), n]));

/** Five four-tops (20 seats), nothing combinable. */
const fourTops = Array.from({ length: 5 }, (_, i) => table(`F${i + 1}`, 1, 4));
const emptyFloor: SellingFloor = { tables: fourTops, held: [], bufferMinutes: 15 };
/** A weekday asked for three times what the floor seats at 19:00, all foursomes. */
const busy = day([ask(4, at(19)), 15]);

describe('the forecast', () => {
  it('keys a request by party, start minute and stay, and reads the key back', () => {
    expect(demandKey(ask(4, at(19, 30), 90))).toBe('4@1170+90');
    expect(askOf('4@1170+90')).toEqual(ask(4, at(19, 30), 90));
    expect(askOf('4@1170')).toBeUndefined();
  });

  it('reads the date and the same weekday of the four weeks before it', () => {
    expect(demandDates('2027-03-31')).toEqual(['2027-03-31', '2027-03-24', '2027-03-17', '2027-03-10', '2027-03-03']);
  });

  it("counts minutes after the date's midnight by the wall clock, past midnight into the next day", () => {
    expect(minuteOfDate({ date: '2027-03-31', time: '19:15' }, '2027-03-31')).toBe(at(19, 15));
    expect(minuteOfDate({ date: '2027-04-01', time: '00:30' }, '2027-03-31')).toBe(24 * 60 + 30);
    expect(minuteOfDate({ date: '2027-03-30', time: '23:00' }, '2027-03-31')).toBe(-60);
  });

  it('is neutral with fewer than two past days of demand', () => {
    expect(expectedRest([], {})).toBeUndefined();
    expect(expectedRest([busy], {})).toBeUndefined();
    expect(expectedRest([busy, {}, {}], {})).toBeUndefined();
  });

  it("expects each kind's mean, less the share the date has already been asked for", () => {
    const history = [day([ask(2, at(19)), 6], [ask(4, at(20)), 2]), day([ask(2, at(19)), 2], [ask(4, at(20)), 6])];
    expect(expectedRest(history, {})).toEqual([
      { ask: ask(2, at(19)), count: 4 },
      { ask: ask(4, at(20)), count: 4 },
    ]);
    // Two of the eight expected have been asked: three quarters of each kind is still to come.
    expect(expectedRest(history, day([ask(2, at(19)), 2]))).toEqual([
      { ask: ask(2, at(19)), count: 3 },
      { ask: ask(4, at(20)), count: 3 },
    ]);
    // Asked for more than expected: nothing is still to come.
    expect(expectedRest(history, day([ask(6, at(18)), 9]))).toEqual([]);
  });
});

describe('the prices and the rule', () => {
  it('declines nothing when the forecast fits the floor: every price is 0', () => {
    const light = day([ask(4, at(19)), 3], [ask(2, at(20)), 1]);
    const prices = policyPrices(solver, emptyFloor, { history: [light, light], today: {} }, 1)!;
    expect(prices.prices.every((p) => p === 0)).toBe(true);
    for (const size of [1, 2, 3, 4]) expect(declines(prices, ask(size, at(19)))).toBe(false);
  });

  it('on a date asked for more than it seats, declines a couple on a four-top at the peak, and takes a foursome', () => {
    const prices = policyPrices(solver, emptyFloor, { history: [busy, busy], today: {} }, 2)!;
    // A seat-minute at 19:00 sells for a foursome's covers over its 4 seats × 135 minutes.
    expect(priceOf(prices, ask(4, at(19)))).toBeCloseTo(4, 6);
    expect(priceOf(prices, ask(2, at(19)))).toBeCloseTo(4, 6);
    expect(declines(prices, ask(2, at(19)))).toBe(true);
    expect(declines(prices, ask(4, at(19)))).toBe(false);
    // Away from the peak no seat is short: the couple is taken at lunch.
    expect(priceOf(prices, ask(2, at(12)))).toBe(0);
    expect(declines(prices, ask(2, at(12)))).toBe(false);
  });

  it('prices what the bookings already hold: with the peak half sold, the same demand still declines the couple', () => {
    const held = [0, 1].map(() => ({ seats: 4, startMinute: at(19), endMinute: at(21) }));
    const prices = policyPrices(solver, { ...emptyFloor, held }, { history: [busy, busy], today: {} }, 2)!;
    expect(declines(prices, ask(2, at(19)))).toBe(true);
  });

  it('is neutral when nothing forecast can be seated (parties larger than every table)', () => {
    const large = day([ask(12, at(19)), 9]);
    expect(policyPrices(solver, emptyFloor, { history: [large, large], today: {} }, 2)).toBeUndefined();
  });

  it('turns neutral once the date has been asked for all it was expected to be', () => {
    const seen = day([ask(4, at(19)), 15]);
    expect(policyPrices(solver, emptyFloor, { history: [busy, busy], today: seen }, 2)).toBeUndefined();
  });
});

// A create's world: an ordinary day (two weeks after the next spring-forward), asked two days ahead.
const zone = 'Europe/Stockholm';
const date = addDays(nextSpringForward(zone)!, 14);
const now = new Date(Date.parse(`${addDays(date, -2)}T12:00:00Z`));
const location = locationOf('Policy', zone, ['17:00', '23:30'], now);
const settings = { ...defaultSettings(1, now.toISOString()), sellingPolicyEnabled: true };

describe("a create's plan with the policy on", () => {
  const read = (selling?: CreateRead['selling']): CreateRead => ({
    location,
    settings,
    tables: [],
    guest: undefined,
    days: [],
    floor: { tables: fourTops, bookings: [], offers: [] },
    ...(selling ? { selling } : {}),
  });
  const plan = (r: CreateRead, guestCount: number) => {
    const input = { locationId: 1, bookingDate: date, startTime: '19:00', guestCount, guestName: 'Ada' };
    const fresh = { id: `b${guestCount}`, confirmationCode: 'CODE', now, uuid: () => 'u' };
    const first = planCreate(1, input, r, [], { taken: [], seat: false }, fresh);
    return first;
  };

  it('asks for the solver first, then declines the couple with a 409 naming the policy', () => {
    const r = read({ history: [busy, busy], today: {} });
    expect(plan(r, 2)).toEqual({ solve: true });
    const input = { locationId: 1, bookingDate: date, startTime: '19:00', guestCount: 2, guestName: 'Ada' };
    const answer = planCreate(
      1,
      input,
      r,
      [],
      { taken: [], seat: false },
      { id: 'b', confirmationCode: 'C', now, uuid: () => 'u' },
      solver,
    );
    expect(answer).toHaveProperty('refuse');
    const refusal = (answer as { refuse: { code: string; message: string } }).refuse;
    expect(refusal.code).toBe('CONFLICT');
    expect(refusal.message).toMatch(/^Declined by the selling policy/);
  });

  it('with too little history neither asks for the solver nor declines: it places the party', () => {
    expect(plan(read({ history: [busy], today: {} }), 2)).toHaveProperty('read');
  });

  it('without the demand read (the setting off) refuses nothing that fits', () => {
    const answer = plan(read(), 2);
    expect(answer).toHaveProperty('read');
  });
});

describe('availability equals create with the policy on (property)', () => {
  const quarter = fc.integer({ min: 0, max: 16 }).map((q) => at(17) + 15 * q);
  const hhmm = (minute: number) =>
    `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
  const demandDay = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 6 }), quarter, fc.integer({ min: 1, max: 8 })), { maxLength: 8 })
    .map((asks) => {
      const d: Record<string, number> = {};
      for (const [size, start, n] of asks) d[demandKey(ask(size, start))] = (d[demandKey(ask(size, start))] ?? 0) + n;
      return d;
    });
  const world = fc.record({
    sizes: fc.array(fc.constantFrom(2, 4, 6), { minLength: 2, maxLength: 8 }),
    held: fc.array(fc.tuple(fc.nat(7), quarter), { maxLength: 6 }),
    history: fc.array(demandDay, { minLength: 2, maxLength: 4 }),
    today: demandDay,
    party: fc.integer({ min: 1, max: 6 }),
  });

  it('every time availability marks selling_policy, a create is declined by the policy, and no other', async () => {
    let declinedSeen = 0;
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const tables = w.sizes.map((max, i) => table(`P${i}`, 1, max));
        const bookings = w.held
          .filter(([t]) => t < tables.length)
          .map(([t, start], i) => {
            const stay = slotLasting(date, hhmm(start), 120, zone);
            return {
              id: `h${i}`,
              tableIds: [tables[t]!.id],
              startsAt: stay.startsAt,
              endsAt: stay.endsAt,
              guestCount: 2,
              status: 'confirmed' as const,
              bookingDate: date,
              locked: false,
            };
          });
        const floor = { location, settings, tables, bookings, offers: [] };
        const sold = { history: w.history, today: w.today };
        const prices = await policyFor(floor, date, w.party, sold);
        const times = Array.from({ length: 17 }, (_, q) => hhmm(at(17) + 15 * q));
        const offered = times.map((time): AvailabilitySlot => {
          const stay = slotLasting(date, time, settings.defaultDurationMinutes, zone);
          return { time, startsAt: stay.startsAt, endsAt: stay.endsAt, available: true };
        });
        const marked = prices ? withSellingPolicy(offered, prices, date, zone, w.party) : offered;
        const read: CreateRead = {
          location,
          settings,
          tables: [],
          guest: undefined,
          days: [],
          // The plan reads of a booking only what availability's BookingAround carries.
          floor: { tables, bookings: bookings as unknown as Booking[], offers: [] },
          selling: sold,
        };
        for (const slot of marked) {
          const input = {
            locationId: 1,
            bookingDate: date,
            startTime: slot.time,
            guestCount: w.party,
            guestName: 'Ada',
          };
          const plan = planCreate(
            1,
            input,
            read,
            [],
            { taken: [], seat: false },
            { id: 'p', confirmationCode: 'C', now, uuid: () => 'u' },
            solver,
          );
          const declined = 'refuse' in plan && plan.refuse.message.startsWith('Declined by the selling policy');
          if (declined) declinedSeen++;
          expect(declined, `${slot.time} for ${w.party}`).toBe(!slot.available && slot.reason === 'selling_policy');
        }
      }),
      { numRuns: 60, seed: 26_12_07 },
    );
    // The generated worlds do reach the policy (some fifty of 1,020 times declined with this seed).
    expect(declinedSeen).toBeGreaterThan(0);
  }, 60_000);
});
