/**
 * Sweep items: what a sweeper must look at, by when it is due.
 *
 *   no-show      SWEEP#<UTC hour of dueAt>#<shard> / <dueAt>#<cid>#<bookingId>            a booking's autoNoShowAt
 *   offer lapse  SWEEP#WAITLIST#<UTC hour of dueAt>#<shard> / <dueAt>#<cid>#<entryId>     a waitlist offer's expiresAt
 *
 * Partitioned by the due time's UTC hour, so a sweep reads a few small partitions and no Scan; and
 * each hour in SWEEP_SHARDS shards, so that neither the platform's booking writes nor a sweep's
 * reads meet in one partition. The item follows its booking's `autoNoShowAt` (its entry's offer)
 * in every transaction that changes it; its shard comes from the company and the id alone, so the
 * transaction that deletes it computes the key the one that put it did.
 */
import { mapPool } from '../pool';
import { keys } from './keys';
import { queryAll } from './paging';
import { deleteStep, putStep, type Step } from './transact';

const HOUR = 3_600_000;

/**
 * Shards of each hour's partition. One partition key takes at most 1,000 write units a second, and
 * a booking's transaction spends 2 on its sweep item: one partition capped the whole platform at
 * about 500 bookings created, moved or closed a second within one due hour. 16 shards lift that to
 * about 8,000, beyond any booking rate the API serves, while a sweep's reads stay small: 16
 * Queries per hour it reads, most of them of an empty partition (the minimum read charge each).
 */
export const SWEEP_SHARDS = 16;

/**
 * Queries, and companies' items, a sweep has in flight at once. One item is two round trips (a
 * GetItem, a transaction): one after another a 2-minute run managed some 4,000 (48,000 an hour).
 * Ten at once make about ten times that across companies, and stay well inside the SDK's pool of
 * 50 sockets. A company's items run one after another (shared/pool.ts lanes): within a company
 * they share items (a location's counts, a table's day) and side by side would cancel each other.
 */
export const SWEEP_CONCURRENCY = 10;

/** A kind of sweep item: its partitions (`SWEEP#<family><hour>#<shard>`), its entity and the attribute naming what it is about. */
export interface SweepKind {
  family: string;
  entity: string;
  idAttribute: string;
}

const noShowSweep: SweepKind = { family: '', entity: 'NO_SHOW_SWEEP', idAttribute: 'bookingId' };
export const offerLapseSweep: SweepKind = {
  family: 'WAITLIST#',
  entity: 'WAITLIST_OFFER_SWEEP',
  idAttribute: 'entryId',
};

/** The shard of a company's booking or entry: stable for its whole life (not its due time, which moves). */
export const sweepShard = (companyId: number, id: string): number => keys.bucket(`${companyId}#${id}`, SWEEP_SHARDS);

const shardPartition = (kind: SweepKind, hour: string, shard: number) =>
  `SWEEP#${kind.family}${hour}#${String(shard).padStart(2, '0')}`;

/**
 * The hour's partition as items were written before the shards. Until the last of them is due,
 * every sweep reads it beside the shards: bookings are made and moved at most 365 days ahead
 * (`maxAdvanceDays`) and fall due at most 120 minutes after their start, offers lapse within a day,
 * so 366 days after the shards were deployed (plus the 24 hours a sweep looks back) it holds
 * nothing and this read can go. An item a booking's change left behind there (its transaction
 * deletes the sharded key) is harmless: the sweep acts only on a booking whose own autoNoShowAt
 * (an entry whose own offer) is due.
 */
const unshardedPartition = (kind: SweepKind, hour: string) => `SWEEP#${kind.family}${hour}`;

/** The sweep item's key for a due time. */
export const sweepItemKey = (companyId: number, id: string, dueAt: string, kind: SweepKind = noShowSweep) => ({
  pk: shardPartition(kind, dueAt.slice(0, 13), sweepShard(companyId, id)),
  sk: `${dueAt}#${companyId}#${id}`,
});

/** The sweep item that goes and the one that comes when a due time moves from `before` to `after` (null: none). */
export function sweepSteps(
  companyId: number,
  id: string,
  before: string | null,
  after: string | null,
  kind: SweepKind = noShowSweep,
): Step[] {
  if (before === after) return [];
  return [
    ...(before ? [deleteStep(sweepItemKey(companyId, id, before, kind))] : []),
    ...(after
      ? [
          putStep({
            ...sweepItemKey(companyId, id, after, kind),
            entity: kind.entity,
            companyId,
            [kind.idAttribute]: id,
            dueAt: after,
          }),
        ]
      : []),
  ];
}

/**
 * Sweep items of a kind due by `nowMs`, in the UTC hours from `sinceMs` on: one Query per shard of
 * each hour and one of its unsharded partition, SWEEP_CONCURRENCY at once. In due order (then
 * company and id); a booking or entry once, by its earliest item, when an unsharded item names it
 * too.
 */
export async function dueSweepItems(
  kind: SweepKind,
  sinceMs: number,
  nowMs: number,
): Promise<{ companyId: number; id: string; dueAt: string }[]> {
  const bound = `${new Date(nowMs).toISOString()}#~`;
  const partitions: string[] = [];
  for (let hour = Math.floor(sinceMs / HOUR) * HOUR; hour <= nowMs; hour += HOUR) {
    const name = new Date(hour).toISOString().slice(0, 13);
    for (let shard = 0; shard < SWEEP_SHARDS; shard++) partitions.push(shardPartition(kind, name, shard));
    partitions.push(unshardedPartition(kind, name));
  }
  // Not a request: the sweeper reads every due item of the hours, across companies.
  const read = await mapPool(partitions, SWEEP_CONCURRENCY, (partition) =>
    queryAll({ partition, range: { op: '<', value: bound } }, Infinity),
  );
  const seen = new Set<string>();
  return read
    .flat()
    .sort((a, b) => (String(a.sk) < String(b.sk) ? -1 : String(a.sk) > String(b.sk) ? 1 : 0))
    .map((i) => ({
      companyId: i.companyId as number,
      id: i[kind.idAttribute] as string,
      dueAt: i.dueAt as string,
    }))
    .filter((d) => !seen.has(`${d.companyId}#${d.id}`) && seen.add(`${d.companyId}#${d.id}`));
}

/** Bookings due for the no-show sweep by `nowMs`, in the UTC hours from `sinceMs` on. */
export const dueForNoShow = async (
  sinceMs: number,
  nowMs: number,
): Promise<{ companyId: number; bookingId: string; dueAt: string }[]> =>
  (await dueSweepItems(noShowSweep, sinceMs, nowMs)).map(({ id, ...rest }) => ({ ...rest, bookingId: id }));
