/**
 * Which tables can seat a party, and which are free when (docs/availability.md, "Tables"). Pure.
 *
 * A party sits at one table, or at a set of tables pushed together: tables connected through
 * their `combinableWith` lists (T1+T2+T3 in a row although T1 and T3 do not touch), at most
 * MAX_COMBINED_TABLES of them. A set seats from the sum of its tables' minimums to the sum of their
 * maximums. A table is free for a stay when none of its holds clashes with it, buffer included,
 * by the rule booking create keeps (occupancy.ts).
 */
import type { DiningTable } from '../../data/tables';
import { firstClash, type Hold } from './occupancy';
import type { Interval } from './time';

/** The most tables one booking may hold (the booking schema's bound on `tableIds`). */
export const MAX_COMBINED_TABLES = 8;
/**
 * Sets that seat the largest party asked for listed at most from each table (grown from it as
 * their lowest-numbered member): a floor where every table combines with every other has millions;
 * the first sets found from a table (fewest tables first) are the ones a party needs. The cap holds
 * per table, so every table is listed on its own and in its smallest combinations that seat the
 * party however many tables come before it.
 */
export const MAX_SETS_PER_TABLE = 100;
/** Sets visited at most from each table, those too small for the party included. */
const MAX_SETS_VISITED_PER_TABLE = 25 * MAX_SETS_PER_TABLE;

/** A table, or tables pushed together: the primary (the largest) first. */
export interface TableSet {
  tableIds: string[];
  /** The fewest and the most guests it seats. */
  min: number;
  max: number;
}

/** The seats a party needs: a walk-in whose party is not counted (0 guests) still takes one. */
export const seatsNeeded = (guestCount: number) => Math.max(1, guestCount);

/** Whether the set seats the party, by its size alone. */
export const seatsParty = (set: Pick<TableSet, 'min' | 'max'>, guestCount: number) =>
  set.min <= seatsNeeded(guestCount) && seatsNeeded(guestCount) <= set.max;

/**
 * Every table alone and every connected set of combinable tables among `tables` (partners
 * outside them are ignored: a booking group's pool combines only its own tables). A set stops
 * growing once it seats `largestParty`: a bigger one would only waste seats. From each table at
 * most MAX_SETS_PER_TABLE sets that seat `largestParty`, fewest tables first; with `onlyLargest`,
 * only those (the smaller ones seat fewer than it). Listed fewest tables first, then fewest
 * seats, then in the order of `tables`.
 */
export function tableSets(
  tables: readonly DiningTable[],
  largestParty = Number.POSITIVE_INFINITY,
  onlyLargest = false,
): TableSet[] {
  const index = new Map(tables.map((t, i) => [t.id, i]));
  const adjacent = tables.map(() => new Set<number>());
  tables.forEach((t, i) => {
    for (const id of t.combinableWith) {
      const j = index.get(id);
      // The API keeps the relation symmetric; joining both directions keeps a half-written pair usable.
      if (j === undefined || j === i) continue;
      adjacent[i]!.add(j);
      adjacent[j]!.add(i);
    }
  });
  const found: number[][] = [];
  // ESU (Wernicke 2006): each connected set once, grown from its lowest-numbered table; breadth
  // first, so the cap of each table keeps its sets of fewest tables. Sets that reach the party
  // count against the cap; the smaller ones they grow from only against the work each table may
  // take (a floor where everything combines has thousands of them).
  const bounded = Number.isFinite(largestParty);
  tables.forEach((t, root) => {
    const reaches = (seats: number) => !bounded || seats >= largestParty;
    let listed = reaches(t.maxCapacity) ? 1 : 0;
    let visited = 1;
    const more = () => listed < MAX_SETS_PER_TABLE && visited < MAX_SETS_VISITED_PER_TABLE;
    if (listed > 0 || !onlyLargest) found.push([root]);
    // A table that seats the party alone grows no further.
    let level =
      t.maxCapacity >= largestParty
        ? []
        : [{ set: [root], candidates: [...adjacent[root]!].filter((u) => u > root), seats: t.maxCapacity }];
    while (level.length > 0 && more()) {
      const next: typeof level = [];
      for (const { set, candidates, seats } of level) {
        const open = [...candidates];
        while (open.length > 0 && more()) {
          const added = open.pop()!;
          const grown = [...set, added];
          const grownSeats = seats + tables[added]!.maxCapacity;
          visited++;
          if (reaches(grownSeats)) listed++;
          if (reaches(grownSeats) || !onlyLargest) found.push(grown);
          // Only a set that may grow further needs its candidates.
          if (grown.length >= MAX_COMBINED_TABLES || grownSeats >= largestParty) continue;
          // Every candidate left in `open` neighbours the set already: the test below leaves it out too.
          const exclusive = [...adjacent[added]!].filter(
            (u) => u > root && !set.includes(u) && !set.some((s) => adjacent[s]!.has(u)),
          );
          next.push({ set: grown, candidates: [...open, ...exclusive], seats: grownSeats });
        }
        if (!more()) break;
      }
      level = next;
    }
  });

  const order = (set: number[]) => [...set].sort((a, b) => tables[b]!.maxCapacity - tables[a]!.maxCapacity || a - b);
  return found
    .map((set) => ({
      members: order(set),
      max: set.reduce((n, i) => n + tables[i]!.maxCapacity, 0),
      min: set.reduce((n, i) => n + tables[i]!.minCapacity, 0),
    }))
    .sort((a, b) => a.members.length - b.members.length || a.max - b.max || firstDifference(a.members, b.members))
    .map(({ members, min, max }) => ({ tableIds: members.map((i) => tables[i]!.id), min, max }));
}

/**
 * The sets a party may sit at: those of tableSets bounded by the party (none grown past the
 * seats it needs) that seat it. The one enumeration automatic assignment (floor.ts seatingFloor)
 * and availability (availability.ts) both choose from, so a slot availability offers is one a
 * create finds a set for.
 */
export const partySets = (tables: readonly DiningTable[], guestCount: number): TableSet[] =>
  tableSets(tables, seatsNeeded(guestCount), true).filter((s) => seatsParty(s, guestCount));

/** Index lists compared element by element (of equal length). */
const firstDifference = (a: number[], b: number[]) => {
  const i = a.findIndex((x, k) => x !== b[k]);
  return i < 0 ? 0 : a[i]! - b[i]!;
};

/** The holds of each table, by start. */
export type TableHolds = ReadonlyMap<string, readonly Hold[]>;

/** A booking as it occupies its tables. */
export interface Placed extends Interval {
  id: string;
  tableIds: readonly string[];
}

/** The holds of the bookings on each of their tables. */
export function holdsByTable(placed: Iterable<Placed>): Map<string, Hold[]> {
  const byTable = new Map<string, Hold[]>();
  for (const p of placed)
    for (const tableId of p.tableIds) {
      const hold = { bookingId: p.id, startMs: p.startMs, endMs: p.endMs };
      const list = byTable.get(tableId);
      if (list) list.push(hold);
      else byTable.set(tableId, [hold]);
    }
  for (const list of byTable.values()) list.sort((a, b) => a.startMs - b.startMs);
  return byTable;
}

/** Whether every table of the set is free for the stay (a hold of `bookingId` itself does not count). */
export function isFree(
  holds: TableHolds,
  tableIds: readonly string[],
  stay: Interval,
  bufferMinutes: number,
  bookingId = '',
): boolean {
  const candidate = { bookingId, ...stay };
  return tableIds.every((tableId) => !firstClash(holds.get(tableId) ?? [], candidate, bufferMinutes));
}

/** The sets that seat the party and are free for the stay, in the order of `sets`. */
export const freeSets = (
  sets: readonly TableSet[],
  holds: TableHolds,
  guestCount: number,
  stay: Interval,
  bufferMinutes: number,
  bookingId = '',
) => sets.filter((s) => seatsParty(s, guestCount) && isFree(holds, s.tableIds, stay, bufferMinutes, bookingId));
