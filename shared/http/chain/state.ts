/**
 * What the chain's steps share for one request, typed once. Middy gives every step the same request
 * object; the steps keep their state in one `ChainState` at `request.internal.brigade` (Middy's
 * place for what middlewares share), which the responder, the first step, opens. The order the
 * steps run in and what each puts here: docs/layering.md, "The chain".
 */
import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Principal } from '../../auth/principal';
import type { IdempotencyScope, StoredAnswer } from '../../data/idempotency';
import type { Window } from '../../data/rateWindows';
import type { PublicRequest } from '../request';
import type { ChainResponse } from './outcome';

/**
 * API Gateway's event as the steps see it: header names lower-cased (the header normalizer), query
 * and path objects, never null (`parameters`), the body parsed (`jsonBody`) and the query and path
 * coerced by their schemas (`schema`). Wider than `APIGatewayProxyEvent`, so every event API Gateway
 * sends is one.
 */
export type HttpEvent = Omit<APIGatewayProxyEvent, 'body' | 'queryStringParameters' | 'pathParameters'> & {
  body: unknown;
  queryStringParameters: Record<string, unknown> | null;
  pathParameters: Record<string, unknown> | null;
};

/** The request's state, step by step. */
export interface ChainState {
  /** API Gateway's request id (or a fresh one): `X-Request-Id`, `meta.requestId`, the log lines. */
  requestId: string;
  /** The peer API Gateway saw. */
  sourceIp: string;
  /** The answer's CORS headers (shared/http/cors.ts `answerHeaders`), set by the responder. */
  corsHeaders: Record<string, string>;
  /** The verified caller (`credential`); absent for an anonymous call of a public operation. */
  principal?: Principal;
  /** A credential that did not verify (`credential`): answered 401 once the rate window has counted the request. */
  authError?: unknown;
  /**
   * The rate window's verdict, set by its `before` without waiting: resolves once the request is
   * counted and may go on, rejects with the refusal (429) or the failure to count (503).
   */
  verdict?: Promise<void>;
  /** The `X-RateLimit-*` headers, exact once the verdict has settled. */
  rateHeaders: Record<string, string>;
  /** The place a by-code request holds in its client's budget of failed lookups (`rateWindow`), until its outcome is known. */
  lookupHeld?: { subject: string; window: Window };
  /** The `Idempotency-Key` this request claimed (`idempotency`): kept after the operation, released after a failure. */
  claim?: { scope: IdempotencyScope; key: string; owner: string };
  /** The first answer to a repeated `Idempotency-Key` (`idempotency`): sent instead of running the operation. */
  replay?: StoredAnswer;
}

/** Middy's `request.internal` of the chain: the state, once the responder has opened it. */
export type ChainInternal = { brigade?: ChainState };

/** The Middy request every step of the chain is given. */
export type ChainRequest = Request<HttpEvent, ChainResponse, Error, Context, ChainInternal>;

/** A step of the chain: a Middy middleware over the chain's request. */
export type ChainStep = MiddlewareObj<HttpEvent, ChainResponse, Error, Context, ChainInternal>;

/** The request's state; only the responder runs before it is open. */
export function stateOf(request: Pick<ChainRequest, 'internal'>): ChainState {
  const state = request.internal.brigade;
  if (!state) throw new Error('the responder opens the chain state: it must be the first step');
  return state;
}

/** What the domain call is given: the validated input and the verified caller, from the Middy request. */
export function requestOf(request: Pick<ChainRequest, 'event' | 'internal'>): PublicRequest {
  const { event } = request;
  const state = stateOf(request);
  return {
    principal: state.principal,
    body: event.body,
    query: event.queryStringParameters ?? {},
    path: event.pathParameters ?? {},
    headers: event.headers,
    requestId: state.requestId,
    sourceIp: state.sourceIp,
    method: event.httpMethod,
    rawPath: event.path,
  };
}
