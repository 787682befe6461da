/**
 * 403 unless the principal holds the route's permission. It runs after the rate window has sent its
 * count, so a refused request is counted too (and a full window answers 429, not 403).
 */
import { holds } from '../../auth/principal';
import { forbidden } from '../../errors';
import type { RouteRuntime } from '../../routes';
import { type ChainStep, stateOf } from './state';

export function permission(route: Pick<RouteRuntime, 'permission'>): ChainStep {
  return {
    before: (request) => {
      const { principal } = stateOf(request);
      if (route.permission && !(principal && holds(principal, route.permission))) {
        throw forbidden(`This credential lacks the permission ${route.permission}`);
      }
    },
  };
}
