/** The shape of a route-table row. Each area lists its rows in its own file beside this one. */
import type { TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../errors';

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
  /**
   * A public operation that finds what it acts on by a code the caller holds (a booking's
   * confirmation code, a waitlist entry's code): counted in the client IP's window at the standard
   * tier whatever credential is sent, and under the client's budget of failed lookups
   * (docs/access.md, “Codes”).
   */
  byCode?: true;
  /**
   * An online-booking operation, for a publishable key in a guest's browser (docs/online-booking.md):
   * preflighted for every origin (shared/http/cors.ts), the answer's origin decided by the key.
   */
  guest?: true;
  /** Reaches the re-seating solver (HiGHS): its function gets the solver layer and BRIGADE_SOLVER_MODULE (infra/solver-layer.ts). */
  solver?: true;
  /**
   * The 200 answer is `schemas.response` itself, not the success envelope around it (the OpenAPI
   * document). Probes are bare too (their own body shape).
   */
  bare?: true;
  /**
   * The 200 answer is a file, not JSON: its bytes in one of these media types, with a
   * `Content-Disposition: attachment` naming the file (shared/download.ts). No response schema.
   */
  download?: { mediaTypes: readonly string[] };
  /**
   * The 200 answer is a text file for a browser, sent as it is (the docs page and its script,
   * docs/docs-page.md): this media type, no envelope, no attachment. No response schema.
   */
  asset?: { mediaType: string };
  /** Error codes the operation answers beyond those its method and schemas imply (the OpenAPI document, shared/openapi/document.ts `errorCodesOf`). */
  errors?: readonly ErrorCode[];
  /** One line for the OpenAPI description; without it, the operationId in words ("listApiKeys" → "List api keys"). */
  summary?: string;
  /** More for the OpenAPI description (Markdown); the permission and paging are added to it. */
  description?: string;
}

/**
 * What a handler reads of its row at run time. `npm run gen:operations` copies these fields into
 * the operation's module (shared/http/operations/<operationId>.ts), so no handler loads the table.
 */
export const runtimeFields = [
  'operationId',
  'method',
  'path',
  'permission',
  'probe',
  'byCode',
  'guest',
  'asset',
] as const satisfies readonly (keyof Route)[];
export type RouteRuntime = Pick<Route, (typeof runtimeFields)[number]>;

/** Keeps a row's literal types (its operationId above all) while checking it is a Route. */
export const row = <const R extends Route>(r: R) => r;
