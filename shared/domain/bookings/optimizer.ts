/**
 * The table optimizer (docs/optimizer.md). Pure and deterministic for a seed.
 *
 * Given a date's movable bookings (unlocked, not yet seated) and what stays put (locked and seated
 * bookings, and those of other dates), it reseats the movable ones on tables or combinable sets
 * that seat them, free of clashes with buffers, for the best score of sellable.ts: more booked
 * guests placed (a booking without tables gets one when it can; one with tables never loses
 * them), then fewer seats beyond the parties, then more seat-minutes still sellable, then fewer
 * moves.
 *
 * The search is a local search (move one booking to its best free place; swap two) from the
 * seating as it is, then iterated: a few bookings around a random one are taken off and put back
 * one by one, mostly at their best place, the local search runs again from what that changed, and
 * the result is kept when it is no worse (else undone). The best seating found is answered.
 */
import type { Booking } from '../../data/bookings';
import type { DiningTable } from '../../data/tables';
import { seatsParty, tableSets, type Placed, type TableSet } from './fit';
import { holdsTables } from './holds';
import { clashes } from './occupancy';
import { compareScores, oversize, sellableSeatMinutes, type Score, type SellingTerms } from './sellable';
import { intervalOf, type Interval } from './time';

export interface MovableBooking extends Placed {
  guestCount: number;
}

export interface SeatingProblem {
  tables: readonly DiningTable[];
  /** Bookings that keep their tables (locked, seated, other dates): only their holds count. */
  fixed: readonly Placed[];
  /** Bookings that may move, on their current tables ([] for none). */
  movable: readonly MovableBooking[];
  terms: SellingTerms;
}

/** Whether the optimizer may move the booking: one of the date, not locked, still to be seated. */
export const isMovable = (b: Pick<Booking, 'bookingDate' | 'locked' | 'status'>, date: string) =>
  b.bookingDate === date &&
  !b.locked &&
  (b.status === 'pending' || b.status === 'confirmed' || b.status === 'checked_in');

/**
 * The date's problem from the bookings around it (the day before and after too): those the
 * optimizer may move, and the holds of every other booking that holds tables.
 */
export function problemOf(
  date: string,
  bookings: readonly Booking[],
  tables: readonly DiningTable[],
  terms: SellingTerms,
): SeatingProblem {
  const holding = bookings.filter(holdsTables);
  return {
    tables,
    fixed: holding
      .filter((b) => !isMovable(b, date) && b.tableIds.length > 0)
      .map((b) => ({ id: b.id, tableIds: b.tableIds, ...intervalOf(b) })),
    movable: holding
      .filter((b) => isMovable(b, date))
      .map((b) => ({ id: b.id, tableIds: b.tableIds, guestCount: b.guestCount, ...intervalOf(b) })),
    terms,
  };
}

export interface OptimizerOptions {
  seed?: number;
  /** Rounds of the iterated search (default ROUNDS). */
  rounds?: number;
}

export interface Move {
  bookingId: string;
  from: string[];
  to: string[];
}

export interface SeatingPlan {
  moves: Move[];
  before: Score;
  after: Score;
  seed: number;
  rounds: number;
}

const DEFAULT_SEED = 20_261_122;
const ROUNDS = 1_000;
/** Bookings a round takes off the floor at most: neighbours in time, or those on the tables it trades. */
const RUIN = 6;
const RUIN_TABLES = 8;
/** Blockers moved aside at each step of an ejection chain, at most, and the chain's depth. */
const EJECT = 2;
const EJECTION_DEPTH = 3;
const EJECTION_TRIES = 60;
/** Share of the rounds from a booking without a table that first try a chain of ejections for it. */
const EJECTION_ROUNDS = 0.2;
/** How often a round puts a booking back at a random free place rather than its best. */
const NOISE = 0.2;

/** A small, fast, seeded generator (mulberry32): the same seed, the same search. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The clash rule of occupancy.ts, bound once: the search's inner loops call it millions of times. */
const clash = clashes;

const setKey = (tableIds: readonly string[]) => [...tableIds].sort().join('|');

interface Entry extends Interval {
  /** Movable booking index, or -1 for a fixed hold. */
  owner: number;
}

/** A change of score, in the order scores compare. */
interface Delta {
  covers: number;
  oversize: number;
  sellable: number;
  moves: number;
}

const NONE: Delta = { covers: 0, oversize: 0, sellable: 0, moves: 0 };
const improves = (d: Delta) => (d.covers || -d.oversize || d.sellable || -d.moves) > 0;
const plus = (a: Delta, b: Delta): Delta => ({
  covers: a.covers + b.covers,
  sellable: a.sellable + b.sellable,
  oversize: a.oversize + b.oversize,
  moves: a.moves + b.moves,
});
const minus = (a: Delta, b: Delta): Delta => ({
  covers: a.covers - b.covers,
  sellable: a.sellable - b.sellable,
  oversize: a.oversize - b.oversize,
  moves: a.moves - b.moves,
});

/** A reseating: booking → set (-1: no table). */
type Change = [booking: number, set: number];

/**
 * The search's state: each movable booking's set (-1: none), each table's holds (by start) and
 * sellable value. What a table would be worth with a booking added or taken away is cached until
 * the table changes: the search asks it again and again.
 */
class Seating {
  readonly sets: TableSet[];
  readonly setTables: number[][];
  /** Sets booking b may take: those that seat it, and its own tables. */
  readonly candidates: number[][];
  readonly canSit: boolean[][];
  readonly fits: boolean[][];
  readonly oversizeOf: number[][];
  readonly seats: number[];
  readonly holds: Entry[][];
  /** Each table's sellable seat-minutes; NaN until asked again after the table changed. */
  private readonly value: number[];
  readonly at: number[];
  readonly initial: number[];
  /** Each booking's movable neighbours in time (their stays clash, buffers counted, were they on one table). */
  readonly near: number[][];
  readonly buffer: number;
  private readonly withCache: Map<number, number>[];
  private readonly withoutCache: Map<number, number>[];
  /** Every reseating as [booking, set before], so that a change can be undone back to a mark. */
  private readonly journal: Change[] = [];

  constructor(
    readonly p: SeatingProblem,
    readonly stayOf: readonly Interval[],
  ) {
    const index = new Map(p.tables.map((t, i) => [t.id, i]));
    this.seats = p.tables.map((t) => t.maxCapacity);
    this.buffer = p.terms.bufferMinutes;
    this.sets = tableSets(p.tables, Math.max(1, ...p.movable.map((b) => b.guestCount)));
    const byKey = new Map(this.sets.map((s, i) => [setKey(s.tableIds), i]));
    // A booking's own tables are always an option, even a set the list lacks (tables an operator put together).
    this.initial = p.movable.map((b) => {
      if (b.tableIds.length === 0) return -1;
      const key = setKey(b.tableIds);
      if (!byKey.has(key)) {
        const own = p.tables.filter((t) => b.tableIds.includes(t.id));
        byKey.set(key, this.sets.length);
        this.sets.push({
          tableIds: [...b.tableIds],
          min: own.reduce((n, t) => n + t.minCapacity, 0),
          max: own.reduce((n, t) => n + t.maxCapacity, 0),
        });
      }
      return byKey.get(key)!;
    });
    this.setTables = this.sets.map((s) => s.tableIds.flatMap((id) => (index.has(id) ? [index.get(id)!] : [])));
    this.fits = p.movable.map((b) => this.sets.map((s) => seatsParty(s, b.guestCount)));
    this.canSit = this.fits.map((row, b) => row.map((fits, s) => fits || s === this.initial[b]));
    this.candidates = this.canSit.map((row) => row.flatMap((ok, s) => (ok ? [s] : [])));
    this.oversizeOf = p.movable.map((b, i) => this.sets.map((s) => oversize(s.max, b.guestCount, stayOf[i]!)));
    this.holds = p.tables.map((t) =>
      p.fixed
        .filter((f) => f.tableIds.includes(t.id))
        .map((f) => ({ owner: -1, startMs: f.startMs, endMs: f.endMs }))
        .sort((a, b) => a.startMs - b.startMs),
    );
    this.at = p.movable.map(() => -1);
    this.initial.forEach((s, b) => s >= 0 && this.place(b, s));
    this.value = p.tables.map(() => Number.NaN);
    this.withCache = p.tables.map(() => new Map());
    this.withoutCache = p.tables.map(() => new Map());
    this.near = stayOf.map((s, i) => stayOf.flatMap((o, j) => (j !== i && clash(s, o, this.buffer) ? [j] : [])));
  }

  /** Table t's sellable seat-minutes with these holds. */
  valueOf(t: number, holds: readonly Interval[]): number {
    return sellableSeatMinutes(this.seats[t]!, holds, this.p.terms);
  }

  /** Table t's sellable seat-minutes as it is. */
  valueAt(t: number): number {
    const v = this.value[t]!;
    return Number.isNaN(v) ? (this.value[t] = this.valueOf(t, this.holds[t]!)) : v;
  }

  /** Table t's value with booking b's stay added (b is not on it). */
  private valueWith(t: number, b: number): number {
    const cached = this.withCache[t]!.get(b);
    if (cached !== undefined) return cached;
    const stay = this.stayOf[b]!;
    const holds: Interval[] = [...this.holds[t]!];
    const i = holds.findIndex((e) => e.startMs > stay.startMs);
    holds.splice(i < 0 ? holds.length : i, 0, stay);
    const v = this.valueOf(t, holds);
    this.withCache[t]!.set(b, v);
    return v;
  }

  /** Table t's value with booking b taken off it. */
  private valueWithout(t: number, b: number): number {
    const cached = this.withoutCache[t]!.get(b);
    if (cached !== undefined) return cached;
    const v = this.valueOf(
      t,
      this.holds[t]!.filter((e) => e.owner !== b),
    );
    this.withoutCache[t]!.set(b, v);
    return v;
  }

  private place(b: number, s: number): void {
    this.at[b] = s;
    const stay = this.stayOf[b]!;
    for (const t of this.setTables[s]!) {
      const list = this.holds[t]!;
      const i = list.findIndex((e) => e.startMs > stay.startMs);
      list.splice(i < 0 ? list.length : i, 0, { owner: b, startMs: stay.startMs, endMs: stay.endMs });
    }
  }

  private lift(b: number): void {
    const s = this.at[b]!;
    if (s < 0) return;
    for (const t of this.setTables[s]!) {
      const list = this.holds[t]!;
      list.splice(
        list.findIndex((e) => e.owner === b),
        1,
      );
    }
    this.at[b] = -1;
  }

  /** Whether set s is free for booking b, not counting the holds of `ignoring`. */
  freeFor(b: number, s: number, ignoring = -2): boolean {
    const stay = this.stayOf[b]!;
    return this.setTables[s]!.every((t) =>
      this.holds[t]!.every((e) => e.owner === b || e.owner === ignoring || !clash(e, stay, this.buffer)),
    );
  }

  /** Which tables are free for booking b's stay (its own holds aside): a set is free when all its tables are. */
  freeTables(b: number): boolean[] {
    const stay = this.stayOf[b]!;
    return this.holds.map((list) => list.every((e) => e.owner === b || !clash(e, stay, this.buffer)));
  }

  /** The bookings whose holds on set s's tables clash with booking b's stay (-1 for a fixed hold). */
  blockers(b: number, s: number): number[] {
    const stay = this.stayOf[b]!;
    const found = new Set<number>();
    for (const t of this.setTables[s]!)
      for (const e of this.holds[t]!) if (e.owner !== b && clash(e, stay, this.buffer)) found.add(e.owner);
    return [...found];
  }

  /** Booking b's own part of the score at set s. */
  part(b: number, s: number): Delta {
    if (s < 0) return { ...NONE, moves: this.initial[b] === -1 ? 0 : 1 };
    const fits = this.fits[b]![s]!;
    return {
      covers: fits ? this.p.movable[b]!.guestCount : 0,
      sellable: 0,
      oversize: fits ? this.oversizeOf[b]![s]! : 0,
      moves: s === this.initial[b] ? 0 : 1,
    };
  }

  /** The score change of moving b alone to set s (free), without doing it. */
  moveDelta(b: number, s: number): Delta {
    const from = this.at[b]!;
    const own = minus(this.part(b, s), this.part(b, from));
    const left = from < 0 ? [] : this.setTables[from]!;
    const taken = this.setTables[s]!;
    let sellable = 0;
    for (const t of left) if (!taken.includes(t)) sellable += this.valueWithout(t, b) - this.valueAt(t);
    for (const t of taken) if (!left.includes(t)) sellable += this.valueWith(t, b) - this.valueAt(t);
    return { ...own, sellable };
  }

  /** The score change of b and c trading places, without doing it. */
  swapDelta(b: number, c: number): Delta {
    const here = this.at[b]!;
    const there = this.at[c]!;
    const own = minus(plus(this.part(b, there), this.part(c, here)), plus(this.part(b, here), this.part(c, there)));
    let sellable = 0;
    for (const t of new Set([...this.setTables[here]!, ...this.setTables[there]!])) {
      const holds: Interval[] = this.holds[t]!.filter((e) => e.owner !== b && e.owner !== c);
      if (this.setTables[there]!.includes(t)) holds.push(this.stayOf[b]!);
      if (this.setTables[here]!.includes(t)) holds.push(this.stayOf[c]!);
      sellable += this.valueOf(t, holds) - this.valueAt(t);
    }
    return { ...own, sellable };
  }

  /** Reseats as the changes say (lifting them all first, so a swap is one change); answers the tables touched. */
  apply(changes: readonly Change[], log = true): Set<number> {
    const touched = new Set<number>();
    if (log) for (const [b] of changes) this.journal.push([b, this.at[b]!]);
    for (const [b] of changes) {
      for (const t of this.at[b]! < 0 ? [] : this.setTables[this.at[b]!]!) touched.add(t);
      this.lift(b);
    }
    for (const [b, s] of changes) {
      if (s < 0) continue;
      this.place(b, s);
      for (const t of this.setTables[s]!) touched.add(t);
    }
    for (const t of touched) {
      this.value[t] = Number.NaN;
      this.withCache[t]!.clear();
      this.withoutCache[t]!.clear();
    }
    return touched;
  }

  /** Where the journal is now: undo(mark) puts the seating back as it was then. */
  mark(): number {
    return this.journal.length;
  }

  /** Undoes every reseating since the mark; answers the bookings it moved back. */
  undo(mark: number): number[] {
    const back: number[] = [];
    while (this.journal.length > mark) {
      const [b, s] = this.journal.pop()!;
      if (this.at[b] !== s) this.apply([[b, s]], false);
      back.push(b);
    }
    return back;
  }

  /** The bookings reseated since the mark (moved at least once; some may be back where they were). */
  since(mark: number): number[] {
    return [...new Set(this.journal.slice(mark).map(([b]) => b))];
  }

  /** Forgets the journal (the search keeps what it has): it would only grow. */
  forget(): void {
    this.journal.length = 0;
  }

  score(): Score {
    let covers = 0;
    let over = 0;
    let moves = 0;
    this.at.forEach((s, b) => {
      const d = this.part(b, s);
      covers += d.covers;
      over += d.oversize;
      moves += d.moves;
    });
    return {
      placedCovers: covers,
      sellableSeatMinutes: this.value.reduce((a, _, t) => a + this.valueAt(t), 0),
      oversizeSeatMinutes: over,
      moves,
    };
  }

  /**
   * The bookings `around` and the movable ones on tables `touched`: what a change may have opened
   * up. Bookings without a table are left to the rounds that start from one (there may be many).
   */
  affected(touched: Iterable<number>, around: readonly number[]): number[] {
    const found = new Set(around);
    // A change reaches as far as the free windows it opens or closes: a stay and the buffers beyond the stays it moved.
    const reach = (this.p.terms.stayMinutes + 2 * this.buffer) * 60_000;
    const stays = around.map((b) => this.stayOf[b]!);
    for (const t of touched) {
      for (const e of this.holds[t]!)
        if (e.owner >= 0 && stays.some((s) => e.startMs < s.endMs + reach && s.startMs < e.endMs + reach))
          found.add(e.owner);
    }
    return [...found];
  }
}

/** The best free set for b other than its own, with its change, or undefined. */
function bestPlace(st: Seating, b: number): { set: number; delta: Delta } | undefined {
  const free = st.freeTables(b);
  let best: { set: number; delta: Delta } | undefined;
  for (const s of st.candidates[b]!) {
    if (s === st.at[b] || !st.setTables[s]!.every((t) => free[t])) continue;
    const delta = st.moveDelta(b, s);
    if (!best || improves(minus(delta, best.delta))) best = { set: s, delta };
  }
  return best;
}

/** An improving change that involves booking b: a move, else a swap with a neighbour in time. */
function improvementFor(st: Seating, b: number): Change[] | undefined {
  const move = bestPlace(st, b);
  if (move && improves(move.delta)) return [[b, move.set]];
  const here = st.at[b]!;
  if (here < 0) return undefined;
  for (const c of st.near[b]!) {
    const there = st.at[c]!;
    if (there < 0 || there === here || !st.canSit[b]![there] || !st.canSit[c]![here]) continue;
    if (!st.freeFor(b, there, c) || !st.freeFor(c, here, b)) continue;
    if (improves(st.swapDelta(b, c)))
      return [
        [b, there],
        [c, here],
      ];
  }
  return undefined;
}

/** Local search from the bookings queued: each improving change queues what it may have opened up. */
function descend(st: Seating, start: Iterable<number>): void {
  const queue = [...new Set(start)];
  const queued = new Set(queue);
  while (queue.length > 0) {
    const b = queue.shift()!;
    queued.delete(b);
    const changes = improvementFor(st, b);
    if (!changes) continue;
    const touched = st.apply(changes);
    for (const x of st.affected(
      touched,
      changes.map(([c]) => c),
    )) {
      if (!queued.has(x)) {
        queued.add(x);
        queue.push(x);
      }
    }
  }
}

/**
 * Seats booking b (now without a table): at its best free set, else on a set whose blockers (at
 * most EJECT, none fixed, none already moved by this chain) can be seated elsewhere the same way,
 * `depth` steps deep, trying at most `budget.tries` sets in all. Leaves the seating as it was when
 * it fails.
 */
function seatByEjection(
  st: Seating,
  b: number,
  depth: number,
  budget = { tries: EJECTION_TRIES },
  chain: ReadonlySet<number> = new Set(),
): boolean {
  const free = bestPlace(st, b);
  if (free) {
    st.apply([[b, free.set]]);
    return true;
  }
  if (depth === 0) return false;
  const options = st.candidates[b]!.map((s) => ({ s, blocking: st.blockers(b, s) })).filter(
    ({ blocking }) => blocking.length <= EJECT && blocking.every((x) => x >= 0 && !chain.has(x)),
  );
  options.sort((x, y) => x.blocking.length - y.blocking.length);
  const inChain = new Set([...chain, b]);
  for (const { s, blocking } of options) {
    if (budget.tries-- <= 0) return false;
    const mark = st.mark();
    st.apply([...blocking.map((x): Change => [x, -1]), [b, s]]);
    if (blocking.every((x) => seatByEjection(st, x, depth - 1, budget, inChain))) return true;
    st.undo(mark);
  }
  return false;
}

/** Tries to seat each booking still without a table by a chain of ejections; answers those moved. */
function seatTheUnseated(st: Seating): number[] {
  const moved: number[] = [];
  for (const b of st.at.flatMap((s, i) => (s < 0 ? [i] : []))) {
    const mark = st.mark();
    if (seatByEjection(st, b, EJECTION_DEPTH)) moved.push(...st.since(mark));
  }
  return moved;
}

/** A free set for b: the best, or now and then any free one (NOISE of the time), so that rounds explore. */
function somePlace(st: Seating, b: number, random: () => number): number | undefined {
  if (random() >= NOISE) return bestPlace(st, b)?.set;
  const freeTables = st.freeTables(b);
  const free = st.candidates[b]!.filter((s) => st.setTables[s]!.every((t) => freeTables[t]));
  return free.length > 0 ? free[Math.floor(random() * free.length)] : undefined;
}

/**
 * The bookings a round takes off the floor, around a pivot: either its neighbours in time, drawn at
 * random; or everyone near it in time on its own tables and on another set it could take (so that
 * two parties can trade whole sets of tables, with what sits around them), with that set.
 */
function toRuin(st: Seating, pivot: number, random: () => number): { taken: number[]; target?: number } {
  const taken = [pivot];
  if (random() < 0.5) {
    const pool = [...st.near[pivot]!];
    while (taken.length < RUIN && pool.length > 0) taken.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
    return { taken };
  }
  const options = st.candidates[pivot]!.filter((s) => s !== st.at[pivot]);
  const target = options[Math.floor(random() * options.length)];
  if (target === undefined) return { taken };
  const tables = new Set([...(st.at[pivot]! >= 0 ? st.setTables[st.at[pivot]!]! : []), ...st.setTables[target]!]);
  const around = st.affected(tables, [pivot]).filter((b) => b !== pivot);
  while (taken.length < RUIN_TABLES && around.length > 0)
    taken.push(around.splice(Math.floor(random() * around.length), 1)[0]!);
  return { taken, target };
}

/**
 * Takes a few bookings around a random one off the floor and puts them back one by one (the pivot
 * first on the set it trades for, when it trades; then bigger parties first, or in a random order),
 * each at its best free place or now and then another. Answers what to search from next, or false
 * when one that must keep a table finds none.
 */
function ruinAndRecreate(st: Seating, random: () => number): number[] | false {
  // Half the rounds start from a booking without a table, when there is one: room for it is what gains most.
  const unplaced = st.at.flatMap((s, b) => (s < 0 ? [b] : []));
  const pivot =
    unplaced.length > 0 && random() < 0.5
      ? unplaced[Math.floor(random() * unplaced.length)]!
      : Math.floor(random() * st.at.length);
  if (st.at[pivot] === -1 && random() < EJECTION_ROUNDS) {
    const mark = st.mark();
    if (seatByEjection(st, pivot, EJECTION_DEPTH)) return st.since(mark);
  }
  const { taken, target } = toRuin(st, pivot, random);
  // A booking that had tables must get some; one the search seated may give its place to another as large.
  const mustSit = new Set(taken.filter((b) => st.initial[b]! >= 0));
  const touched = st.apply(taken.map((b): Change => [b, -1]));
  const bySize = random() < 0.5;
  const order = taken
    .map((b) => ({ b, key: (bySize ? st.p.movable[b]!.guestCount : 0) + random() }))
    .sort((x, y) => y.key - x.key);
  if (target !== undefined && st.freeFor(pivot, target)) {
    for (const t of st.apply([[pivot, target]])) touched.add(t);
    order.splice(
      order.findIndex((o) => o.b === pivot),
      1,
    );
  }
  for (const { b } of order) {
    const place = somePlace(st, b, random);
    if (place !== undefined) for (const t of st.apply([[b, place]])) touched.add(t);
    else if (mustSit.has(b)) return false;
  }
  return st.affected(touched, taken);
}

/** The score of a seating given as each movable booking's tables (for checks and the exact solver's comparison). */
export function scoreOf(p: SeatingProblem, tablesOf: ReadonlyMap<string, readonly string[]>): Score {
  const stays = p.movable.map((b) => ({ startMs: b.startMs, endMs: b.endMs }));
  const st = new Seating(p, stays);
  const byKey = new Map(st.sets.map((s, i) => [setKey(s.tableIds), i]));
  st.apply(
    p.movable.map((b, i): Change => {
      const tableIds = tablesOf.get(b.id) ?? b.tableIds;
      if (tableIds.length === 0) return [i, -1];
      const s = byKey.get(setKey(tableIds));
      if (s === undefined)
        throw new Error(`tables ${tableIds.join(', ')} of booking ${b.id} are not a set of the floor`);
      return [i, s];
    }),
  );
  return st.score();
}

/** The best seating found for the problem, and the moves from the current one to it. */
export function optimizeSeating(p: SeatingProblem, options: OptimizerOptions = {}): SeatingPlan {
  const seed = options.seed ?? DEFAULT_SEED;
  const rounds = options.rounds ?? ROUNDS;
  const random = seeded(seed);
  const st = new Seating(
    p,
    p.movable.map((b) => ({ startMs: b.startMs, endMs: b.endMs })),
  );
  const before = st.score();
  // Guests placed count first: seat who can be seated, then improve the rest.
  seatTheUnseated(st);
  descend(st, p.movable.keys());
  let current = st.score();
  let best = { at: [...st.at], score: current };
  for (let round = 0; round < rounds && p.movable.length > 0; round++) {
    st.forget();
    const next = ruinAndRecreate(st, random);
    if (next) descend(st, next);
    const score = st.score();
    if (next && compareScores(score, current) <= 0) {
      current = score;
      if (compareScores(score, best.score) < 0) best = { at: [...st.at], score };
    } else {
      st.undo(0);
    }
  }
  const moves = p.movable.flatMap((b, i): Move[] =>
    best.at[i] === st.initial[i]
      ? []
      : [{ bookingId: b.id, from: [...b.tableIds], to: [...st.sets[best.at[i]!]!.tableIds] }],
  );
  return { moves, before, after: best.score, seed, rounds };
}
