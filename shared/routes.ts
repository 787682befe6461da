/**
 * The route table: one row per operation. CDK, the local stage, the tests and the benchmarks read
 * it; no other list of operations exists. Rows are plain data (schemas are TypeBox objects, which
 * are JSON Schema), so reading this file pulls in no handler runtime.
 */
import type { TSchema } from '@sinclair/typebox';
import * as coursings from './schemas/coursings';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas {
  body?: TSchema;
  query?: TSchema;
  path?: TSchema;
}

export interface Route {
  operationId: string;
  method: HttpMethod;
  /** API Gateway style template: /api/v1/coursings/{id} */
  path: string;
  /** Permission key the credential must hold; null for public operations (no credential). */
  permission: string | null;
  /** Handler file, relative to the project root; it exports `handler`. */
  handler: string;
  /** Area of the API: groups the functions into one nested stack each. */
  area: string;
  schemas: RouteSchemas;
  /** Health probes: rate-limit headers per client IP, never refused, their own body shape. */
  probe?: boolean;
}

const row = <const R extends Route>(r: R) => r;

export const routes = [
  row({ operationId: 'live', method: 'GET', path: '/live', permission: null, handler: 'functions/health/live.ts', area: 'health', schemas: {}, probe: true }),
  row({ operationId: 'ready', method: 'GET', path: '/ready', permission: null, handler: 'functions/health/ready.ts', area: 'health', schemas: {}, probe: true }),
  row({ operationId: 'health', method: 'GET', path: '/health', permission: null, handler: 'functions/health/health.ts', area: 'health', schemas: {}, probe: true }),

  row({ operationId: 'listCoursings', method: 'GET', path: '/api/v1/coursings', permission: 'coursings.read', handler: 'functions/coursings/list.ts', area: 'menu', schemas: { query: coursings.ListCoursingsQuery } }),
  row({ operationId: 'createCoursing', method: 'POST', path: '/api/v1/coursings', permission: 'coursings.create', handler: 'functions/coursings/create.ts', area: 'menu', schemas: { body: coursings.CreateCoursingBody } }),
  row({ operationId: 'updateCoursing', method: 'PUT', path: '/api/v1/coursings/{id}', permission: 'coursings.update', handler: 'functions/coursings/update.ts', area: 'menu', schemas: { path: coursings.CoursingIdPath, body: coursings.UpdateCoursingBody } }),
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
