import { AppError, conflict, unavailable } from '../errors';

/** AWS SDK error names that mean "DynamoDB is overloaded, down or unreachable": 503, retry later. */
const unavailableNames = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/** Turn a data-layer failure into the contract's error; anything unknown stays a 500. */
export function toAppError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const e = err as { name?: string; code?: string; cause?: { code?: string } } | undefined;
  if (!e) return err;
  if (e.name === 'TransactionConflictException') return conflict('A concurrent request changed the same data; retry');
  if (unavailableNames.has(e.name ?? '') || networkCodes.has(e.code ?? '') || networkCodes.has(e.cause?.code ?? '')) {
    return unavailable();
  }
  return err;
}
