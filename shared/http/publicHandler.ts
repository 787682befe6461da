/**
 * Handlers for the functions API Gateway calls without the authorizer in front: public operations,
 * health probes, documents and the fallback. They verify a credential the caller sends themselves,
 * so they (and only they, besides the authorizer) carry the credential code; an operation with a
 * permission uses `httpHandler` (handler.ts) and trusts the authorizer's verdict.
 */
import { authenticate } from '../auth/authenticate';
import { buildChain, type HttpFunction } from './chain/buildChain';
import { resultOf } from './handler';
import type { Operation, PublicOperationRequest } from './operation';
import type { PublicRequest } from './request';

/** A probe's answer: its own status and body shape (docs/api.md), not the envelope. */
interface ProbeResult {
  statusCode: number;
  body: Record<string, unknown>;
}

/** An operation anyone may call (a credential, if sent, is still verified). */
export function publicHandler<Op extends Operation>(
  operation: Op,
  run: (req: PublicOperationRequest<Op>) => Promise<unknown>,
): HttpFunction {
  if (operation.permission !== null) throw new Error(`${operation.operationId} needs a permission: use httpHandler`);
  // The schema step has checked body, query and path against this operation's schemas.
  return buildChain(operation, async (req) => resultOf(await run(req as PublicOperationRequest<Op>)), authenticate);
}

/** A health probe: public, never rate-refused, answers its own shape. */
export function probeHandler(
  operation: Operation & { probe: true },
  run: (req: PublicRequest) => Promise<ProbeResult>,
): HttpFunction {
  return buildChain(
    operation,
    async (req) => {
      const { statusCode, body } = await run(req);
      return { kind: 'probe', statusCode, body };
    },
    authenticate,
  );
}

/** A document's text, with headers of its own (the docs page's Content-Security-Policy). */
interface DocumentAnswer {
  body: string;
  headers: Record<string, string>;
}

/**
 * A public operation whose answer is a document of its own, not the envelope: JSON text (GET
 * /openapi.json), or text in its row's `asset` media type (the docs page and its script). Errors
 * still answer the JSON envelope.
 */
export function documentHandler(
  operation: Operation,
  run: (req: PublicRequest) => Promise<string | DocumentAnswer>,
): HttpFunction {
  if (operation.permission !== null) throw new Error(`${operation.operationId} needs a permission: use httpHandler`);
  const type: Record<string, string> = operation.asset
    ? { 'Content-Type': `${operation.asset.mediaType}; charset=utf-8` }
    : {};
  return buildChain(
    operation,
    async (req) => {
      const answer = await run(req);
      return typeof answer === 'string'
        ? { kind: 'document', body: answer, headers: type }
        : { kind: 'document', body: answer.body, headers: { ...type, ...answer.headers } };
    },
    authenticate,
  );
}
