/**
 * X-Ray tracing with Powertools Tracer: one Tracer per process, a Middy step that opens the
 * handler's subsegment (every HTTP handler's chain, shared/http/chain/buildChain.ts, and `traced` for the
 * other functions), and `captured` for every AWS SDK client the product creates, so each call to
 * DynamoDB, SQS or API Gateway is a subsegment of its request.
 *
 * The stage decides (infra/settings.ts `tracing`): it sets the functions' active tracing,
 * POWERTOOLS_TRACE_ENABLED and attaches the tracing layer (infra/tracing-layer.ts). The Tracer and
 * the X-Ray SDK under it (about 125 KB of minified code) are in that layer, not in the handler
 * bundles: only when POWERTOOLS_TRACE_ENABLED is `true` is the layer's module imported, from a
 * path esbuild cannot follow (TRACING_MODULE). Otherwise, on a stage without tracing, on the local
 * stage, in tests and in the bench, nothing is loaded and each step below does nothing.
 * Responses and errors are never recorded (POWERTOOLS_TRACER_CAPTURE_RESPONSE / _CAPTURE_ERROR are
 * false): they carry guests' data.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { pathToFileURL } from 'node:url';
import type * as TracingModule from './tracing-layer/index';

/** Where Lambda mounts the tracing layer's module (infra/tracing-layer.ts TRACING_LAYER_FILE under /opt). */
export const TRACING_LAYER_MODULE = '/opt/brigade-tracing/index.mjs';

/**
 * The module the Tracer is loaded from: the layer's, unless BRIGADE_TRACING_MODULE names another
 * file (the test that runs a traced bundle against a layer built in a temporary folder). A value
 * computed at run time: esbuild leaves the import alone and bundles none of the tracer.
 */
const TRACING_MODULE = process.env.BRIGADE_TRACING_MODULE || TRACING_LAYER_MODULE;

const powertools =
  process.env.POWERTOOLS_TRACE_ENABLED === 'true'
    ? ((await import(pathToFileURL(TRACING_MODULE).href)) as typeof TracingModule)
    : undefined;

/** The process's Tracer, when the stage traces. */
const tracer = powertools && new powertools.Tracer({ serviceName: 'brigade' });

/**
 * The Middy step that traces an invocation, registered first so it spans every other step; none
 * when the stage does not trace (Middy takes a list).
 */
export const traceInvocation = (): MiddlewareObj[] =>
  tracer && powertools ? [powertools.captureLambdaHandler(tracer, { captureResponse: false })] : [];

/**
 * A function that is not an HTTP chain (authorizer, pipeline, sweeper, catalog seed), traced. It
 * keeps the signature it had: in-process callers (tests, the local stage) may pass no context.
 */
export function traced<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
): (event: E, context?: Context) => Promise<R> {
  const wrapped = middy(handler).use(traceInvocation());
  return (event, context) => wrapped(event, context ?? ({} as Context));
}

/** An AWS SDK v3 client whose calls are traced (the same client when tracing is off). */
export const captured = <Client extends object>(client: Client): Client =>
  tracer ? tracer.captureAWSv3Client(client) : client;
