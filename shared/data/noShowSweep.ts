/**
 * Sweep items: what a sweeper must look at, by when it is due.
 *
 *   no-show      SWEEP#<UTC hour of dueAt> / <dueAt>#<cid>#<bookingId>            a booking's autoNoShowAt
 *   offer lapse  SWEEP#WAITLIST#<UTC hour of dueAt> / <dueAt>#<cid>#<entryId>     a waitlist offer's expiresAt
 *
 * Partitioned by the due time's UTC hour, so a sweep reads a few small partitions and no Scan.
 * The item follows its booking's `autoNoShowAt` (its entry's offer) in every transaction that changes it.
 */
import { queryAll } from './paging';
import { deleteStep, putStep, type Step } from './transact';

const HOUR = 3_600_000;

/** A kind of sweep item: its partitions (`SWEEP#<family><hour>`), its entity and the attribute naming what it is about. */
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

const sweepKey = (kind: SweepKind, companyId: number, id: string, dueAt: string) => ({
  pk: `SWEEP#${kind.family}${dueAt.slice(0, 13)}`,
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
    ...(before ? [deleteStep(sweepKey(kind, companyId, id, before))] : []),
    ...(after
      ? [
          putStep({
            ...sweepKey(kind, companyId, id, after),
            entity: kind.entity,
            companyId,
            [kind.idAttribute]: id,
            dueAt: after,
          }),
        ]
      : []),
  ];
}

/** Sweep items of a kind due by `nowMs`, in the UTC hours from `sinceMs` on: one Query per hour. */
export async function dueSweepItems(
  kind: SweepKind,
  sinceMs: number,
  nowMs: number,
): Promise<{ companyId: number; id: string; dueAt: string }[]> {
  const due: { companyId: number; id: string; dueAt: string }[] = [];
  const bound = `${new Date(nowMs).toISOString()}#~`;
  for (let hour = Math.floor(sinceMs / HOUR) * HOUR; hour <= nowMs; hour += HOUR) {
    // Not a request: the sweeper reads every due item of the hour, across companies.
    const items = await queryAll(
      {
        partition: `SWEEP#${kind.family}${new Date(hour).toISOString().slice(0, 13)}`,
        range: { op: '<', value: bound },
      },
      Infinity,
    );
    due.push(
      ...items.map((i) => ({
        companyId: i.companyId as number,
        id: i[kind.idAttribute] as string,
        dueAt: i.dueAt as string,
      })),
    );
  }
  return due;
}

/** Bookings due for the no-show sweep by `nowMs`, in the UTC hours from `sinceMs` on. */
export const dueForNoShow = async (
  sinceMs: number,
  nowMs: number,
): Promise<{ companyId: number; bookingId: string; dueAt: string }[]> =>
  (await dueSweepItems(noShowSweep, sinceMs, nowMs)).map(({ id, ...rest }) => ({ ...rest, bookingId: id }));
