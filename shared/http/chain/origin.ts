/**
 * A publishable key's web origins (docs/online-booking.md). Such a key sits in a web page for
 * anyone to copy, so the page it is used from is part of what it allows: a request whose `Origin`
 * is not one of the key's is refused (403), and the answer to one that is names that origin, so the
 * browser lets the page read it. A browser always sends `Origin` on these requests; a request
 * without it (a vendor's app or server) is let through, still held to the key's operations and
 * locations and counted in its client IP's window (rateWindow.ts). It runs after the rate window has
 * sent its count, so a refused request is counted too.
 */
import { forbidden } from '../../errors';
import { exposeHeaders } from '../cors';
import { type ChainStep, stateOf } from './state';

export function origin(): ChainStep {
  return {
    before: (request) => {
      const s = stateOf(request);
      const allowed = s.principal?.allowedOrigins;
      const from = request.event.headers.origin;
      if (allowed === undefined || from === undefined) return;
      if (!allowed.includes(from)) {
        s.corsHeaders = { Vary: 'Origin' };
        throw forbidden(
          `This publishable key may not be used from ${from}: add the origin to the key's allowedOrigins`,
        );
      }
      s.corsHeaders = { 'Access-Control-Allow-Origin': from, ...exposeHeaders, Vary: 'Origin' };
    },
  };
}
