/**
 * The selling policy (docs/optimizer.md, "The selling policy"): an opt-in booking setting that,
 * on a date expected to be asked for more than it can seat, declines a party whose covers are
 * worth less than the seat-minutes it would take. Pure but for the solver it is given.
 *
 * - **Demand** is counted per date and location while the policy is on: every request for a
 *   table, seated or refused, by party size, local start and stay (a `DemandDay`).
 * - **The forecast** of what is still to come on a date is the mean of the same weekday's past
 *   days (at least MIN_HISTORY of them, else the policy is neutral), less the share of it the date
 *   has already been asked for.
 * - **The prices**: a linear program sells the forecast the date's seat-minutes (15-minute
 *   buckets, less what its bookings hold), each party taking the seats of the smallest table or
 *   set that seats it for its stay and buffer, for the most covers. The shadow price of each
 *   bucket's capacity is what a seat-minute then is worth in covers.
 * - **The rule**: a party is declined when its covers fall below THRESHOLD times the price of
 *   the seat-minutes it would take. When the forecast fits the floor every price is 0 and nothing
 *   is declined.
 */
import type { DemandDay } from '../../data/demand';
import type { DiningTable } from '../../data/tables';
import type { BookingAround } from './availability';
import { partySets } from './fit';
import { holdsTables } from './holds';
import type { Solver } from './solver';
import { addDays } from './serviceHours';
import { intervalOf, localDateTime, type Interval } from './time';

/** A request as demand counts it: the party, its start in minutes after the date's local midnight, its stay in minutes. */
export interface Ask {
  guestCount: number;
  startMinute: number;
  minutes: number;
}

/** Same weekdays of history a forecast reads (the four before the date). */
export const HISTORY_WEEKS = 4;
/** Past days with demand a forecast needs; with fewer the policy declines nothing. */
const MIN_HISTORY = 2;
/**
 * A party is declined when its covers are below THRESHOLD × the price of what it takes. Tuned in
 * the bench (bench/sections/selling.ts, `tuneThreshold`) on seeds apart from those it reports.
 */
export const THRESHOLD = 0.8;
/** The capacity buckets' length, minutes. */
const BUCKET_MINUTES = 15;

const KEY = /^(\d{1,3})@(-?\d{1,4})\+(\d{1,4})$/;

export const demandKey = (a: Ask) => `${a.guestCount}@${a.startMinute}+${a.minutes}`;

export function askOf(key: string): Ask | undefined {
  const m = KEY.exec(key);
  return m ? { guestCount: Number(m[1]), startMinute: Number(m[2]), minutes: Number(m[3]) } : undefined;
}

/** Minutes after the local midnight of `date` of an instant, read off the wall clock (so a day whose clocks jump keeps its HH:MM). */
export function minuteOfDate(local: { date: string; time: string }, date: string): number {
  const [h, m] = local.time.split(':').map(Number) as [number, number];
  const days = Math.round((Date.parse(local.date) - Date.parse(date)) / 86_400_000);
  return days * 1440 + h * 60 + m;
}

/** Demand still expected on the date: each kind's mean over the history, scaled by the share not yet asked; undefined without enough history. */
export function expectedRest(
  history: readonly DemandDay[],
  today: DemandDay,
): { ask: Ask; count: number }[] | undefined {
  const days = history.filter((d) => Object.keys(d).length > 0);
  if (days.length < MIN_HISTORY) return undefined;
  const mean = new Map<string, number>();
  for (const day of days)
    for (const [key, n] of Object.entries(day)) mean.set(key, (mean.get(key) ?? 0) + n / days.length);
  const total = [...mean.values()].reduce((a, b) => a + b, 0);
  const seen = Object.values(today).reduce((a, b) => a + b, 0);
  const share = Math.max(0, 1 - seen / total);
  return [...mean].flatMap(([key, n]) => {
    const ask = askOf(key);
    return ask && n * share > 0 ? [{ ask, count: n * share }] : [];
  });
}

/** The date's floor as the policy sees it. */
export interface SellingFloor {
  tables: readonly DiningTable[];
  /** What the date's bookings hold: the seats of their tables, from start to end (minutes of the date, buffer not included). */
  held: readonly { seats: number; startMinute: number; endMinute: number }[];
  bufferMinutes: number;
}

/** Seat-minute prices over the date, and what each party size takes. */
export interface SellingPrices {
  firstMinute: number;
  /** Covers per seat-minute, per bucket. */
  prices: readonly number[];
  bufferMinutes: number;
  /** Seats of the smallest table or set that seats each party size (absent: none seats it). */
  seats: ReadonlyMap<number, number>;
}

/** Minutes [from, to) shares with each bucket of the range, as [bucket, minutes]. */
function overlaps(from: number, to: number, first: number, buckets: number): [number, number][] {
  const out: [number, number][] = [];
  for (let b = Math.max(0, Math.floor((from - first) / BUCKET_MINUTES)); b < buckets; b++) {
    const start = first + b * BUCKET_MINUTES;
    if (start >= to) break;
    const minutes = Math.min(to, start + BUCKET_MINUTES) - Math.max(from, start);
    if (minutes > 0) out.push([b, minutes]);
  }
  return out;
}

/** The smallest set's seats for each party size asked. */
function seatsBySize(tables: readonly DiningTable[], sizes: Iterable<number>): Map<number, number> {
  const seats = new Map<number, number>();
  for (const size of new Set(sizes)) {
    const sets = partySets(tables, size);
    if (sets.length > 0) seats.set(size, Math.min(...sets.map((s) => s.max)));
  }
  return seats;
}

/** The seat-minute prices for the rest of the date's demand (the solver's linear program), or undefined when it does not solve. */
function sellingPrices(
  solver: Solver,
  floor: SellingFloor,
  rest: readonly { ask: Ask; count: number }[],
  partySize: number,
): SellingPrices | undefined {
  const seats = seatsBySize(floor.tables, [partySize, ...rest.map((r) => r.ask.guestCount)]);
  const served = rest.filter((r) => seats.has(r.ask.guestCount));
  // Nothing forecast that the floor can seat: no seat-minute has a price.
  if (served.length === 0) return undefined;
  // The whole local day, and past it as far as a stay asked for reaches.
  const asks = served.map((r) => r.ask);
  const first = Math.floor(Math.min(0, ...asks.map((a) => a.startMinute)) / BUCKET_MINUTES) * BUCKET_MINUTES;
  const last = Math.max(1440, ...asks.map((a) => a.startMinute + a.minutes + floor.bufferMinutes));
  const buckets = Math.ceil((last - first) / BUCKET_MINUTES);
  const totalSeats = floor.tables.reduce((n, t) => n + t.maxCapacity, 0);
  const capacity = Array.from({ length: buckets }, () => totalSeats * BUCKET_MINUTES);
  for (const h of floor.held)
    for (const [b, minutes] of overlaps(h.startMinute, h.endMinute + floor.bufferMinutes, first, buckets))
      capacity[b]! -= h.seats * minutes;
  const terms: [number, number][][] = capacity.map(() => []);
  served.forEach((r, j) => {
    const taken = seats.get(r.ask.guestCount)!;
    for (const [b, minutes] of overlaps(
      r.ask.startMinute,
      r.ask.startMinute + r.ask.minutes + floor.bufferMinutes,
      first,
      buckets,
    ))
      terms[b]!.push([j, taken * minutes]);
  });
  const optimum = solver.solveLinear({
    gain: served.map((r) => r.ask.guestCount),
    upper: served.map((r) => r.count),
    rows: capacity.map((limit, b) => ({ terms: terms[b]!, limit: Math.max(0, limit) })),
  });
  if (!optimum) return undefined;
  return { firstMinute: first, prices: optimum.prices, bufferMinutes: floor.bufferMinutes, seats };
}

/** What the party's seat-minutes are worth at the prices, in covers. */
export function priceOf(p: SellingPrices, ask: Ask): number {
  const seats = p.seats.get(ask.guestCount);
  if (seats === undefined) return 0;
  return overlaps(
    ask.startMinute,
    ask.startMinute + ask.minutes + p.bufferMinutes,
    p.firstMinute,
    p.prices.length,
  ).reduce((sum, [b, minutes]) => sum + p.prices[b]! * seats * minutes, 0);
}

/** Whether the policy declines the party: its covers below THRESHOLD × the price of what it takes. */
export const declines = (p: SellingPrices, ask: Ask, threshold = THRESHOLD) =>
  ask.guestCount < threshold * priceOf(p, ask);

/** A date's demand as the policy reads it: the date's own, and the same weekday's before it. */
export interface SellingDemand {
  today: DemandDay;
  history: DemandDay[];
}

/** The dates a forecast reads: the date, then the same weekday of each of the HISTORY_WEEKS weeks before. */
export const demandDates = (date: string) => [
  date,
  ...Array.from({ length: HISTORY_WEEKS }, (_, w) => addDays(date, -7 * (w + 1))),
];

/** The request of a party for a stay on the date, as demand counts it. */
export function askFor(date: string, zone: string, guestCount: number, stay: Interval): Ask {
  const startMinute = minuteOfDate(localDateTime(stay.startMs, zone), date);
  return { guestCount, startMinute, minutes: Math.round((stay.endMs - stay.startMs) / 60_000) };
}

/** The policy's view of a date's floor: its tables, and the seats the bookings and offers around it hold. */
export function sellingFloor(
  date: string,
  zone: string,
  tables: readonly DiningTable[],
  around: readonly BookingAround[],
  bufferMinutes: number,
): SellingFloor {
  const seatsOf = new Map(tables.map((t) => [t.id, t.maxCapacity]));
  const held = around.filter(holdsTables).map((b) => {
    const stay = intervalOf(b);
    const startMinute = minuteOfDate(localDateTime(stay.startMs, zone), date);
    return {
      seats: b.tableIds.reduce((n, id) => n + (seatsOf.get(id) ?? 0), 0),
      startMinute,
      endMinute: startMinute + Math.round((stay.endMs - stay.startMs) / 60_000),
    };
  });
  return { tables, held, bufferMinutes };
}

/** Whether the policy has anything to decide by on the date (enough history, and demand still to come): only then is the solver needed. */
export const forecasts = (d: SellingDemand) => (expectedRest(d.history, d.today)?.length ?? 0) > 0;

/** The prices the policy decides a party's requests on the date by, or undefined when it is neutral (too little history, or no forecast left). */
export function policyPrices(
  solver: Solver,
  floor: SellingFloor,
  d: SellingDemand,
  partySize: number,
): SellingPrices | undefined {
  const rest = expectedRest(d.history, d.today);
  if (!rest || rest.length === 0) return undefined;
  return sellingPrices(solver, floor, rest, partySize);
}
