/**
 * What the fuzz company holds in the stage's table, to prove a rejected request wrote nothing.
 * Other test files write to the same table at the same time, so this is never the whole table:
 * only the items of the fuzz company (its partitions `C#<id>…`, which hold its entities, its
 * event log and outbox, its idempotency records; items elsewhere that name it: API key lookups,
 * sweep entries, confirmation codes) and platform items that carry the run's marker. Rate windows
 * are left out: every request counts in one, rejected or not.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/data/client';
import { keys } from '../../../shared/data/keys';

export type Item = Record<string, unknown>;
export type Snapshot = Map<string, string>;

const keyOf = (item: Item) => `${String(item.pk)} | ${String(item.sk)}`;

/** Whether an item is the fuzz company's (or a platform item the fuzz named by `marker`). */
export function belongsTo(companyId: number, marker: string): (item: Item) => boolean {
  const own = keys.company(companyId);
  const ofCompany = (v: unknown) => typeof v === 'string' && (v === own || v.startsWith(`${own}#`));
  return (item) => {
    const pk = String(item.pk);
    if (pk.startsWith('RATE#')) return false;
    if (ofCompany(item.pk) || ofCompany(item.gsi1pk) || ofCompany(item.gsi2pk)) return true;
    if (item.companyId === companyId || item.companyId === String(companyId)) return true;
    if (pk.startsWith('SWEEP#') && String(item.sk).includes(`#${companyId}#`)) return true;
    return JSON.stringify(item).includes(marker);
  };
}

/** The fuzz company's items, by key (a Scan in parallel segments: for assertions only). */
export async function snapshot(mine: (item: Item) => boolean): Promise<Snapshot> {
  const segments = 4;
  const out: Snapshot = new Map();
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db().send(
          new ScanCommand({
            TableName: tableName(),
            Segment: segment,
            TotalSegments: segments,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? []) if (mine(item)) out.set(keyOf(item), JSON.stringify(item));
        start = page.LastEvaluatedKey;
      } while (start);
    }),
  );
  return out;
}

/** The items added, removed or changed between two snapshots, as lines to print. */
export function diff(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [k, v] of after) {
    const was = before.get(k);
    if (was === undefined) lines.push(`added   ${k}: ${v.slice(0, 400)}`);
    else if (was !== v) lines.push(`changed ${k}:\n    was ${was.slice(0, 400)}\n    now ${v.slice(0, 400)}`);
  }
  for (const k of before.keys()) if (!after.has(k)) lines.push(`removed ${k}`);
  return lines;
}
