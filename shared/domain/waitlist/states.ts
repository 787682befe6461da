/**
 * The waitlist entry's state machine and the expiry of offers (docs/waitlist.md). Pure.
 *
 *   waiting ──offer──▶ offered ──accept──▶ accepted (a booking)
 *      ▲                 │ ├──decline──▶ declined
 *      │                 │ └──(holdMinutes pass)──▶ expired ──offer──▶ offered
 *   waiting, offered, expired ──leave──▶ left
 */
import type { WaitlistEntry, WaitlistStatus } from '../../data/waitlist';
import { conflict } from '../../errors';

export type WaitlistAction = 'offer' | 'accept' | 'decline' | 'leave' | 'expire';

const waitlistMoves: Record<WaitlistAction, { from: readonly WaitlistStatus[]; to: WaitlistStatus }> = {
  offer: { from: ['waiting', 'expired'], to: 'offered' },
  accept: { from: ['offered'], to: 'accepted' },
  decline: { from: ['offered'], to: 'declined' },
  expire: { from: ['offered'], to: 'expired' },
  leave: { from: ['waiting', 'offered', 'expired'], to: 'left' },
};

const done: Record<WaitlistAction, string> = {
  offer: 'offered a spot',
  accept: 'accepted',
  decline: 'declined',
  expire: 'expired',
  leave: 'left',
};

/** Where `action` takes an entry in `status`; 409 when it may not (the message says why). */
export function nextStatus(status: WaitlistStatus, action: WaitlistAction): WaitlistStatus {
  const move = waitlistMoves[action];
  if (move.from.includes(status)) return move.to;
  if (status === 'expired' && (action === 'accept' || action === 'decline'))
    throw conflict('The offer has expired: the held table is no longer held');
  throw conflict(`A waitlist entry that is ${status} cannot be ${done[action]}`);
}

/** Whether the entry's offer has lapsed at `nowMs` while still marked offered (nobody has written the expiry yet). */
export const offerLapsed = (e: Pick<WaitlistEntry, 'status' | 'offer'>, nowMs: number): boolean =>
  e.status === 'offered' && e.offer !== null && Date.parse(e.offer.expiresAt) <= nowMs;

/** The entry as it reads at `nowMs`: a lapsed offer shows as expired (what a list answers without writing). */
export const asOf = (e: WaitlistEntry, nowMs: number): WaitlistEntry =>
  offerLapsed(e, nowMs) ? { ...e, status: 'expired' } : e;

/** The entry after `action` at `at` (ISO): the next status, the version moved. */
export const moved = (
  e: WaitlistEntry,
  action: WaitlistAction,
  at: string,
  patch: Partial<WaitlistEntry> = {},
): WaitlistEntry => ({
  ...e,
  ...patch,
  status: nextStatus(e.status, action),
  version: e.version + 1,
  updatedAt: at,
});
