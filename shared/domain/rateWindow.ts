/**
 * Fixed hourly rate windows aligned to the clock hour (docs/api.md, “Rate limits”). Pure: the caller supplies
 * the time and the count the window reached.
 */
import type { Window } from '../data/rateWindows';
import { AppError } from '../errors';

const WINDOW_SECONDS = 3600;

export function windowAt(nowMs: number): Window {
  const start = Math.floor(nowMs / 1000 / WINDOW_SECONDS) * WINDOW_SECONDS;
  return { start, end: start + WINDOW_SECONDS };
}

/** Seconds a refused client should wait: until the window ends, at least 1. */
export function retryAfterSeconds(window: Window, nowMs: number): number {
  return Math.max(1, Math.ceil(window.end - nowMs / 1000));
}

/**
 * The most requests one container leases of a window at once (shared/domain/rateLeases.ts): a
 * hundredth of the limit, from 1 to 100 (the standard tier 10, premium and unlimited 100).
 */
export const maxLeaseBlock = (limit: number) => Math.min(100, Math.max(1, Math.floor(limit / 100)));

/**
 * The block a container leases next: twice its last (1 the first time, so a container that serves
 * a subject once leases one request, as an exact count would), at most `maxLeaseBlock`, and at
 * most an eighth of what the window had left at the container's last lease, so that near the limit
 * blocks shrink to 1 and what other containers hold unspent stays small.
 */
export function leaseBlock(limit: number, knownTotal: number, lastBlock: number): number {
  return Math.max(1, Math.min(maxLeaseBlock(limit), lastBlock * 2 || 1, Math.floor((limit - knownTotal) / 8)));
}

export function rateHeaders(limit: number, used: number, window: Window): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - used)),
    'X-RateLimit-Reset': String(window.end),
  };
}

/**
 * Failed lookups of a code (docs/access.md, “Codes”) a client may make in an hour on the by-code
 * operations. Over it, every by-code request of that client answers 429 until the hour ends.
 */
export const CODE_MISSES_PER_HOUR = 20;

/**
 * Bookings and waitlist entries a client may make in an hour through publishable keys
 * (docs/online-booking.md, “Abuse”), whatever the key and the location: beyond, those requests of
 * that client answer 429 until the hour ends. Enough for a household; a script filling a book with
 * made-up guests stops here.
 */
export const GUEST_WRITES_PER_HOUR = 20;

/** The 429 message of a client over its budget of online bookings and waitlist entries. */
export const guestWritesMessage = `More than ${GUEST_WRITES_PER_HOUR} online bookings and waitlist entries from this address this hour: try again when the hour ends, or call the restaurant`;

/** Where a by-code operation takes its code: the path's `code`, or RSVP's body `confirmationCode`. */
const codeFields = new Set(['/code', '/confirmationCode']);

/**
 * Whether a by-code request's outcome is a failed lookup: the code named nothing (404), or it was
 * not even a code (400 naming the code's field). Any other outcome, a refusal included, spends
 * nothing of the budget.
 */
export function isCodeMiss(error: unknown): boolean {
  if (!(error instanceof AppError)) return false;
  if (error.code === 'NOT_FOUND') return true;
  return error.code === 'VALIDATION_FAILED' && error.details.some((d) => codeFields.has(d.path));
}

/** The 429 message of a client over its failed-lookup budget. */
export const codeMissesMessage = `More than ${CODE_MISSES_PER_HOUR} lookups of unknown codes from this address this hour: no code is looked up for it until the hour ends`;
