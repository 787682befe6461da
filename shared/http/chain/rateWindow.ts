/**
 * The hourly window: one atomic UpdateItem per request. Principals count against their own window;
 * anonymous callers against their IP's (an IPv6 client's /64: shared/domain/clientNetwork.ts), at
 * the standard tier. Health probes get the headers (on their own per-IP window) but are never
 * refused, and answer even when the database cannot count them.
 *
 * The count runs beside the work, not before it (docs/decisions.md): `before` sends the UpdateItem
 * and leaves its verdict in the state without waiting, so the permission check, the body, the
 * validation and the operation's reads go on meanwhile; the operation's writes wait for the verdict
 * (the write gate: domainCall.ts, shared/data/writeGate.ts). `after` and `onError` wait for it too,
 * so every answer carries exact headers, and a refusal (or a failure to count: 503) replaces
 * whatever the operation answered, a result, a 404 or a 403 alike. A request whose credential
 * failed has nothing to overlap: it waits for the count, then answers 401.
 * `now` looks up `Date.now` at each request, so a clock a test freezes (vi.useFakeTimers) applies.
 */
import { tierLimits } from '../../auth/principal';
import { type Hit, rateWindows } from '../../data/rateWindows';
import { clientNetwork } from '../../domain/clientNetwork';
import { rateHeaders, retryAfterSeconds, windowAt } from '../../domain/rateWindow';
import { rateLimited } from '../../errors';
import type { RouteRuntime } from '../../routes';
import { type ChainState, type ChainStep, stateOf } from './state';

export function rateWindow(route: Pick<RouteRuntime, 'probe'>, now: () => number = () => Date.now()): ChainStep {
  const count = async (s: ChainState): Promise<void> => {
    const limit = tierLimits[s.principal?.tier ?? 'standard'];
    const subject = s.principal?.rateSubject ?? `${route.probe ? 'probe' : 'ip'}:${clientNetwork(s.sourceIp)}`;
    const at = now();
    const window = windowAt(at);
    s.rateHeaders = rateHeaders(limit, 0, window);
    let hit: Hit;
    try {
      hit = await rateWindows.hit(subject, window, limit);
    } catch (err) {
      if (route.probe) return; // a probe must answer even when the database cannot count it
      throw err;
    }
    s.rateHeaders = rateHeaders(limit, hit.used, window);
    if (!hit.allowed && !route.probe) throw rateLimited(retryAfterSeconds(window, at));
  };
  return {
    before: async (request) => {
      const s = stateOf(request);
      s.verdict = count(s);
      // Awaited on the way out; until then a refusal must not count as an unhandled rejection.
      s.verdict.catch(() => undefined);
      if (s.authError) {
        await s.verdict;
        throw s.authError;
      }
    },
    after: async (request) => {
      await stateOf(request).verdict;
    },
    onError: async (request) => {
      const verdict = request.internal.brigade?.verdict;
      if (!verdict) return; // failed before the count started
      await verdict.catch((refusal: unknown) => {
        request.error = refusal as Error;
      });
    },
  };
}
