/**
 * The first step (after tracing): every answer passes through it. `before` opens the request's
 * state (shared/http/chain/state.ts); `after` renders the handler's outcome, `onError` the error
 * envelope. Registered first, its `after` and `onError` run last, so every answer carries the
 * request id, the rate window's headers and the CORS headers of its route (shared/http/cors.ts:
 * `*` on public operations, the stage's listed origins on the others).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from '../../config';
import type { RouteRuntime } from '../../routes';
import { answerHeaders } from '../cors';
import { errorBody } from '../envelope';
import { asAppError } from './errors';
import { logger } from './logger';
import { isOutcome, render } from './outcome';
import type { ChainState, ChainStep } from './state';

/** The request's `Origin`, whatever its case (the header normalizer has not run yet). */
const originOf = (headers: APIGatewayProxyEvent['headers'] | null | undefined) =>
  Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'origin')?.[1];

/** The headers every answer carries, under the answer's own. */
const headersOf = (s: ChainState, own: Record<string, string | number | boolean> = {}) => ({
  'Content-Type': 'application/json',
  'X-Request-Id': s.requestId,
  ...s.rateHeaders,
  ...s.corsHeaders,
  ...own,
});

export function responder(route: Pick<RouteRuntime, 'permission'>): ChainStep {
  return {
    before: (request) => {
      const ctx = request.event.requestContext;
      const requestId = ctx?.requestId ?? randomUUID();
      logger.appendKeys({ requestId });
      request.internal.brigade = {
        requestId,
        // The peer API Gateway saw (the local edge: the socket's). Never X-Forwarded-For: a client writes that.
        sourceIp: ctx?.identity?.sourceIp ?? 'unknown',
        rateHeaders: {},
        corsHeaders: answerHeaders(route.permission === null, originOf(request.event.headers), config().corsOrigins),
      };
    },
    after: (request) => {
      const s = request.internal.brigade;
      const outcome = request.response;
      if (!s || !isOutcome(outcome)) throw new Error('the chain answered no outcome');
      const out = render(outcome, s.requestId);
      request.response = { ...out, headers: headersOf(s, out.headers) };
    },
    onError: (request) => {
      // A failure before `before` opened the state still answers in the envelope.
      const s = request.internal.brigade ?? {
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
