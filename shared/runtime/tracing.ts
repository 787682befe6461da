/**
 * X-Ray tracing with Powertools Tracer: one Tracer per process, a Middy step that opens the
 * handler's subsegment (every HTTP handler's chain, shared/http/handler.ts, and `traced` for the
 * other functions), and `captured` for every AWS SDK client the product creates, so each call to
 * DynamoDB, SQS or API Gateway is a subsegment of its request.
 *
 * The stage decides (infra/settings.ts `tracing`): it sets the functions' active tracing and
 * POWERTOOLS_TRACE_ENABLED. Only when that is `true` is the Tracer (and the X-Ray SDK under it,
 * about 125 KB of minified code) loaded at all; otherwise, on a stage without tracing, on the local
 * stage, in tests and in the bench, nothing of it runs at init and each step below does nothing.
 * Responses and errors are never recorded (POWERTOOLS_TRACER_CAPTURE_RESPONSE / _CAPTURE_ERROR are
 * false): they carry guests' data.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

const powertools =
  process.env.POWERTOOLS_TRACE_ENABLED === 'true'
    ? await Promise.all([import('@aws-lambda-powertools/tracer'), import('@aws-lambda-powertools/tracer/middleware')])
    : undefined;

/** The process's Tracer, when the stage traces. */
export const tracer = powertools && new powertools[0].Tracer({ serviceName: 'brigade' });

/**
 * The Middy step that traces an invocation, registered first so it spans every other step; none
 * when the stage does not trace (Middy takes a list).
 */
export const traceInvocation = (): MiddlewareObj[] => (tracer && powertools ? [powertools[1].captureLambdaHandler(tracer, { captureResponse: false })] : []);

/**
 * A function that is not an HTTP chain (authorizer, pipeline, sweeper, catalog seed), traced. It
 * keeps the signature it had: in-process callers (tests, the local stage) may pass no context.
 */
export function traced<E, R>(handler: (event: E, context: Context) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  const wrapped = middy(handler).use(traceInvocation());
  return (event, context) => wrapped(event, context ?? ({} as Context));
}

/** An AWS SDK v3 client whose calls are traced (the same client when tracing is off). */
export const captured = <Client extends object>(client: Client): Client => (tracer ? tracer.captureAWSv3Client(client) : client);
