/**
 * What placing a hold needs beyond the pure rules of holds.ts: the table days it reads, and a
 * retry when another booking of the same table-day commits between the read and the transaction
 * (the transaction then fails with Contention and writes nothing).
 */
import { readTogether } from '../../data/batch';
import type { DiningTable } from '../../data/tables';
import { Contention, tableDays, type TableDay, type TableDayWrite } from '../../data/tableDays';
import { holdReads, holdWrites, type Placement } from './holds';

/**
 * The table-day writes that place the hold (409 when a table is taken), from the days the
 * operation read with everything else. A day it could not foresee (a zone whose clocks jump more
 * than an hour) is read now.
 */
export async function placeHolds(
  companyId: number,
  p: Placement,
  read: readonly TableDay[],
  tables: readonly DiningTable[],
): Promise<TableDayWrite[]> {
  const needed = holdReads(p);
  const byKey = new Map(read.map((d) => [`${d.tableId}|${d.date}`, d]));
  const missing = needed.filter((n) => !byKey.has(`${n.tableId}|${n.date}`));
  if (missing.length > 0)
    for (const d of (await readTogether({ days: tableDays.read(companyId, missing) })).days)
      byKey.set(`${d.tableId}|${d.date}`, d);
  return holdWrites(
    p,
    needed.map((n) => byKey.get(`${n.tableId}|${n.date}`)!),
    tables,
  );
}

/**
 * Runs `attempt` (read, decide, write) at most `attempts` times: again after an error that
 * `again` accepts (it may change what the next attempt does, and says why the first did not
 * do), with a short random pause that grows with each try; any other error, or the last
 * attempt's, is thrown. The one retry loop of the operations that place holds.
 */
export async function retrying<T>(
  attempts: number,
  attempt: () => Promise<T>,
  again: (err: unknown) => boolean,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (n >= attempts || !again(err)) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * n));
    }
  }
}

/** Runs `attempt` (read, decide, write) again while it fails with Contention, up to `attempts` times. */
export const retryingContention = <T>(attempt: () => Promise<T>, attempts = 6): Promise<T> =>
  retrying(attempts, attempt, (err) => err instanceof Contention);
