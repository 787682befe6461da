/**
 * The hourly window, counted in blocks a container leases (shared/domain/rateLeases.ts: one
 * conditional UpdateItem per block, never past the limit). Principals count against their own window;
 * anonymous callers and publishable keys (docs/online-booking.md) against their IP's (an IPv6 client's /64: shared/domain/clientNetwork.ts), at
 * the standard tier. Health probes get the headers (on their own per-IP window) but are never
 * refused, and answer even when the database cannot count them.
 *
 * The count runs beside the work, not before it (docs/decisions.md): `before` starts it (from the
 * container's block, or with a lease's UpdateItem) and leaves its verdict in the state without waiting, so the permission check, the body, the
 * validation and the operation's reads go on meanwhile; the operation's writes wait for the verdict
 * (the write gate: domainCall.ts, shared/data/writeGate.ts). `after` and `onError` wait for it too,
 * so every answer carries exact headers, and a refusal (or a failure to count: 503) replaces
 * whatever the operation answered, a result, a 404 or a 403 alike. A request whose credential
 * failed has nothing to overlap: it waits for the count, then answers 401.
 * `now` looks up `Date.now` at each request, so a clock a test freezes (vi.useFakeTimers) applies.
 *
 * A by-code operation (a public one that finds its booking or waitlist entry by the code the caller
 * holds: docs/access.md, “Codes”) counts in the client IP's window at the standard tier whatever
 * credential is sent: a company's unlimited keys must not buy guesses at other tenants' codes. It
 * also holds a place in the client's budget of failed lookups beside the count, in the same
 * verdict: a client whose budget is used up is refused before any answer could tell a hit from a
 * miss, and since the place is taken before the lookup, concurrent guesses cannot overshoot it. A
 * miss (isCodeMiss) keeps its place; any other outcome gives it back.
 *
 * An online booking or waitlist entry made with a publishable key (a guest route's POST,
 * docs/online-booking.md) is counted in its client's hourly budget of such writes beside the
 * count, in the same verdict: a client past it is refused (429) before anything is written.
 */
import { tierLimits } from '../../auth/principal';
import { type Hit, rateWindows } from '../../data/rateWindows';
import { clientNetwork } from '../../domain/clientNetwork';
import { rateLeases } from '../../domain/rateLeases';
import {
  CODE_MISSES_PER_HOUR,
  codeMissesMessage,
  GUEST_WRITES_PER_HOUR,
  guestWritesMessage,
  isCodeMiss,
  rateHeaders,
  retryAfterSeconds,
  windowAt,
} from '../../domain/rateWindow';
import { rateLimited } from '../../errors';
import type { RouteRuntime } from '../../routes';
import { knownAppError } from './errors';
import { logger } from './logger';
import { type ChainState, type ChainStep, stateOf } from './state';

export function rateWindow(
  route: Pick<RouteRuntime, 'probe' | 'byCode' | 'guest' | 'method'>,
  now: () => number = () => Date.now(),
): ChainStep {
  const guestWrite = route.guest === true && route.method === 'POST';
  const count = async (s: ChainState, at: number): Promise<void> => {
    // A publishable key is in web pages for anyone to copy: its requests count per client, not per key.
    const principal = route.byCode || s.principal?.allowedOrigins ? undefined : s.principal;
    const limit = tierLimits[principal?.tier ?? 'standard'];
    const subject = principal?.rateSubject ?? `${route.probe ? 'probe' : 'ip'}:${clientNetwork(s.sourceIp)}`;
    const window = windowAt(at);
    s.rateHeaders = rateHeaders(limit, 0, window);
    let hit: Hit;
    try {
      hit = await rateLeases.take(subject, window, limit);
    } catch (err) {
      if (route.probe) return; // a probe must answer even when the database cannot count it
      throw err;
    }
    s.rateHeaders = rateHeaders(limit, hit.used, window);
    if (!hit.allowed && !route.probe) throw rateLimited(retryAfterSeconds(window, at));
  };
  /** Holds a place in the client's budget of failed lookups (by-code operations): 429 when none is left. */
  const holdLookup = async (s: ChainState, at: number): Promise<void> => {
    const window = windowAt(at);
    const subject = `codemiss:${clientNetwork(s.sourceIp)}`;
    const hit = await rateWindows.hit(subject, window, CODE_MISSES_PER_HOUR);
    if (!hit.allowed) throw rateLimited(retryAfterSeconds(window, at), codeMissesMessage);
    s.lookupHeld = { subject, window };
  };
  /** Counts an online booking or waitlist entry of a publishable key in its client's hourly budget: 429 beyond it. */
  const countGuestWrite = async (s: ChainState, at: number): Promise<void> => {
    const window = windowAt(at);
    const hit = await rateWindows.hit(`guestwrite:${clientNetwork(s.sourceIp)}`, window, GUEST_WRITES_PER_HOUR);
    if (!hit.allowed) throw rateLimited(retryAfterSeconds(window, at), guestWritesMessage);
  };
  /** The count and a budget at once; both settle before the verdict does, so a held place is known to `settleLookup`. */
  const countWith = async (
    budget: (s: ChainState, at: number) => Promise<void>,
    s: ChainState,
    at: number,
  ): Promise<void> => {
    const [counted, held] = await Promise.allSettled([count(s, at), budget(s, at)]);
    if (held.status === 'rejected') throw held.reason;
    if (counted.status === 'rejected') throw counted.reason;
  };
  /** Gives the held place back unless the outcome was a miss. A failure to give it back costs the client one place, no more. */
  const settleLookup = async (s: ChainState | undefined, outcome: unknown): Promise<void> => {
    const held = s?.lookupHeld;
    if (!held || isCodeMiss(knownAppError(outcome))) return;
    s.lookupHeld = undefined;
    await rateWindows.release(held.subject, held.window).catch((err: unknown) => {
      logger.warn('a held place of the failed-lookup budget was not given back', { error: String(err) });
    });
  };
  return {
    before: async (request) => {
      const s = stateOf(request);
      const at = now();
      const budget = route.byCode
        ? holdLookup
        : guestWrite && s.principal?.allowedOrigins
          ? countGuestWrite
          : undefined;
      s.verdict = budget ? countWith(budget, s, at) : count(s, at);
      // Awaited on the way out; until then a refusal must not count as an unhandled rejection.
      s.verdict.catch(() => undefined);
      if (s.authError) {
        await s.verdict;
        throw s.authError;
      }
    },
    after: async (request) => {
      const s = stateOf(request);
      await s.verdict;
      await settleLookup(s, undefined);
    },
    onError: async (request) => {
      const s = request.internal.brigade;
      const verdict = s?.verdict;
      if (!verdict) return; // failed before the count started
      await verdict.catch((refusal: unknown) => {
        request.error = refusal as Error;
      });
      await settleLookup(s, request.error);
    },
  };
}
