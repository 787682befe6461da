/**
 * CORS, defined once: which browser origins may call which operations, and the headers that say
 * so. The template answers preflights from it (infra/cors.ts: MOCK methods, no function, no
 * authorizer, since a preflight carries no credential), the gateway's own error answers carry its
 * origin header (infra/gateway-responses.ts), the functions put its headers on every answer
 * (the responder, chain/responder.ts), and the local edge answers preflights with `preflight` below
 * (bin/local/server.ts). Plain data and functions: infra/ reads it too.
 *
 * - Public operations (no credential: by code, RSVP, health, the OpenAPI document and docs page)
 *   answer every origin (`*`).
 * - Online-booking operations (a publishable key's, docs/online-booking.md) are preflighted for
 *   every origin, since a preflight carries no key; the answer itself names the origin only when
 *   it is one of the key's (shared/http/chain/origin.ts), and any other is refused.
 * - Operations that take a credential answer only the origins the stage lists (`corsOrigins`,
 *   none by default): such an origin is echoed, with `Vary: Origin`. A browser page of another
 *   origin cannot read their answers.
 */

/** What a browser may send: the body's type, both credentials, the idempotency key, the location. */
const CORS_ALLOW_HEADERS = ['Content-Type', 'Authorization', 'X-API-Key', 'Idempotency-Key', 'X-Location-Id'] as const;

/** What a browser's script may read of an answer besides the simple headers. */
const CORS_EXPOSE_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Content-Disposition',
  'Idempotent-Replayed',
  'Allow',
] as const;

/** The header that says so, on every answer a browser may read (the functions' and the gateway's own). */
export const exposeHeaders = { 'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(',') } as const;

/** How long a browser may reuse a preflight's answer (Chromium caps it at two hours). */
const CORS_MAX_AGE_SECONDS = 7200;

/**
 * The stage's allowed origins from their comma-separated setting: each `scheme://host[:port]`,
 * as a browser sends `Origin` (no path, no trailing slash, no wildcard).
 */
export function parseCorsOrigins(text: string, what = 'corsOrigins'): string[] {
  const origins = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      throw new Error(
        `${what}: "${origin}" is not an origin (scheme://host[:port], lower case, no path; "*" is not allowed for operations that take a credential)`,
      );
    }
  }
  return [...new Set(origins)];
}

/**
 * The methods of one API path a browser may be let call: those any origin may preflight (public
 * and online-booking operations) and those only the stage's listed origins may (the others).
 */
export interface CorsPath {
  path: string;
  publicMethods: string[];
  keyedMethods: string[];
}

/** Every path of the route table with its methods. */
export function corsPaths(
  routes: readonly { path: string; method: string; permission: string | null; guest?: true }[],
): CorsPath[] {
  const byPath = new Map<string, CorsPath>();
  for (const r of routes) {
    const entry = byPath.get(r.path) ?? { path: r.path, publicMethods: [], keyedMethods: [] };
    (r.permission === null || r.guest ? entry.publicMethods : entry.keyedMethods).push(r.method);
    byPath.set(r.path, entry);
  }
  return [...byPath.values()];
}

/** Whether the path answers preflights at all on a stage with these origins. */
export const hasPreflight = (path: CorsPath, allowedOrigins: readonly string[]) =>
  path.publicMethods.length > 0 || (path.keyedMethods.length > 0 && allowedOrigins.length > 0);

/** The answer to a preflight has these headers besides the origin and methods. */
const preflightHeaders = {
  'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(','),
  'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
} as const;

/**
 * The headers of the 204 answering a preflight (OPTIONS) for the path from `origin`; without
 * `Access-Control-Allow-Origin` when the origin may call none of its methods (the browser then
 * refuses the request).
 */
export function preflight(
  path: CorsPath,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> {
  const listed = origin !== undefined && allowedOrigins.includes(origin);
  const methods = [...path.publicMethods, ...(listed ? path.keyedMethods : [])];
  const varies = path.keyedMethods.length > 0 && allowedOrigins.length > 0;
  return {
    ...(methods.length > 0 && {
      'Access-Control-Allow-Origin': listed && path.keyedMethods.length > 0 ? origin : '*',
      'Access-Control-Allow-Methods': [...methods, 'OPTIONS'].join(','),
      ...preflightHeaders,
    }),
    ...(varies && { Vary: 'Origin' }),
  };
}

/** The CORS headers of an operation's answer (success or error) to a request from `origin`. */
export function answerHeaders(
  isPublic: boolean,
  origin: string | undefined,
  allowedOrigins: readonly string[],
): Record<string, string> {
  if (isPublic) return { 'Access-Control-Allow-Origin': '*', ...exposeHeaders };
  if (allowedOrigins.length === 0) return {};
  if (origin !== undefined && allowedOrigins.includes(origin))
    return { 'Access-Control-Allow-Origin': origin, ...exposeHeaders, Vary: 'Origin' };
  return { Vary: 'Origin' };
}
