/**
 * The entry of the tracing layer (infra/tracing-layer.ts): Powertools Tracer, its Middy step and,
 * under them, the X-Ray SDK, bundled into one ES module that Lambda mounts at
 * /opt/brigade-tracing/index.mjs on the stages that trace. No handler imports this file; they load
 * the built module at run time (shared/runtime/tracing.ts), so none of it is in their bundles.
 */
export { Tracer } from '@aws-lambda-powertools/tracer';
export { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
