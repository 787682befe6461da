/**
 * §7 Selling tables: availability for a busy day, the optimizer on a day of 300
 * bookings and against an exact solver, and automatic assignment against smallest fit over
 * simulated evenings. Pure domain code, in-process, no database: the figures are the rules' own
 * cost. Every problem comes from the seeded generator of bench/fixtures/seating.ts; the seeds are
 * printed. Self-contained: `npx tsx bench/sections/selling.ts` prints this section alone.
 */
import { fileURLToPath } from 'node:url';
import type { Booking } from '../../shared/data/bookings';
import { daySlots, inForce } from '../../shared/domain/bookings/availability';
import { optimizeSeating, type SeatingProblem } from '../../shared/domain/bookings/optimizer';
import { compareScores, type Score } from '../../shared/domain/bookings/sellable';
import { addDays } from '../../shared/domain/bookings/serviceHours';
import { defaultSettings } from '../../shared/domain/bookings/settings';
import { localDay } from '../../shared/domain/bookings/time';
import { weekdays, type WeekHours } from '../../shared/schemas/locations';
import { bookedDay, exactSeating, seatingInstance, simulateEvening } from '../fixtures/seating';
import { ms, table, verdict, type Verdict } from '../lib/md';
import { summarize, type Summary } from '../lib/stats';

/** The generator's base seed: problem i of a series uses SEED + its offset + i. */
export const SEED = 20_261_122;
export const AVAILABILITY_BUDGET_MS = 10;
export const OPTIMIZER_BUDGET_MS = 1_000;
/** The most the optimizer's sellable seat-minutes may fall short of the exact optimum's. */
export const OPTIMUM_GAP = 0.01;

const ZONE = 'Europe/Stockholm';
const AVAILABILITY_RUNS = 200;
const OPTIMIZER_RUNS = 3;
/** Evenings per load: 20, or `SELLING_EVENINGS` (e.g. 200 for a comparison whose differences are not noise). */
const EVENINGS = Number(process.env.SELLING_EVENINGS) || 20;
/** Requests an evening on 20 tables: from a light evening (most are seated) to one asked for three times what it can seat. */
const EVENING_LOADS = [30, 45, 60, 90];

export interface Comparison {
  size: string;
  seeds: [number, number];
  problems: number;
  /** Every figure equal to the optimum's. */
  equal: number;
  /** Guests placed equal, sellable within OPTIMUM_GAP. */
  within: number;
  worstGap: number;
  optimizerMs: Summary;
  exactMs: Summary;
}

export interface SellingResult {
  availability: {
    seed: number;
    tables: number;
    bookings: number;
    withoutTables: number;
    slots: number;
    available: number;
    ms: Summary;
  };
  optimizer: {
    seed: number;
    tables: number;
    bookings: number;
    movable: number;
    fixed: number;
    withoutTables: number;
    rounds: number;
    moves: number;
    before: Score;
    after: Score;
    ms: Summary;
  };
  comparisons: Comparison[];
  evenings: {
    seeds: [number, number];
    tables: number;
    requests: number;
    requestedCovers: number;
    assignment: number;
    smallestFit: number;
    wins: number;
    losses: number;
  }[];
}

const every = (...intervals: [string, string][]): WeekHours =>
  Object.fromEntries(weekdays.map((d) => [d, intervals.map(([open, close]) => ({ open, close }))])) as WeekHours;

function timed<T>(run: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = run();
  return { value, ms: performance.now() - t0 };
}

/** A date a month ahead whose local day is 24 hours long. */
function ordinaryDate(): string {
  for (let date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10); ; date = addDays(date, 1)) {
    const { startMs, endMs } = localDay(date, ZONE);
    if (endMs - startMs === 86_400_000) return date;
  }
}

/** Availability for a party of 4 on a day of 400 bookings on 60 tables (those smallest fit could not seat are taken without a table). */
function availabilityBench() {
  const seed = SEED + 1;
  const p = bookedDay(seed, { tables: 60, bookings: 400, overbooked: 400, fixedShare: 0 });
  const date = ordinaryDate();
  const midnight = localDay(date, ZONE).startMs;
  const all = [...p.fixed, ...p.movable].slice(0, 400);
  const bookings = all.map(
    (b): Pick<Booking, 'id' | 'tableIds' | 'startsAt' | 'endsAt' | 'guestCount' | 'status'> => ({
      id: b.id,
      tableIds: [...b.tableIds],
      startsAt: new Date(midnight + b.startMs).toISOString(),
      endsAt: new Date(midnight + b.endMs).toISOString(),
      guestCount: 'guestCount' in b ? (b.guestCount as number) : 2,
      status: 'confirmed',
    }),
  );
  const settings = {
    ...defaultSettings(1, ''),
    maxAdvanceDays: 365,
    overbookingBufferPercentage: 10,
    operatingHours: every(['11:00', '15:00'], ['17:00', '24:00']),
  };
  const request = () => ({
    date,
    zone: ZONE,
    nowMs: Date.now(),
    partySize: 4,
    rules: inForce(every(), settings, p.tables),
    bookings,
  });
  for (let i = 0; i < 20; i++) daySlots(request());
  const runs = Array.from({ length: AVAILABILITY_RUNS }, () => timed(() => daySlots(request())));
  const slots = runs[0]!.value;
  return {
    seed,
    tables: p.tables.length,
    bookings: bookings.length,
    withoutTables: bookings.filter((b) => b.tableIds.length === 0).length,
    slots: slots.length,
    available: slots.filter((s) => s.available).length,
    ms: summarize(runs.map((r) => r.ms)),
  };
}

/**
 * The optimizer on a booked day of 300 bookings on 50 tables: requests placed by smallest fit as
 * they came until the floor is full, a twentieth of them locked or seated, and the rest of the 300
 * taken without a table (the optimizer looks for room for each).
 */
function optimizerBench() {
  const seed = SEED + 2;
  const p = bookedDay(seed, { tables: 50, bookings: 300, overbooked: 0, fixedShare: 0.05, total: 300 });
  optimizeSeating(p, { rounds: 50 });
  const runs = Array.from({ length: OPTIMIZER_RUNS }, () => timed(() => optimizeSeating(p)));
  const plan = runs[0]!.value;
  return {
    seed,
    tables: p.tables.length,
    bookings: p.fixed.length + p.movable.length,
    movable: p.movable.length,
    fixed: p.fixed.length,
    withoutTables: p.movable.filter((b) => b.tableIds.length === 0).length,
    rounds: plan.rounds,
    moves: plan.moves.length,
    before: plan.before,
    after: plan.after,
    ms: summarize(runs.map((r) => r.ms)),
  };
}

/** The optimizer against exhaustive search on `count` generated problems of one size. */
function compare(offset: number, count: number, size: { tables: number; bookings: number }): Comparison {
  const first = SEED + offset;
  let equal = 0;
  let within = 0;
  let worstGap = 0;
  const optimizerMs: number[] = [];
  const exactMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const p: SeatingProblem = seatingInstance(first + i, { ...size, fixedShare: 0.1 });
    const plan = timed(() => optimizeSeating(p));
    const exact = timed(() => exactSeating(p));
    optimizerMs.push(plan.ms);
    exactMs.push(exact.ms);
    const best = exact.value.score;
    const gap =
      best.sellableSeatMinutes === 0
        ? 0
        : (best.sellableSeatMinutes - plan.value.after.sellableSeatMinutes) / best.sellableSeatMinutes;
    if (compareScores(plan.value.after, best) === 0) equal++;
    if (plan.value.after.placedCovers === best.placedCovers && gap <= OPTIMUM_GAP) within++;
    if (plan.value.after.placedCovers === best.placedCovers) worstGap = Math.max(worstGap, gap);
    else worstGap = Math.max(worstGap, 1);
  }
  return {
    size: `${size.tables} tables, ${size.bookings} requests`,
    seeds: [first, first + count - 1],
    problems: count,
    equal,
    within,
    worstGap,
    optimizerMs: summarize(optimizerMs),
    exactMs: summarize(exactMs),
  };
}

/** Automatic assignment against smallest fit, the same requests for both, evening by evening, at one load. */
function eveningsBench(requests: number) {
  const first = SEED + 10_000;
  const tables = 20;
  const results = Array.from({ length: EVENINGS }, (_, i) => simulateEvening(first + i, tables, requests));
  const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((n, r) => n + f(r), 0);
  return {
    seeds: [first, first + EVENINGS - 1] as [number, number],
    tables,
    requests,
    requestedCovers: sum((r) => r.requestedCovers),
    assignment: sum((r) => r.assignment),
    smallestFit: sum((r) => r.smallestFit),
    wins: results.filter((r) => r.assignment > r.smallestFit).length,
    losses: results.filter((r) => r.assignment < r.smallestFit).length,
  };
}

export async function selling(): Promise<SellingResult> {
  return {
    availability: availabilityBench(),
    optimizer: optimizerBench(),
    comparisons: [compare(100, 50, { tables: 6, bookings: 10 }), compare(200, 20, { tables: 8, bookings: 14 })],
    evenings: EVENING_LOADS.map(eveningsBench),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const hours = (seatMinutes: number) => `${(seatMinutes / 60).toFixed(1)}`;

/** The section's rows of the report's summary: check, budget, measured, verdict (the evenings are information: the issue sets no figure). */
export function sellingChecks(r: SellingResult): [string, string, string, Verdict][] {
  return [
    [
      '§7 Availability, one day, 60 tables, 400 bookings',
      `≤ ${AVAILABILITY_BUDGET_MS} ms median`,
      ms(r.availability.ms.median),
      verdict(r.availability.ms.median <= AVAILABILITY_BUDGET_MS),
    ],
    [
      '§7 Optimizer, 300 bookings × 50 tables',
      `≤ ${OPTIMIZER_BUDGET_MS / 1000} s median`,
      ms(r.optimizer.ms.median),
      verdict(r.optimizer.ms.median <= OPTIMIZER_BUDGET_MS),
    ],
    ...r.comparisons.map((c): [string, string, string, Verdict] => [
      `§7 Optimizer vs exact optimum, ${c.problems} problems of ${c.size}`,
      `within ${pct(OPTIMUM_GAP)} on every problem`,
      `${c.within}/${c.problems} within, ${c.equal}/${c.problems} equal, worst gap ${pct(c.worstGap)}`,
      verdict(c.within === c.problems),
    ]),
    ...r.evenings.map((e): [string, string, string, Verdict] => [
      `§7 Automatic assignment vs smallest fit, ${EVENINGS} evenings of ${e.requests} requests on ${e.tables} tables`,
      'gain reported (no budget)',
      `${e.assignment} vs ${e.smallestFit} covers (${pct(e.assignment / e.smallestFit - 1)})`,
      'INFO',
    ]),
  ];
}

export function sellingMarkdown(r: SellingResult): string[] {
  const a = r.availability;
  const o = r.optimizer;
  const e = r.evenings;
  const [first] = e;
  return [
    `Pure domain code in-process (no database: the operation adds one round trip of reads). Generator: \`bench/fixtures/seating.ts\`, base seed **${SEED}**.`,
    '',
    `**Availability** (\`daySlots\`, party of 4): ${a.tables} tables, ${a.bookings} bookings (${a.withoutTables} without a table, overbooking buffer 10 %), seed ${a.seed};`,
    `hours 11:00-15:00 and 17:00-24:00, slots every 15 minutes: ${a.slots} slots, ${a.available} available. Median **${ms(a.ms.median)}**, p99 ${ms(a.ms.p99)} over ${AVAILABILITY_RUNS} runs after 20 warm-up runs (budget ≤ ${AVAILABILITY_BUDGET_MS} ms).`,
    '',
    `**Optimizer on a day** (\`optimizeSeating\`, ${o.rounds} rounds): ${o.bookings} bookings on ${o.tables} tables (${o.fixed} locked or seated, ${o.movable} movable, ${o.withoutTables} of them without a table), seed ${o.seed}: lunch and dinner requests placed by smallest fit as they came until the floor was full, the rest of the 300 taken without a table.`,
    `Median **${ms(o.ms.median)}** over ${OPTIMIZER_RUNS} runs (budget ≤ ${OPTIMIZER_BUDGET_MS / 1000} s); ${o.moves} moves.`,
    '',
    table(
      ['', 'Guests placed', 'Sellable seat-hours', 'Oversized seat-hours'],
      [
        [
          'Before (smallest fit)',
          o.before.placedCovers,
          hours(o.before.sellableSeatMinutes),
          hours(o.before.oversizeSeatMinutes),
        ],
        ['After', o.after.placedCovers, hours(o.after.sellableSeatMinutes), hours(o.after.oversizeSeatMinutes)],
      ],
    ),
    '',
    'The exact solver (exhaustive search) cannot answer a day this size; the comparison runs on problems it can solve, of the same generator',
    '(an evening, requests placed by smallest fit, a tenth of them locked):',
    '',
    table(
      [
        'Problems',
        'Seeds',
        'Equal to the optimum (every figure)',
        `Within ${pct(OPTIMUM_GAP)}`,
        'Worst gap (sellable)',
        'Optimizer median',
        'Exact solver median',
      ],
      r.comparisons.map((c) => [
        `${c.problems} × ${c.size}`,
        `${c.seeds[0]}-${c.seeds[1]}`,
        `${c.equal}/${c.problems}`,
        `${c.within}/${c.problems}`,
        pct(c.worstGap),
        ms(c.optimizerMs.median),
        ms(c.exactMs.median),
      ]),
    ),
    '',
    `**Automatic assignment vs smallest fit** over ${EVENINGS} simulated evenings (seeds ${first!.seeds[0]}-${first!.seeds[1]}, the same evenings at every load), ${first!.tables} tables each`,
    '(two-, four-, six- and eight-tops, neighbours combinable half the time). Arrival model: each request is a party of 1-8 (2 and 4 most; weights',
    '4/38/10/26/7/9/2/4 %), a start on the quarter hour 17:00-21:00 drawn as the mean of two uniform draws (peaking around 19:00), a stay of',
    '90, 120 or 150 minutes (30/50/20 %), buffer 15 minutes. Requests are taken in the order they arrive (not by start time); each is placed',
    "by the policy (automatic assignment: `chooseTables`, fewest seats, then sellable time in stays of the request's length, then fewest tables; or smallest fit: fewest seats, then fewest tables) or",
    'turned away when no free table or set seats it. Both policies see the same requests.',
    '',
    table(
      [
        'Requests an evening',
        'Covers requested',
        'Automatic assignment',
        'Smallest fit',
        'Gain',
        'Evenings won / lost',
      ],
      e.map((x) => [
        x.requests,
        x.requestedCovers,
        `${x.assignment} (${pct(x.assignment / x.requestedCovers)})`,
        `${x.smallestFit} (${pct(x.smallestFit / x.requestedCovers)})`,
        `**${x.assignment - x.smallestFit} covers (${pct(x.assignment / x.smallestFit - 1)})**`,
        `${x.wins} / ${x.losses}`,
      ]),
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await selling();
  const lines = [
    '## 7. Selling tables',
    '',
    ...sellingMarkdown(result),
    '',
    table(['Check', 'Budget', 'Measured', 'Result'], sellingChecks(result)),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
