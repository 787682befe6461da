/**
 * Handlers for the functions API Gateway calls without the authorizer in front: public operations,
 * health probes and the fallback. They verify a credential the caller sends themselves, so they
 * (and only they, besides the authorizer) carry the credential code; an operation with a
 * permission uses `httpHandler` (handler.ts) and trusts the authorizer's verdict.
 */
import type { APIGatewayProxyResult } from 'aws-lambda';
import { authenticate } from '../auth/authenticate';
import { asResult, chain, envelope, requestOf } from './handler';
import type { Operation, PublicOperationRequest } from './operation';
import type { PublicRequest } from './request';

/** A probe's answer: its own status and body shape (docs/api.md), not the envelope. */
export interface ProbeResult {
  statusCode: number;
  body: Record<string, unknown>;
}

/** An operation anyone may call (a credential, if sent, is still verified). */
export function publicHandler<Op extends Operation>(
  operation: Op,
  run: (req: PublicOperationRequest<Op>) => Promise<unknown>,
) {
  if (operation.permission !== null) throw new Error(`${operation.operationId} needs a permission: use httpHandler`);
  return chain(operation, operation.validators, envelope, authenticate).handler(async (event) =>
    asResult(await run(requestOf(event) as PublicOperationRequest<Op>)),
  );
}

/** A health probe: public, never rate-refused, answers its own shape. */
export function probeHandler(
  operation: Operation & { probe: true },
  run: (req: PublicRequest) => Promise<ProbeResult>,
) {
  return chain(
    operation,
    operation.validators,
    (request) => {
      const out = request.response as unknown as ProbeResult;
      return { statusCode: out.statusCode, body: JSON.stringify(out.body) };
    },
    authenticate,
  ).handler(async (event) => asResult(await run(requestOf(event))));
}

/** A document's text, with headers of its own (the docs page's Content-Security-Policy). */
export interface DocumentAnswer {
  body: string;
  headers: Record<string, string>;
}

/**
 * A public operation whose answer is a document of its own, not the envelope: JSON text (GET
 * /openapi.json), or text in its row's `asset` media type (the docs page and its script). Errors
 * still answer the JSON envelope.
 */
export function documentHandler(operation: Operation, run: (req: PublicRequest) => Promise<string | DocumentAnswer>) {
  if (operation.permission !== null) throw new Error(`${operation.operationId} needs a permission: use httpHandler`);
  const type: Record<string, string> = operation.asset
    ? { 'Content-Type': `${operation.asset.mediaType}; charset=utf-8` }
    : {};
  const render = (request: { response: unknown }): APIGatewayProxyResult => {
    const answer = request.response as string | DocumentAnswer;
    return typeof answer === 'string'
      ? { statusCode: 200, headers: type, body: answer }
      : { statusCode: 200, headers: { ...type, ...answer.headers }, body: answer.body };
  };
  return chain(operation, operation.validators, render, authenticate).handler(async (event) =>
    asResult(await run(requestOf(event))),
  );
}
