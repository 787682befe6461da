/** The shape of a route-table row. Each area lists its rows in its own file beside this one. */
import type { TSchema } from '@sinclair/typebox';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas {
  body?: TSchema;
  query?: TSchema;
  path?: TSchema;
  /**
   * The `data` of the operation's success answer (200), exactly as sent: for a paged list, the
   * array (or the object with the array under its data key). Documentation and tests read it
   * (the OpenAPI description, the API tests' answer check); no handler does, so no handler
   * bundle holds it.
   */
  response?: TSchema;
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

/**
 * What a handler reads of its row at run time. `npm run gen:operations` copies these fields into
 * the operation's module (shared/http/operations/<operationId>.ts), so no handler loads the table.
 */
export const runtimeFields = ['operationId', 'method', 'path', 'permission', 'probe'] as const satisfies readonly (keyof Route)[];
export type RouteRuntime = Pick<Route, (typeof runtimeFields)[number]>;

/** Keeps a row's literal types (its operationId above all) while checking it is a Route. */
export const row = <const R extends Route>(r: R) => r;
