/**
 * No-show sweep items: the bookings the sweeper must look at, by when they are due.
 *
 *   sweep item   SWEEP#<UTC hour of dueAt> / <dueAt>#<cid>#<bookingId>
 *
 * Partitioned by the due time's UTC hour, so a sweep reads a few small partitions and no Scan.
 * The item follows the booking's `autoNoShowAt` in every transaction that changes it.
 */
import { queryAll } from './paging';
import { deleteStep, putStep, type Step } from './transact';

const HOUR = 3_600_000;

const sweepKey = (companyId: number, bookingId: string, dueAt: string) => ({ pk: `SWEEP#${dueAt.slice(0, 13)}`, sk: `${dueAt}#${companyId}#${bookingId}` });

/** The sweep item that goes and the one that comes when a booking's due time moves from `before` to `after` (null: none). */
export function sweepSteps(companyId: number, bookingId: string, before: string | null, after: string | null): Step[] {
  if (before === after) return [];
  return [
    ...(before ? [deleteStep(sweepKey(companyId, bookingId, before))] : []),
    ...(after ? [putStep({ ...sweepKey(companyId, bookingId, after), entity: 'NO_SHOW_SWEEP', companyId, bookingId, dueAt: after })] : []),
  ];
}

/** Sweep items due by `nowMs`, in the UTC hours from `sinceMs` on: one Query per hour. */
export async function dueForNoShow(sinceMs: number, nowMs: number): Promise<{ companyId: number; bookingId: string; dueAt: string }[]> {
  const due: { companyId: number; bookingId: string; dueAt: string }[] = [];
  const bound = `${new Date(nowMs).toISOString()}#~`;
  for (let hour = Math.floor(sinceMs / HOUR) * HOUR; hour <= nowMs; hour += HOUR) {
    // Not a request: the sweeper reads every due booking of the hour, across companies.
    const items = await queryAll({ partition: `SWEEP#${new Date(hour).toISOString().slice(0, 13)}`, range: { op: '<', value: bound } }, Infinity);
    due.push(...items.map((i) => ({ companyId: i.companyId as number, bookingId: i.bookingId as string, dueAt: i.dueAt as string })));
  }
  return due;
}
