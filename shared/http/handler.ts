/**
 * Builds the Lambda handler of an operation that needs a credential holding its permission. A
 * handler file names its operation and one domain call; the chain does the rest, the same way for
 * every operation (chain/buildChain.ts, drawn in docs/layering.md). Such an operation sits behind
 * the API Gateway authorizer and trusts its verdict; public operations and probes verify a
 * credential themselves (publicHandler.ts).
 */
import { Download } from '../download';
import { buildChain, type HttpFunction } from './chain/buildChain';
import type { Outcome } from './chain/outcome';
import type { Operation, OperationRequest } from './operation';

/** A domain call's answer as the chain's outcome: a file's bytes, or the value in the envelope. */
export const resultOf = (value: unknown): Outcome =>
  value instanceof Download ? { kind: 'download', file: value } : { kind: 'result', value };

/**
 * An operation that needs a credential holding its permission. `operation` is the export of its
 * generated module (shared/http/operations/<operationId>.ts); the request's body, query and path
 * are typed by the row's schemas.
 */
export function httpHandler<Op extends Operation & { permission: string }>(
  operation: Op,
  run: (req: OperationRequest<Op>) => Promise<unknown>,
): HttpFunction {
  if (operation.permission === null) throw new Error(`${operation.operationId} is public: use publicHandler`);
  return buildChain(operation, async (req) => {
    // The permission step has run before the domain call, so a principal is present; the schema
    // step has checked body, query and path against this operation's schemas.
    if (!req.principal) throw new Error(`${operation.operationId} reached its domain call without a principal`);
    return resultOf(await run(req as OperationRequest<Op>));
  });
}
