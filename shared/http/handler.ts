/**
 * Builds a Lambda handler for one route of the route table. A handler file names its route and
 * one domain call; the chain does the rest, the same way for every operation:
 *
 *   responder (envelope, headers, errors) → header normalizer → credential → rate window
 *   → permission → parameters → JSON body → schema validation → domain call
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import validator from '@middy/validator';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { Route, RouteRuntime } from '../routes';
import { successBody } from './envelope';
import { credential, jsonBody, normalizeParameters, permission, rateWindow, responder, state, stateOf } from './middleware';
import type { Operation, OperationRequest, PublicOperationRequest } from './operation';
import type { ChainEvent, PublicRequest } from './request';
import { eventValidator, type RouteValidators } from './validation';

type Lambda = middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** A probe's answer: its own status and body shape (spec 4.1), not the envelope. */
export interface ProbeResult {
  statusCode: number;
  body: Record<string, unknown>;
}

function chain(route: Route, validators: RouteValidators, render: Parameters<typeof responder>[0]): Lambda {
  const lambda = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(responder(render))
    .use(httpHeaderNormalizer())
    .use(credential(route))
    .use(rateWindow(route))
    .use(permission(route))
    .use(normalizeParameters())
    .use(jsonBody());
  const eventSchema = eventValidator(validators);
  // @middy/validator calls the function and reads its `errors`: any compiled validator fits.
  if (eventSchema) lambda.use(validator({ eventSchema: eventSchema as never }));
  return lambda;
}

/** The domain's result travels as the chain's response until the responder renders it. */
const asResult = (value: unknown) => value as APIGatewayProxyResult;

const envelope: Parameters<typeof responder>[0] = (request) => ({
  statusCode: 200,
  body: successBody(request.response, state(request).requestId),
});

function requestOf(raw: APIGatewayProxyEvent): PublicRequest {
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

/** The chain's steps read only the runtime fields of a row, which an operation module carries. */
const rowOf = (operation: Operation) => operation as RouteRuntime as Route;

/**
 * An operation that needs a credential holding its permission. `operation` is the export of its
 * generated module (shared/http/operations/<operationId>.ts); the request's body, query and path
 * are typed by the row's schemas.
 */
export function httpHandler<Op extends Operation & { permission: string }>(operation: Op, run: (req: OperationRequest<Op>) => Promise<unknown>): Lambda {
  if (operation.permission === null) throw new Error(`${operation.operationId} is public: use publicHandler`);
  // The chain's permission step has run before the domain call: a principal is present.
  return chain(rowOf(operation), operation.validators, envelope).handler(async (event) => asResult(await run(requestOf(event) as OperationRequest<Op>)));
}

/** An operation anyone may call (a credential, if sent, is still verified). */
export function publicHandler<Op extends Operation>(operation: Op, run: (req: PublicOperationRequest<Op>) => Promise<unknown>): Lambda {
  return chain(rowOf(operation), operation.validators, envelope).handler(async (event) => asResult(await run(requestOf(event) as PublicOperationRequest<Op>)));
}

/** A health probe: public, never rate-refused, answers its own shape. */
export function probeHandler(operation: Operation & { probe: true }, run: (req: PublicRequest) => Promise<ProbeResult>): Lambda {
  return chain(rowOf(operation), operation.validators, (request) => {
    const out = request.response as unknown as ProbeResult;
    return { statusCode: out.statusCode, body: JSON.stringify(out.body) };
  }).handler(async (event) => asResult(await run(requestOf(event))));
}
