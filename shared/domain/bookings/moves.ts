/**
 * Carrying out the optimizer's moves (docs/optimizer.md, "Applying"). Pure. Moves are written a
 * group at a time, each group one transaction: a move that takes a table another move leaves at a
 * clashing time waits for it, and moves that wait on each other (two bookings trading tables) are
 * one group, so that no transaction ever writes a clash, and one that fails leaves a valid floor.
 */
import type { TableDay, TableDayWrite } from '../../data/tableDays';
import { planHolds, type HoldPlan, type Placement } from './holds';
import { clashes } from './occupancy';
import { intervalOf, type Interval } from './time';

export interface PlannedMove {
  bookingId: string;
  from: readonly string[];
  to: readonly string[];
  stay: Interval;
}

/** Whether `later` takes a table `earlier` leaves, at a time their stays clash (so it must wait for it). */
const waitsFor = (later: PlannedMove, earlier: PlannedMove, bufferMinutes: number) =>
  later !== earlier &&
  later.to.some((t) => earlier.from.includes(t) && !earlier.to.includes(t)) &&
  clashes(later.stay, earlier.stay, bufferMinutes);

/**
 * The moves in groups, in the order to write them: every group after the groups it waits for,
 * moves that wait on each other together (the strongly connected parts of "waits for", Tarjan).
 */
export function writeOrder<M extends PlannedMove>(moves: readonly M[], bufferMinutes: number): M[][] {
  const waits = moves.map((m) => moves.flatMap((o, j) => (waitsFor(m, o, bufferMinutes) ? [j] : [])));
  const index: number[] = moves.map(() => -1);
  const low: number[] = moves.map(() => 0);
  const onStack = moves.map(() => false);
  const stack: number[] = [];
  const groups: M[][] = [];
  let next = 0;
  const visit = (v: number) => {
    index[v] = low[v] = next++;
    stack.push(v);
    onStack[v] = true;
    for (const w of waits[v]!) {
      if (index[w] === -1) {
        visit(w);
        low[v] = Math.min(low[v]!, low[w]!);
      } else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
    }
    if (low[v] !== index[v]) return;
    const group: M[] = [];
    for (let w = -1; w !== v; ) {
      w = stack.pop()!;
      onStack[w] = false;
      group.push(moves[w]!);
    }
    // Tarjan closes a group after every group it reaches: those it waits for are written first.
    groups.push(group.reverse());
  };
  moves.forEach((_, v) => index[v] === -1 && visit(v));
  return groups;
}

/** A move's hold as holds.ts places it: the new tables, the stay, the days the hold is stored in. */
export interface GroupHold {
  bookingId: string;
  tableIds: readonly string[];
  slot: Interval;
  holdDates: readonly string[];
}

/**
 * The table-day writes of a group: every day read written once, at the version read, without the
 * group's old holds and with their new ones; the first clash instead when a table is taken (by a
 * booking outside the group, or by two of the group).
 */
export function groupHoldWrites(
  group: readonly GroupHold[],
  read: readonly TableDay[],
  bufferMinutes: number,
): HoldPlan {
  const moving = new Set(group.map((g) => g.bookingId));
  let days: TableDay[] = read.map((d) => ({
    ...d,
    holds: Object.fromEntries(Object.entries(d.holds).filter(([id]) => !moving.has(id))),
  }));
  for (const g of group) {
    const plan = planHolds({
      bookingId: g.bookingId,
      read: days,
      tableIds: [...g.tableIds],
      slot: g.slot,
      holdDates: g.holdDates,
      bufferMinutes,
    });
    if ('clash' in plan) return plan;
    days = plan.writes.map((w) => ({ tableId: w.tableId, date: w.date, holds: w.holds, version: w.expectedVersion }));
  }
  return {
    writes: days.map(
      (d): TableDayWrite => ({ tableId: d.tableId, date: d.date, holds: d.holds, expectedVersion: d.version }),
    ),
  };
}

/** The placement of a booking a re-seating moves: off its tables onto `to`, for the stay it has (holds.ts holdReads reads both). */
export function movedPlacement(
  b: { id: string; tableIds: readonly string[]; startsAt: string; endsAt: string },
  to: readonly string[],
  zone: string,
  bufferMinutes: number,
): Placement {
  const stay = intervalOf(b);
  return {
    bookingId: b.id,
    requested: { field: '/tableIds', tableIds: [...to] },
    slot: stay,
    zone,
    bufferMinutes,
    before: { tableIds: b.tableIds, slot: stay },
  };
}
