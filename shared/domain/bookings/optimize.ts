/**
 * Table optimization (POST /api/v1/locations/{locationId}/bookings/optimize?date;
 * `locked` bookings stay put; docs/optimizer.md). Reads the date's floor in one round trip, asks
 * the optimizer (optimizer.ts) for a better seating of the bookings it may move, and answers the
 * moves with the figures before and after. A dry run (the default) writes nothing.
 *
 * Otherwise the moves are written in groups (moves.ts), each group one transaction conditioned on
 * the versions read of its bookings and of the table days it writes, with `booking.updated` for
 * each booking moved. A group that meets a concurrent change writes nothing; the floor is read
 * again and what is still worth doing is planned anew, up to ATTEMPTS times; what could not be
 * done is answered in `notApplied` with the reason. Nothing is ever overwritten.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { Principal } from '../../auth/principal';
import { readTogether } from '../../data/batch';
import type { Booking } from '../../data/bookings';
import { writeBookings, type BookingWrite } from '../../data/bookingWrite';
import { tableDays, type TableDay, type TableDayWrite } from '../../data/tableDays';
import { AppError } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { OptimizeBody } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import { changedFields } from '../changes';
import { readFloor, sellingTerms, type Floor } from './floor';
import { holdDays, holdReads, type Placement } from './holds';
import { groupHoldWrites, writeOrder, type PlannedMove } from './moves';
import { optimizeSeating, problemOf, scoreOf, type Move, type SeatingProblem } from './optimizer';
import type { Score } from './sellable';
import { claimChanges, plannedTabWrites, planTabs, withTabs } from './tabs';
import { intervalOf } from './time';

/** Plans (a first, and one after each round that met a concurrent change) at most. */
const ATTEMPTS = 3;
/** Bookings moved in one transaction at most: each writes some ten items, and a transaction takes 100. */
const MAX_GROUP = 8;

interface OptimizeFigures {
  /** Bookings the optimizer may move (of the date, unlocked, not yet seated). */
  movable: number;
  /** Of them, those without a table. */
  withoutTables: number;
  /** Guests of those at tables that seat them. */
  placedCovers: number;
  /** Seat-hours the date can still sell (docs/optimizer.md). */
  sellableSeatHours: number;
  /** Seats beyond the party × hours, over the movable bookings. */
  oversizeSeatHours: number;
}

interface OptimizeMove {
  bookingId: string;
  fromTableIds: string[];
  toTableIds: string[];
}

export interface OptimizeAnswer {
  locationId: number;
  date: string;
  dryRun: boolean;
  /** The moves proposed (dry run) or made. */
  moves: OptimizeMove[];
  /** Moves that could not be made, and why (never on a dry run). */
  notApplied: (OptimizeMove & { reason: string })[];
  before: OptimizeFigures;
  /** The seating as the answer leaves it: proposed (dry run), or with the moves made. */
  after: OptimizeFigures;
  /** The seed of the search: the same floor and seed give the same moves. */
  seed: number;
}

const hours = (seatMinutes: number) => Math.round((seatMinutes / 60) * 100) / 100;

function figures(
  p: SeatingProblem,
  score: Score,
  tablesOf: (b: SeatingProblem['movable'][number]) => readonly string[],
): OptimizeFigures {
  return {
    movable: p.movable.length,
    withoutTables: p.movable.filter((b) => tablesOf(b).length === 0).length,
    placedCovers: score.placedCovers,
    sellableSeatHours: hours(score.sellableSeatMinutes),
    oversizeSeatHours: hours(score.oversizeSeatMinutes),
  };
}

const shown = (m: Move): OptimizeMove => ({ bookingId: m.bookingId, fromTableIds: m.from, toTableIds: m.to });

/** The booking on its new tables: the tabs follow (the primary tab to the primary table), and its event. */
export function retabled(
  companyId: number,
  prev: Booking,
  tableIds: readonly string[],
  now: string,
  days: TableDayWrite[],
): BookingWrite {
  const plan = planTabs(prev.tabs, tableIds, prev.defaultTabStrategy, false, randomUUID);
  const next = withTabs(
    { ...prev, tableId: tableIds[0] ?? null, tableIds: [...tableIds], version: prev.version + 1, updatedAt: now },
    plan.tabs,
  );
  const changes = changedFields(prev, next, ['tableId', 'tableIds', 'tab', 'tabs']);
  return {
    prev,
    next,
    tableDays: days,
    tabs: plannedTabWrites(plan, next, now),
    openTabs: claimChanges(prev, next),
    events: [newEvent(companyId, 'booking.updated', prev.id, { ...next }, changes)],
  };
}

const dayKey = (d: { tableId: string; date: string }) => `${d.tableId}|${d.date}`;

export interface Applied {
  applied: Move[];
  failed: (Move & { reason: string })[];
}

/**
 * Writes the moves group by group (moves.ts writeOrder), each group's table days read once for
 * all (one round trip) and kept up to date in memory as groups commit. A group whose tables are
 * taken by then, or that meets a concurrent change, writes nothing and is answered as failed.
 */
export async function applyMoves(companyId: number, floor: Floor, moves: readonly Move[]): Promise<Applied> {
  const byId = new Map(floor.bookings.map((b) => [b.id, b]));
  const zone = floor.location.timezone;
  const buffer = floor.settings.bufferMinutes;
  const planned = moves.map((m): Move & PlannedMove => ({ ...m, stay: intervalOf(byId.get(m.bookingId)!) }));
  const placement = (m: Move & PlannedMove): Placement => ({
    bookingId: m.bookingId,
    requested: { field: '/tableIds', tableIds: m.to },
    slot: m.stay,
    zone,
    bufferMinutes: buffer,
    before: { tableIds: m.from, slot: m.stay },
  });
  const wanted = (group: readonly (Move & PlannedMove)[]) => [
    ...new Map(group.flatMap((m) => holdReads(placement(m))).map((k) => [dayKey(k), k])).values(),
  ];
  const { days } = await readTogether({ days: tableDays.read(companyId, wanted(planned)) });
  const state = new Map<string, TableDay>(days.map((d) => [dayKey(d), d]));
  const names = new Map(floor.tables.map((t) => [t.id, t.name]));

  const result: Applied = { applied: [], failed: [] };
  const fail = (group: readonly Move[], reason: string) =>
    result.failed.push(...group.map(({ bookingId, from, to }) => ({ bookingId, from, to, reason })));
  for (const group of writeOrder(planned, buffer)) {
    if (group.length > MAX_GROUP) {
      fail(group, `${group.length} bookings would have to move together; at most ${MAX_GROUP} move in one transaction`);
      continue;
    }
    const holds = group.map((m) => ({
      bookingId: m.bookingId,
      tableIds: m.to,
      slot: m.stay,
      holdDates: holdDays(m.stay, 0, zone).hold,
    }));
    const plan = groupHoldWrites(
      holds,
      wanted(group).map((k) => state.get(dayKey(k))!),
      buffer,
    );
    if ('clash' in plan) {
      fail(group, `table ${names.get(plan.clash.tableId) ?? plan.clash.tableId} is taken at that time`);
      continue;
    }
    const now = new Date().toISOString();
    try {
      await writeBookings(
        companyId,
        group.map((m, i) => retabled(companyId, byId.get(m.bookingId)!, m.to, now, i === 0 ? plan.writes : [])),
      );
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
      fail(group, 'the booking or its tables were changed by another request meanwhile');
      continue;
    }
    result.applied.push(...group.map(({ bookingId, from, to }) => ({ bookingId, from, to })));
    for (const w of plan.writes)
      state.set(dayKey(w), { tableId: w.tableId, date: w.date, holds: w.holds, version: (w.expectedVersion ?? 0) + 1 });
  }
  return result;
}

/** The date's problem and the optimizer's plan for it, from a fresh read of the floor. */
async function plan(companyId: number, locationId: number, date: string) {
  const floor = await readFloor(companyId, locationId, date);
  const problem = problemOf(date, floor.bookings, floor.tables, sellingTerms(floor, date));
  return { floor, problem, plan: optimizeSeating(problem) };
}

/** Rounds of the search when a write re-optimizes its date (autoOptimizeEnabled): a bounded cost for the request. */
const AUTO_ROUNDS = 200;

const log = new Logger({ serviceName: 'brigade' });

/**
 * With `autoOptimizeEnabled`, after a create, move or cancel has committed (docs/optimizer.md,
 * "Re-optimizing after each change"): the rest of the date, its unlocked, not-yet-seated bookings
 * other than `keep` (the booking just written stays where the answer says it is), seated anew by
 * the optimizer and the moves written as optimize writes them (version checks, booking.updated).
 * Locked and seated bookings never move. It cannot undo the change it follows, so it never fails
 * the request: an error is logged and the date keeps its seating. Answers the moves made.
 */
export async function reoptimizeRest(
  companyId: number,
  locationId: number,
  date: string,
  keep: readonly string[],
): Promise<Move[]> {
  try {
    const floor = await readFloor(companyId, locationId, date);
    if (!floor.settings.autoOptimizeEnabled) return [];
    const all = problemOf(date, floor.bookings, floor.tables, sellingTerms(floor, date));
    const kept = all.movable.filter((b) => keep.includes(b.id));
    const problem: SeatingProblem = {
      ...all,
      fixed: [
        ...all.fixed,
        ...kept
          .filter((b) => b.tableIds.length > 0)
          .map(({ id, tableIds, startMs, endMs }) => ({ id, tableIds, startMs, endMs })),
      ],
      movable: all.movable.filter((b) => !keep.includes(b.id)),
    };
    const { moves } = optimizeSeating(problem, { rounds: AUTO_ROUNDS });
    return moves.length === 0 ? [] : (await applyMoves(companyId, floor, moves)).applied;
  } catch (err) {
    log.warn('re-optimizing a date after a change failed; its seating stays', {
      companyId,
      locationId,
      date,
      error: String(err),
    });
    return [];
  }
}

export async function optimizeBookings(
  principal: Principal,
  locationId: number,
  date: string,
  input: OptimizeBody,
): Promise<OptimizeAnswer> {
  assertLocationAllowed(principal, locationId);
  const { companyId } = principal;
  const dryRun = input.dryRun ?? true;
  let round = await plan(companyId, locationId, date);
  const first = round;
  const answer = (moves: readonly Move[], notApplied: Applied['failed'], after: OptimizeFigures): OptimizeAnswer => ({
    locationId,
    date,
    dryRun,
    moves: moves.map(shown),
    notApplied: notApplied.map((f) => ({ ...shown(f), reason: f.reason })),
    before: figures(first.problem, first.plan.before, (b) => b.tableIds),
    after,
    seed: first.plan.seed,
  });
  const proposed = (r: typeof round) => new Map(r.plan.moves.map((m) => [m.bookingId, m.to]));
  if (dryRun) {
    const to = proposed(round);
    return answer(
      round.plan.moves,
      [],
      figures(round.problem, round.plan.after, (b) => to.get(b.id) ?? b.tableIds),
    );
  }

  const made: Move[] = [];
  let last: Applied = { applied: [], failed: [] };
  for (let attempt = 1; ; attempt++) {
    last = await applyMoves(companyId, round.floor, round.plan.moves);
    made.push(...last.applied);
    if (last.failed.length === 0 || attempt === ATTEMPTS) break;
    // Something changed meanwhile: plan again from the floor as it is now.
    round = await plan(companyId, locationId, date);
    if (round.plan.moves.length === 0) {
      last = { applied: [], failed: [] };
      break;
    }
  }
  const to = new Map(last.applied.map((m) => [m.bookingId, m.to]));
  const after = scoreOf(round.problem, to);
  return answer(
    made,
    last.failed,
    figures(round.problem, after, (b) => to.get(b.id) ?? b.tableIds),
  );
}
