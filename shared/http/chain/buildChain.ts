/**
 * The chain of every HTTP function, composed in one place and in the order it runs (docs/layering.md
 * draws it). Middy runs the `before` steps top-down, then the handler (the domain call), then the
 * `after` steps bottom-up; a thrown error runs the `onError` steps bottom-up instead.
 *
 *   step          before                                      after / onError
 *   trace         opens the invocation's trace segment        closes it
 *   responder     opens the request's state                   renders the outcome / the error envelope
 *   headers       lower-cases header names
 *   credential    the principal, or a held 401
 *   rate window   starts the count, does not wait for it      awaits the verdict: 429 or 503 replace the answer
 *   origin        a publishable key's page: 403, CORS headers
 *   permission    403
 *   parameters    null query and path → {}
 *   JSON body     413, 415, the parsed body
 *   schema        400 with every field problem
 *   idempotency   (POST) claims the key, or finds the replay  keeps the answer / gives the key up
 *   hand over     the Middy request to the handler
 *   domain call   the operation behind the write gate, or the replay
 *
 * The fallback's operation says GET (it answers every method, only ever 404 or 405): it keeps no
 * `Idempotency-Key`. An operation with a permission sits behind the API Gateway authorizer and
 * trusts its verdict (handler.ts); public operations, probes and the fallback verify a credential
 * themselves (publicHandler.ts gives the `verify`).
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { traceInvocation } from '../../runtime/tracing';
import type { Operation } from '../operation';
import { credential, type Verifier } from './credential';
import { type DomainCall, domainCall } from './domainCall';
import { idempotency } from './idempotency';
import { jsonBody } from './jsonBody';
import type { ChainResponse } from './outcome';
import { origin } from './origin';
import { parameters } from './parameters';
import { permission } from './permission';
import { rateWindow } from './rateWindow';
import { responder } from './responder';
import { schema } from './schema';
import type { ChainInternal, HttpEvent } from './state';

/** An HTTP function as Lambda calls it: any event API Gateway sends is an `HttpEvent`; the answer is rendered. */
export type HttpFunction = middy.MiddyfiedHandler<HttpEvent, APIGatewayProxyResult, Error, Context, ChainInternal>;

/** The function for one operation (its generated module) and its domain call; `verify` only where no authorizer is in front. */
export function buildChain(operation: Operation, call: DomainCall, verify?: Verifier): HttpFunction {
  const { handOver, handler } = domainCall(call);
  return middy<HttpEvent, ChainResponse, Error, Context, ChainInternal>()
    .use(traceInvocation())
    .use(responder(operation))
    .use(httpHeaderNormalizer())
    .use(credential(operation, verify))
    .use(rateWindow(operation))
    .use(origin())
    .use(permission(operation))
    .use(parameters())
    .use(jsonBody())
    .use(schema(operation.validators))
    .use(idempotency(operation))
    .use(handOver)
    .handler<HttpEvent, APIGatewayProxyResult>(handler);
}
