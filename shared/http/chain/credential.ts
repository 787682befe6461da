/**
 * The caller's principal. Behind the API Gateway authorizer (every operation with a permission) it
 * is the authorizer's verdict: its principal, or "anonymous" for a credential that did not verify.
 * A function with no authorizer in front (public operations, probes, the fallback) is given a
 * `verify` and checks a credential the caller sends itself. So only those bundles carry the
 * credential code (bcrypt, JWT); the local stage runs the authorizer before a handler as API
 * Gateway does (bin/local/gateway.ts). A failure is not thrown here: it is held in the state until
 * the rate window has counted the request (rateWindow.ts), then answered 401.
 */
import type { AuthorizerContext, Principal } from '../../auth/principal';
import { unauthenticated } from '../../errors';
import type { RouteRuntime } from '../../routes';
import { logger } from './logger';
import { type ChainStep, stateOf } from './state';

/** Verifies the credential a request carries (shared/auth/authenticate.ts), for functions that run it themselves. */
export type Verifier = (headers: Record<string, string | undefined>) => Promise<Principal>;

export function credential(route: Pick<RouteRuntime, 'operationId' | 'permission'>, verify?: Verifier): ChainStep {
  return {
    before: async (request) => {
      const s = stateOf(request);
      const fromAuthorizer = request.event.requestContext?.authorizer as AuthorizerContext | null | undefined;
      if (fromAuthorizer?.principal) {
        s.principal = JSON.parse(fromAuthorizer.principal) as Principal;
        return;
      }
      const { headers } = request.event;
      const presented = headers['x-api-key'] !== undefined || headers.authorization !== undefined;
      if (!verify || fromAuthorizer?.anonymous) {
        if (!verify && !fromAuthorizer)
          logger.warn('no authorizer verdict reached a function that relies on one', {
            operationId: route.operationId,
          });
        if (route.permission !== null)
          s.authError = unauthenticated('The API key or bearer token is missing or not valid');
        return;
      }
      if (route.permission === null && !presented) return;
      try {
        s.principal = await verify(headers);
      } catch (err) {
        s.authError = err;
      }
    },
  };
}
