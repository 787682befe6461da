/**
 * The Middy steps every HTTP operation runs, in order (see handler.ts and docs/decisions.md):
 * responder → header normalizer → credential → rate window → permission → parameters → JSON body
 * → schema → the operation. The rate window only starts its count in that order: the count runs
 * beside the rest, and its verdict is awaited on the way out (`after` / `onError`).
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj, Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { holds, tierLimits, type AuthorizerContext, type Principal } from '../auth/principal';
import { rateWindows, type Hit } from '../data/rateWindows';
import { clientNetwork } from '../domain/clientNetwork';
import { rateHeaders, retryAfterSeconds, windowAt } from '../domain/rateWindow';
import type { RouteRuntime } from '../routes';
import { toAppError } from '../data/errors';
import { AppError, forbidden, rateLimited, unauthenticated, validationFailed, type ErrorCode } from '../errors';
import { config } from '../config';
import { answerHeaders } from './cors';
import { errorBody } from './envelope';
import type { RequestState } from './request';

export const logger = new Logger({ serviceName: 'brigade' });

export const MAX_BODY_BYTES = 256 * 1024;

type Req = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

const states = new WeakMap<object, RequestState>();
export function stateOf(event: object): RequestState {
  const s = states.get(event);
  if (!s) throw new Error('responder middleware must run first');
  return s;
}
export const state = (request: Req): RequestState => stateOf(request.event);

const middyStatusCodes: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED', // Middy's body parser says 422 for malformed JSON; the contract says 400
};

/** Any thrown value → the contract's error. Unknown errors become a logged 500 with no internals. */
export function asAppError(err: unknown, requestId: string): AppError {
  const mapped = toAppError(err);
  if (mapped instanceof AppError) return mapped;
  const e = err as {
    statusCode?: number;
    expose?: boolean;
    message?: string;
    cause?: { package?: string; data?: unknown };
  };
  if (e?.cause?.package === '@middy/validator' && e.statusCode === 400) {
    return validationFailed('The request is not valid', (e.cause.data as AppError['details']) ?? []);
  }
  if (e?.cause?.package === '@middy/http-json-body-parser' && e.statusCode === 422) {
    return validationFailed('The body is not valid JSON');
  }
  const code = e?.statusCode !== undefined ? middyStatusCodes[e.statusCode] : undefined;
  if (code && e.expose !== false) return new AppError(code, e.message ?? code);
  logger.error('unhandled error', { requestId, error: err as Error });
  return new AppError('INTERNAL', 'Something went wrong; quote the requestId when you report it');
}

/** The request's `Origin`, whatever its case (the header normalizer has not run yet). */
const originOf = (headers: Record<string, string | undefined> | null | undefined) =>
  Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'origin')?.[1];

/**
 * Registered first: its `after` and `onError` run last, so every answer passes through it. Every
 * answer carries the CORS headers of its route (shared/http/cors.ts): `*` on public operations,
 * the stage's listed origins on the others.
 */
export function responder(
  render: (request: Req) => APIGatewayProxyResult,
  route?: Pick<RouteRuntime, 'permission'>,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const headersOf = (s: RequestState, extra: Record<string, string> = {}) => ({
    'Content-Type': 'application/json',
    'X-Request-Id': s.requestId,
    ...s.rateHeaders,
    ...s.corsHeaders,
    ...extra,
  });
  return {
    before: (request) => {
      const ctx = request.event.requestContext;
      const requestId = ctx?.requestId ?? randomUUID();
      logger.appendKeys({ requestId });
      states.set(request.event, {
        requestId,
        // The peer API Gateway saw (the local edge: the socket's). Never X-Forwarded-For: a client writes that.
        sourceIp: ctx?.identity?.sourceIp ?? 'unknown',
        rateHeaders: {},
        corsHeaders: route
          ? answerHeaders(route.permission === null, originOf(request.event.headers), config().corsOrigins)
          : {},
      });
    },
    after: (request) => {
      const s = state(request);
      const out = s.replay ? { ...s.replay, headers: { 'Idempotent-Replayed': 'true' } } : render(request);
      request.response = { ...out, headers: { ...headersOf(s), ...out.headers } };
    },
    onError: (request) => {
      const s = states.get(request.event) ?? {
        requestId: randomUUID(),
        sourceIp: 'unknown',
        rateHeaders: {},
        corsHeaders: {},
      };
      const error = asAppError(request.error, s.requestId);
      request.response = {
        statusCode: error.status,
        headers: headersOf(s, error.headers),
        body: errorBody(error, s.requestId),
      };
    },
  };
}

/** Verifies the credential a request carries (shared/auth/authenticate.ts), for functions that run it themselves. */
export type Verifier = (headers: Record<string, string | undefined>) => Promise<Principal>;

/**
 * The caller's principal. Behind the API Gateway authorizer (every operation with a permission) it
 * is the authorizer's verdict: its principal, or "anonymous" for a credential that did not verify.
 * A function with no authorizer in front (public operations, probes, the fallback) is given a
 * `verify` and checks a credential the caller sends itself. So only those bundles carry the
 * credential code (bcrypt, JWT); the local stage runs the authorizer before a handler as API
 * Gateway does (bin/local/gateway.ts). A failure is held until the rate window counts it.
 */
export function credential(
  route: RouteRuntime,
  verify?: Verifier,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      const s = state(request);
      const fromAuthorizer = request.event.requestContext?.authorizer as AuthorizerContext | null | undefined;
      if (fromAuthorizer?.principal) {
        s.principal = JSON.parse(fromAuthorizer.principal) as Principal;
        return;
      }
      const headers = request.event.headers as Record<string, string | undefined>;
      const presented = headers['x-api-key'] !== undefined || headers['authorization'] !== undefined;
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

/**
 * The hourly window: one atomic UpdateItem per request. Principals count against their own
 * window; anonymous callers against their IP's (an IPv6 client's /64: shared/domain/clientNetwork.ts),
 * at the standard tier. Health probes get the
 * headers (on their own per-IP window) but are never refused, and answer even when the database
 * cannot count them.
 *
 * The count runs beside the work, not before it (docs/decisions.md, “The Middy chain and its order”): `before` sends the UpdateItem
 * and leaves its verdict in the request state without waiting, so the permission check, the body,
 * the validation and the operation's reads go on meanwhile; the operation's writes wait for the
 * verdict (handler.ts runs it behind the write gate, shared/data/writeGate.ts). `after` and
 * `onError` wait for it too, so every answer carries exact headers and a refusal (or a failure to
 * count: 503) replaces whatever the operation answered, a result, a 404 or a 403 alike. A request
 * whose credential failed has nothing to overlap: it waits for the count, then answers 401.
 * `now` looks up `Date.now` at each request, so a clock a test freezes (vi.useFakeTimers) applies.
 */
export function rateWindow(
  route: RouteRuntime,
  now: () => number = () => Date.now(),
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const count = async (s: RequestState): Promise<void> => {
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
      const s = state(request);
      s.verdict = count(s);
      // Awaited on the way out; until then a refusal must not count as an unhandled rejection.
      s.verdict.catch(() => undefined);
      if (s.authError) {
        await s.verdict;
        throw s.authError;
      }
    },
    after: async (request) => {
      await state(request).verdict;
    },
    onError: async (request) => {
      const verdict = states.get(request.event)?.verdict;
      if (!verdict) return; // failed before the count started
      await verdict.catch((refusal: unknown) => {
        request.error = refusal as Error;
      });
    },
  };
}

/** The verdict the operation runs behind (see rateWindow). */
export function verdictOf(event: object): Promise<void> {
  const { verdict } = stateOf(event);
  if (!verdict) throw new Error('the rate window middleware must run before the operation');
  return verdict;
}

/** 403 unless the principal holds the route's permission. */
export function permission(route: RouteRuntime): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const { principal } = state(request);
      if (route.permission && !(principal && holds(principal, route.permission))) {
        throw forbidden(`This credential lacks the permission ${route.permission}`);
      }
    },
  };
}

const jsonParser = httpJsonBodyParser();

/**
 * Empty bodies are absent bodies; others must be JSON (415) and at most 256 KiB (413). API Gateway
 * hands every request body over base64-encoded (`isBase64Encoded`: every media type is binary
 * on the API, infra/api.ts), and so does the local edge; Middy's parser decodes it before parsing, and
 * the size is the decoded one. A plain body (a test, a bench event) is read as it is. A GET takes
 * no body (no operation reads one, and HTTP gives a GET's content no meaning): one sent is not
 * read, so a GET, a health probe included, is answered as it would be without it, never with a
 * 413 or 415 its description does not list.
 */
export function jsonBody(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const event = request.event as {
        body: unknown;
        httpMethod?: string;
        isBase64Encoded?: boolean;
        headers: Record<string, string | undefined>;
      };
      const raw = event.body as string | null | undefined;
      if (raw === null || raw === undefined || raw === '' || event.httpMethod === 'GET') {
        event.body = undefined;
        return;
      }
      const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64').length : Buffer.byteLength(raw);
      if (bytes > MAX_BODY_BYTES)
        throw new AppError('PAYLOAD_TOO_LARGE', `The body is larger than ${MAX_BODY_BYTES} bytes`);
      return jsonParser.before!(request as Req);
    },
  };
}

/** API Gateway sends null for absent query strings and path parameters; the schemas expect objects. */
export function normalizeParameters(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const e = request.event as { queryStringParameters: unknown; pathParameters: unknown };
      e.queryStringParameters ??= {};
      e.pathParameters ??= {};
    },
  };
}
