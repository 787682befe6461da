/**
 * Re-seating before refusing (docs/optimizer.md, "Re-seating before refusing"). Pure but for the
 * solver it is given.
 *
 * When no table or set that seats a party is free for its stay, the party may still fit once
 * other bookings of the date move: those that are not locked, not seated and not holding a
 * waitlist offer. This module decides exactly whether the party and every such booking can all be
 * seated together, each at a set that seats it (fit.ts partySets, or where it sits now), no two
 * clashing on a table (buffers kept), nothing moved onto a table held by a booking that stays;
 * and, when they can, it answers the seating that moves the fewest bookings (at most
 * MAX_RESEAT_MOVES, so that the booking and the moves are one transaction).
 *
 * The check is an integer program: one binary variable per booking and set that seats it, one row
 * per booking (it sits at exactly one set), and one row per table at each moment a stay on it
 * begins (the stays on a table are intervals; intervals that overlap pairwise share a moment where
 * one of them begins, so these rows are every clash). The objective counts the bookings kept where
 * they are. Only the bookings connected to the party's stay through stays that overlap (buffers
 * included) take part: the others overlap none of them, so they can stay where they are.
 *
 * A floor with no room at some moment of the stay is refused first by counting (`surelyFull`);
 * HiGHS (the `highs` package, WebAssembly) solves the rest. The model is bounded (MAX_COLUMNS) and
 * so is the search (MAX_NODES, then TIME_LIMIT_SECONDS): past those bounds the answer is "cannot",
 * the same for availability and create (both call `reseating`), so what one offers the other takes.
 */
import type { DiningTable } from '../../data/tables';
import type { BookingAround } from './availability';
import { holdsByTable, isFree, partySets, seatsNeeded, type Placed, type TableHolds, type TableSet } from './fit';
import { holdsTables } from './holds';
import { clashes } from './occupancy';
import { isMovable, type Move, type MovableBooking } from './optimizer';
import type { Solver } from './solver';
import { intervalOf, type Interval } from './time';

/**
 * Bookings moved at most with a new one: the create's items and some ten per move fit one
 * transaction of 100 (a move keeps its start, so its availability bucket is the one its hour's
 * other moves share: shared/data/bookingsAround.ts).
 */
export const MAX_RESEAT_MOVES = 8;
/**
 * The largest model solved (variables): past it the answer is "cannot" without solving. On a full
 * day of 60 tables, models of 4,500-5,500 variables took 0.4-1 s to prove there was no seating; an
 * evening of 20 tables stays far below.
 */
const MAX_COLUMNS = 4_000;
/** Branch-and-bound nodes at most: a bound that does not depend on the machine's speed. */
const MAX_NODES = 2_000;
/** The wall-clock bound behind it, for a model the node bound does not stop in time. */
const TIME_LIMIT_SECONDS = 2;

/**
 * The date's seating a party is fitted into. What is worked out from a floor (its holds, each
 * booking's places) is kept with it for every party asked about: a floor is not changed once asked about.
 */
export interface ReseatFloor {
  tables: readonly DiningTable[];
  /** Holds that never move: locked and seated bookings, waitlist offers, other dates' bookings. */
  fixed: readonly Placed[];
  /** Bookings that may move, where they sit now ([] for none: those hold no table and take no part). */
  movable: readonly MovableBooking[];
  bufferMinutes: number;
}

/** The party to seat. */
export interface ReseatParty extends Interval {
  id: string;
  guestCount: number;
  /** The sets it may sit at, when they are named (a table move staff asked for); else those that seat it. */
  sets?: readonly (readonly string[])[];
}

export interface Reseating {
  /** The party's tables. */
  tableIds: string[];
  /** The bookings moved, fewest possible (none when a set is free). */
  moves: Move[];
}

/** One booking of the model: its candidate sets, and which of them is where it sits now (-1: the party). */
interface Member extends Interval {
  id: string;
  guestCount: number;
  sets: readonly (readonly string[])[];
  current: number;
}

/** The model: its members, and its rows of the clash constraints (lists of column indices). */
export interface ReseatModel {
  members: Member[];
  /** Column offset of each member's first set. */
  offsets: number[];
  columns: number;
  clashRows: number[][];
}

/**
 * The floor of a date as re-seating sees it, from the bookings around it (the day before and after
 * too) and the waitlist offers holding tables: a booking moves when it is of the date, not locked
 * and not yet seated (optimizer.ts isMovable) and sits only at tables of `tables` (a booking
 * group's pool, or every table); every other hold stays, as do `taken` (tables found taken since
 * the bookings were read, for the party's stay).
 */
export function reseatFloor(
  date: string,
  bookings: readonly BookingAround[],
  tables: readonly DiningTable[],
  bufferMinutes: number,
  taken: { tableIds: readonly string[]; stay: Interval } = { tableIds: [], stay: { startMs: 0, endMs: 0 } },
): ReseatFloor {
  const pool = new Set(tables.map((t) => t.id));
  const fixed: Placed[] = [];
  const movable: MovableBooking[] = [];
  for (const b of bookings) {
    if (!holdsTables(b) || b.tableIds.length === 0) continue;
    const placed = { id: b.id, tableIds: b.tableIds, ...intervalOf(b) };
    const moves =
      b.bookingDate !== undefined &&
      b.locked === false &&
      isMovable({ bookingDate: b.bookingDate, locked: b.locked, status: b.status }, date) &&
      b.tableIds.every((t) => pool.has(t));
    if (moves) movable.push({ ...placed, guestCount: b.guestCount });
    else fixed.push(placed);
  }
  if (taken.tableIds.length > 0) fixed.push({ id: '', tableIds: taken.tableIds, ...taken.stay });
  return { tables, fixed, movable, bufferMinutes };
}

const setKey = (tableIds: readonly string[]) => [...tableIds].sort().join('|');

/**
 * The bookings that take part: those connected to the party's stay through stays that clash. Two
 * stays clash when their spans [start, end + buffer) overlap (occupancy.ts `clashes`), so the
 * stays form an interval graph whose connected parts are the runs of overlapping spans in order of
 * start. The party's stay joins the runs its span overlaps, and only those: a run that overlaps
 * none of them starts at or after the end of each. Answers the bookings in their given order.
 */
export const connected = <T extends Interval>(stay: Interval, bookings: readonly T[], bufferMinutes: number): T[] =>
  connectedTo(bookings, bufferMinutes)(stay);

/** `connected` for each stay asked about, the runs worked out once. */
function connectedTo<T extends Interval>(bookings: readonly T[], bufferMinutes: number): (stay: Interval) => T[] {
  const buffer = bufferMinutes * 60_000;
  const spans = bookings.map((b, i) => ({ i, startMs: b.startMs, endMs: b.endMs + buffer }));
  spans.sort((x, y) => x.startMs - y.startMs);
  const runs: { startMs: number; endMs: number; members: number[] }[] = [];
  for (const span of spans) {
    const run = runs.at(-1);
    if (run && span.startMs < run.endMs) {
      run.endMs = Math.max(run.endMs, span.endMs);
      run.members.push(span.i);
    } else runs.push({ startMs: span.startMs, endMs: span.endMs, members: [span.i] });
  }
  return (stay) => {
    const endMs = stay.endMs + buffer;
    const taking = runs.filter((run) => run.startMs < endMs && stay.startMs < run.endMs).flatMap((run) => run.members);
    return taking.sort((a, b) => a - b).map((i) => bookings[i]!);
  };
}

/** The places of a booking: the sets it may sit at, and which of them is where it sits now (-1: none). */
interface Places {
  sets: (readonly string[])[];
  current: number;
}

/** What is worked out once per floor and kept for every party asked about on it (availability asks slot by slot). */
interface Known {
  /** The holds of every table, those that stay and those that may move, as they are now. */
  holds: TableHolds;
  /** The sets that seat each party size (partySets). */
  setsFor: (guestCount: number) => TableSet[];
  /** The movable bookings that take part for a stay (`connected`). */
  taking: (stay: Interval) => MovableBooking[];
  ofBooking: Map<string, Places>;
  candidates: (guestCount: number, stay: Interval, now: readonly string[]) => Places;
  /** The named sets clear of the holds that stay. */
  named: (sets: readonly (readonly string[])[], stay: Interval) => Places;
}

const knownOf = new WeakMap<ReseatFloor, Known>();

/** The floor's places, worked out as they are asked for: each party size's sets, each booking's places. */
function placesOf(floor: ReseatFloor): Known {
  const cached = knownOf.get(floor);
  if (cached) return cached;
  const { tables, fixed, bufferMinutes } = floor;
  const setsBySize = new Map<number, TableSet[]>();
  const setsFor = (guestCount: number) =>
    setsBySize.get(guestCount) ?? setsBySize.set(guestCount, partySets(tables, guestCount)).get(guestCount)!;
  const clear = (tableIds: readonly string[], stay: Interval) =>
    fixed.every((h) => !h.tableIds.some((t) => tableIds.includes(t)) || !clashes(h, stay, bufferMinutes));
  const candidates = (guestCount: number, stay: Interval, now: readonly string[]): Places => {
    const sets = setsFor(guestCount)
      .map((s) => s.tableIds)
      .filter((s) => clear(s, stay));
    if (now.length === 0) return { sets, current: -1 };
    const key = setKey(now);
    const at = sets.findIndex((s) => setKey(s) === key);
    // Where a booking sits now is always one of its places, even a set the enumeration does not list.
    return at >= 0 ? { sets, current: at } : { sets: [[...now], ...sets], current: 0 };
  };
  const named = (sets: readonly (readonly string[])[], stay: Interval): Places => ({
    sets: sets.filter((set) => clear(set, stay)).map((set) => [...set]),
    current: -1,
  });
  const known: Known = {
    holds: holdsByTable([...fixed, ...floor.movable]),
    setsFor,
    taking: connectedTo(
      floor.movable.filter((b) => b.tableIds.length > 0),
      bufferMinutes,
    ),
    ofBooking: new Map(),
    candidates,
    named,
  };
  knownOf.set(floor, known);
  return known;
}

/**
 * The integer program for seating the party (pure), or undefined when it cannot be seated without
 * solving anything: no set that seats it is clear of the holds that stay, or the model would be
 * larger than MAX_COLUMNS.
 */
export function reseatModel(floor: ReseatFloor, party: ReseatParty): ReseatModel | undefined {
  const { bufferMinutes } = floor;
  const known = placesOf(floor);
  const taking = known.taking(party);
  const own = party.sets ? known.named(party.sets, party) : known.candidates(party.guestCount, party, []);
  if (own.sets.length === 0) return undefined;
  // A booking's places depend only on the holds that stay (a movable booking outside those taking
  // part clashes with none of them), so they are kept for every party asked about on this floor.
  const places = taking.map(
    (b) =>
      known.ofBooking.get(b.id) ?? known.ofBooking.set(b.id, known.candidates(b.guestCount, b, b.tableIds)).get(b.id)!,
  );
  const columns = places.reduce((n, p) => n + p.sets.length, own.sets.length);
  if (columns > MAX_COLUMNS) return undefined;
  const members: Member[] = [
    { id: party.id, guestCount: party.guestCount, startMs: party.startMs, endMs: party.endMs, ...own },
    ...taking.map((b, i) => ({
      id: b.id,
      guestCount: b.guestCount,
      startMs: b.startMs,
      endMs: b.endMs,
      ...places[i]!,
    })),
  ];
  const offsets: number[] = [];
  let column = 0;
  for (const m of members) {
    offsets.push(column);
    column += m.sets.length;
  }

  // The uses of each table: (member, column); a row per moment a use begins, over the uses then under way.
  const uses = new Map<string, { member: number; column: number }[]>();
  members.forEach((m, i) =>
    m.sets.forEach((set, k) => {
      for (const t of set) (uses.get(t) ?? uses.set(t, []).get(t)!).push({ member: i, column: offsets[i]! + k });
    }),
  );
  const buffer = bufferMinutes * 60_000;
  const rows = new Map<string, number[]>();
  for (const list of uses.values()) {
    const starts = [...new Set(list.map((u) => members[u.member]!.startMs))].sort((a, b) => a - b);
    for (const p of starts) {
      const under = list.filter((u) => {
        const m = members[u.member]!;
        return m.startMs <= p && p < m.endMs + buffer;
      });
      // A row matters only when two bookings could meet on the table then.
      if (new Set(under.map((u) => u.member)).size < 2) continue;
      const row = under.map((u) => u.column).sort((a, b) => a - b);
      rows.set(row.join(','), row);
    }
  }
  return { members, offsets, columns, clashRows: [...rows.values()] };
}

/**
 * Whether the model surely has no solution, by a count any solution must pass (pure, fast): at
 * each moment a member's stay begins within the party's, the members then under way (buffers
 * included) need a table each of their own, among the tables of their sets (Hall's condition: a
 * matching of members to distinct tables), and seats at least their party's on those tables.
 * A full floor is refused here without solving anything.
 */
export function surelyFull(model: ReseatModel, seats: ReadonlyMap<string, number>, bufferMinutes: number): boolean {
  const { members } = model;
  const party = members[0]!;
  const buffer = bufferMinutes * 60_000;
  const moments = [
    party.startMs,
    ...members.map((m) => m.startMs).filter((t) => t > party.startMs && t < party.endMs + buffer),
  ];
  const needs = members.map((m) => Math.min(...m.sets.map((set) => set.reduce((n, t) => n + (seats.get(t) ?? 0), 0))));
  const tablesOf = members.map((m) => [...new Set(m.sets.flat())]);
  for (const p of new Set(moments)) {
    const present = members.flatMap((m, i) => (m.startMs <= p && p < m.endMs + buffer ? [i] : []));
    const usable = new Set(present.flatMap((i) => tablesOf[i]!));
    if (present.length > usable.size) return true;
    const seatsThen = [...usable].reduce((n, t) => n + (seats.get(t) ?? 0), 0);
    if (present.reduce((n, i) => n + needs[i]!, 0) > seatsThen) return true;
    // Hall's condition by augmenting paths: every member present gets a table of its own.
    const holder = new Map<string, number>();
    const place = (i: number, seen: Set<string>): boolean => {
      for (const t of tablesOf[i]!) {
        if (seen.has(t)) continue;
        seen.add(t);
        const other = holder.get(t);
        if (other === undefined || place(other, seen)) {
          holder.set(t, i);
          return true;
        }
      }
      return false;
    };
    if (!present.every((i) => place(i, new Set()))) return true;
  }
  return false;
}

/**
 * The seating of the model that keeps the most bookings where they are (moves at most
 * MAX_RESEAT_MOVES), or undefined when there is none, or none found within the bounds.
 */
function solveReseat(
  solver: Solver,
  model: ReseatModel,
  seatsOf: (tableIds: readonly string[]) => number,
): Reseating | undefined {
  const { members, offsets, columns, clashRows } = model;
  const kept = members.filter((m) => m.current >= 0);
  const rows: { columns: number[]; lower: number; upper: number }[] = [
    ...members.map((m, i) => ({
      columns: m.sets.map((_, k) => offsets[i]! + k),
      lower: 1,
      upper: 1,
    })),
    ...clashRows.map((columns) => ({ columns, lower: 0, upper: 1 })),
  ];
  if (kept.length > MAX_RESEAT_MOVES)
    rows.push({
      columns: members.flatMap((m, i) => (m.current >= 0 ? [offsets[i]! + m.current] : [])),
      lower: kept.length - MAX_RESEAT_MOVES,
      upper: kept.length,
    });
  // Fewest moves first; among seatings with as many moves, the fewest seat-minutes beyond the parties
  // (each scaled so that all of them together weigh less than one move).
  const waste = members.map((m) =>
    m.sets.map((set) => ((seatsOf(set) - seatsNeeded(m.guestCount)) * (m.endMs - m.startMs)) / 60_000),
  );
  const most = waste.reduce((n, w) => n + Math.max(0, ...w), 0);
  const weight = 1 / (most + 1);
  const cost = new Array<number>(columns).fill(0);
  members.forEach((m, i) => {
    m.sets.forEach((_, k) => (cost[offsets[i]! + k] = waste[i]![k]! * weight));
    if (m.current >= 0) cost[offsets[i]! + m.current]! -= 1;
  });
  const values = solver.solveBinary({ columns, cost, rows, maxNodes: MAX_NODES, timeLimitSeconds: TIME_LIMIT_SECONDS });
  if (!values) return undefined;
  const chosen = members.map((m, i) => m.sets.findIndex((_, k) => values[offsets[i]! + k]! > 0.5));
  if (chosen.some((k) => k < 0)) return undefined;
  const moves: Move[] = [];
  members.forEach((m, i) => {
    if (m.current < 0 || chosen[i] === m.current) return;
    moves.push({ bookingId: m.id, from: [...m.sets[m.current]!], to: [...m.sets[chosen[i]!]!] });
  });
  return { tableIds: [...members[0]!.sets[chosen[0]!]!], moves };
}

/** The party's seating with the fewest moves, or undefined when it cannot be seated (within the bounds). */
export function reseating(solver: Solver, floor: ReseatFloor, party: ReseatParty): Reseating | undefined {
  // A set already free moves nobody: no solver needed (and none trusted to find what is plain).
  const { holds, setsFor } = placesOf(floor);
  const candidates = party.sets ?? setsFor(party.guestCount).map((set) => set.tableIds);
  const free = candidates.find((tableIds) => isFree(holds, tableIds, party, floor.bufferMinutes));
  if (free) return { tableIds: [...free], moves: [] };
  const model = reseatModel(floor, party);
  if (!model) return undefined;
  const seats = new Map(floor.tables.map((t) => [t.id, t.maxCapacity]));
  if (surelyFull(model, seats, floor.bufferMinutes)) return undefined;
  return solveReseat(solver, model, (set) => set.reduce((n, t) => n + (seats.get(t) ?? 0), 0));
}
