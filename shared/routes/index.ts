/**
 * The route table: one row per operation. CDK, the local stage, the router, the validator
 * generator, the tests and the benchmarks read it; no other list of operations exists. Each area
 * keeps its rows in its own file here. Rows are plain data (schemas are TypeBox objects, which are
 * JSON Schema), so reading the table pulls in no handler runtime.
 */
import { accessRoutes } from './access';
import { alertsRoutes } from './alerts';
import { bookingMembersRoutes } from './bookingMembers';
import { bookingsRoutes } from './bookings';
import { docsRoutes } from './docs';
import { capacityRoutes } from './capacity';
import { companiesRoutes } from './companies';
import { guestsRoutes } from './guests';
import { healthRoutes } from './health';
import { menuRoutes } from './menu';
import { onlineRoutes } from './online';
import { printingRoutes } from './printing';
import { reportingRoutes } from './reporting';
import { schedulesRoutes } from './schedules';
import { setupRoutes } from './setup';
import { tabsRoutes } from './tabs';
import { waitlistRoutes } from './waitlist';
import { webhooksRoutes } from './webhooks';
import type { Route } from './route';

export { runtimeFields, type HttpMethod, type Route, type RouteRuntime, type RouteSchemas } from './route';

export const routes = [
  ...healthRoutes,
  ...menuRoutes,
  ...schedulesRoutes,
  ...companiesRoutes,
  ...accessRoutes,
  ...guestsRoutes,
  ...setupRoutes,
  ...webhooksRoutes,
  ...bookingMembersRoutes,
  ...bookingsRoutes,
  ...capacityRoutes,
  ...waitlistRoutes,
  ...onlineRoutes,
  ...tabsRoutes,
  ...alertsRoutes,
  ...printingRoutes,
  ...reportingRoutes,
  ...docsRoutes,
] as const satisfies readonly Route[];

export type OperationId = (typeof routes)[number]['operationId'];

const byId = new Map<string, Route>(routes.map((r) => [r.operationId, r]));

export function route(operationId: OperationId): Route {
  const found = byId.get(operationId);
  if (!found) throw new Error(`no route ${operationId}`);
  return found;
}

/** Every permission key some route requires (the seed's catalog starts from these). */
export const routePermissions = (): string[] =>
  [...new Set((routes as readonly Route[]).map((r) => r.permission).filter((p): p is string => p !== null))].sort();
