/**
 * Builds a Lambda handler for one route of the route table. A handler file names its route and
 * one domain call; the chain does the rest, the same way for every operation:
 *
 *   trace → responder (envelope, headers, errors) → header normalizer → credential → rate window
 *   → permission → parameters → JSON body → schema validation → domain call
 *
 * The rate window starts its count in that order but does not hold the request up: the count
 * runs beside the steps after it and the domain call's reads; the domain call's writes wait for
 * it (the write gate), and so does the answer (see `rateWindow` in middleware.ts).
 *
 * An operation with a permission sits behind the API Gateway authorizer and trusts its verdict;
 * public operations and probes verify a credential themselves (publicHandler.ts).
 */
import middy, { type MiddyHandlerObject } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { gateWrites } from '../data/writeGate';
import { traceInvocation } from '../runtime/tracing';
import type { RouteRuntime } from '../routes';
import { Download } from '../download';
import { downloadAnswer, successBody } from './envelope';
import {
  credential,
  jsonBody,
  type Verifier,
  normalizeParameters,
  permission,
  rateWindow,
  responder,
  state,
  stateOf,
  verdictOf,
} from './middleware';
import type { Operation, OperationRequest } from './operation';
import type { ChainEvent, PublicRequest } from './request';
import { idempotently } from './idempotency';
import { eventValidator, type RouteValidators } from './validation';

type Lambda = middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult>;
/** What `.handler()` is given: the domain call, wrapped as a Lambda handler. */
type DomainCall = (
  event: APIGatewayProxyEvent,
  context: Context,
  opts: MiddyHandlerObject,
) => Promise<APIGatewayProxyResult>;

/** The chain for one route; `verify` only for functions without the authorizer in front (publicHandler.ts). */
export function chain(
  route: RouteRuntime,
  validators: RouteValidators,
  render: Parameters<typeof responder>[0],
  verify?: Verifier,
): Lambda {
  const lambda = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(traceInvocation())
    .use(responder(render, route))
    .use(httpHeaderNormalizer())
    .use(credential(route, verify))
    .use(rateWindow(route))
    .use(permission(route))
    .use(normalizeParameters())
    .use(jsonBody());
  const eventSchema = eventValidator(validators);
  // @middy/validator calls the function and reads its `errors`: any compiled validator fits.
  if (eventSchema) lambda.use(validator({ eventSchema: eventSchema as never }));
  return behindTheWindow(lambda, route.operationId !== 'fallback');
}

/**
 * Whatever function is given to `.handler()` (the domain call) runs behind the rate window's
 * verdict: its reads go out at once, its writes wait for the count (shared/data/writeGate.ts). A
 * POST with an `Idempotency-Key` runs once per key (idempotency.ts); the fallback, which only ever
 * answers 404 or 405, keeps nothing.
 */
function behindTheWindow(lambda: Lambda, idempotent: boolean): Lambda {
  const setHandler = lambda.handler;
  const gated = (call: DomainCall) =>
    setHandler((event, context, opts) =>
      gateWrites(verdictOf(event), async () =>
        idempotent
          ? asResult(await idempotently(event, stateOf(event), () => call(event, context, opts)))
          : call(event, context, opts),
      ),
    );
  lambda.handler = gated as Lambda['handler'];
  return lambda;
}

/** The domain's result travels as the chain's response until the responder renders it. */
export const asResult = (value: unknown) => value as APIGatewayProxyResult;

/** The success answer: the envelope around the domain's result, or a file's bytes (shared/download.ts). */
export const envelope: Parameters<typeof responder>[0] = (request) => {
  const result: unknown = request.response;
  if (result instanceof Download) return downloadAnswer(result);
  return { statusCode: 200, body: successBody(result, state(request).requestId) };
};

export function requestOf(raw: APIGatewayProxyEvent): PublicRequest {
  const event = raw as unknown as ChainEvent;
  const s = stateOf(raw);
  return {
    principal: s.principal,
    body: event.body,
    query: event.queryStringParameters,
    path: event.pathParameters,
    headers: event.headers,
    requestId: s.requestId,
    sourceIp: s.sourceIp,
    method: raw.httpMethod,
    rawPath: raw.path,
  };
}

/**
 * An operation that needs a credential holding its permission. `operation` is the export of its
 * generated module (shared/http/operations/<operationId>.ts); the request's body, query and path
 * are typed by the row's schemas.
 */
export function httpHandler<Op extends Operation & { permission: string }>(
  operation: Op,
  run: (req: OperationRequest<Op>) => Promise<unknown>,
): Lambda {
  if (operation.permission === null) throw new Error(`${operation.operationId} is public: use publicHandler`);
  // The chain's permission step has run before the domain call: a principal is present.
  return chain(operation, operation.validators, envelope).handler(async (event) =>
    asResult(await run(requestOf(event) as OperationRequest<Op>)),
  );
}
