/**
 * The scheduled sweeps as the sweeper runs them, watched: a no-show sweep that fails raises an
 * alert in the company and at the location of the booking it failed on (docs/alerts.md), then
 * fails the run all the same (the Lambda's error metric counts it; the next run, five minutes
 * later, finds everything the failed one left still due).
 *
 * The sweep stops at the first booking it cannot mark (it marks several at once, but finishes
 * every booking before a failure in its order before it fails: shared/pool.ts). That booking is
 * the first one still due after the failure, in the sweep's own order (every one before it was
 * marked, or is no longer due): so the alert names it by reading the due bookings again. One
 * alert per failing booking and UTC day: its id is derived from both, so a booking that fails
 * every five minutes raises one.
 * A failure no booking explains (the due items themselves cannot be read) has no company to hold
 * an alert: it is logged and rethrown.
 */
import { createHash } from 'node:crypto';
import { raiseAlert } from '../data/alerts';
import { bookings } from '../data/bookings';
import { dueForNoShow } from '../data/noShowSweep';
import { AppError } from '../errors';
import { newAlert } from './alerts';
import { noShowDue, sweepNoShows } from './bookings/transitions';

export const SWEEP_ALERT_TYPE = 'no_show_sweep.failed';
/** How far back the sweep reads (bookings/transitions.ts SWEEP_LOOKBACK_HOURS). */
const LOOKBACK_MS = 24 * 3_600_000;

/** A UUID (v4 layout) derived from `name`: the same name, the same id. */
export function derivedUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex').slice(0, 32).split('');
  h[12] = '4';
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** The first booking still due at `nowMs` (confirmed or checked in, its autoNoShowAt passed): the one a failed sweep stopped at. */
async function stuckBooking(nowMs: number) {
  for (const due of await dueForNoShow(nowMs - LOOKBACK_MS, nowMs)) {
    const b = await bookings.get(due.companyId, due.bookingId);
    if (noShowDue(b, nowMs)) return { companyId: due.companyId, booking: b, dueAt: b.autoNoShowAt };
  }
  return undefined;
}

/** Raises the alert of a failed sweep; answers its id, or null when no booking explains the failure. */
async function alertSweepFailure(err: unknown, nowMs: number): Promise<string | null> {
  const stuck = await stuckBooking(nowMs);
  if (!stuck) return null;
  const { companyId, booking, dueAt } = stuck;
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const error = err instanceof Error ? err : new Error(String(err));
  const alert = {
    ...newAlert({
      locationId: booking.locationId,
      alertType: SWEEP_ALERT_TYPE,
      severity: 'error',
      title: 'A booking could not be marked as a no-show',
      message: `The no-show sweep failed on booking ${booking.id}: ${error.message}`,
      details: {
        bookingId: booking.id,
        status: booking.status,
        autoNoShowAt: dueAt,
        errorCode: error instanceof AppError ? error.code : null,
      },
      stackTrace: error.stack ?? null,
      context: { sweep: 'no-show', sweptAt: new Date(nowMs).toISOString(), bookingId: booking.id },
    }),
    id: derivedUuid(`no-show-sweep#${companyId}#${booking.id}#${day}`),
  };
  try {
    await raiseAlert(companyId, alert);
  } catch (raiseErr) {
    // Already raised today for this booking: that alert stands.
    if ((raiseErr as { code?: string }).code !== 'CONFLICT') throw raiseErr;
  }
  return alert.id;
}

/**
 * `sweepNoShows`, watched: on failure raises the alert (see above), then rethrows the sweep's
 * error. A failure to raise is logged beside it, never instead of it.
 */
export async function watchedNoShowSweep(
  nowMs = Date.now(),
  sweep: (nowMs: number) => Promise<number> = sweepNoShows,
): Promise<number> {
  try {
    return await sweep(nowMs);
  } catch (err) {
    await alertSweepFailure(err, nowMs).catch((raiseErr: unknown) =>
      console.error('no-show sweep: the failure alert could not be raised', raiseErr),
    );
    throw err;
  }
}
