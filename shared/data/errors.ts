import { AppError, unavailable } from '../errors';

/** AWS SDK error names that mean "DynamoDB is overloaded, down or unreachable": 503, retry later. */
const unavailableNames = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  // The SDK's retry of a transaction met its own first attempt still running, every time it tried.
  'TransactionInProgressException',
]);
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);

/**
 * A transaction DynamoDB cancelled because another one touched one of its items at the same
 * moment: nothing was written, and trying again may succeed (409 if it reaches the client).
 */
export class ConcurrentChange extends AppError {
  constructor() {
    super('CONFLICT', 'A concurrent request changed the same data; retry');
  }
}

/** Turn a data-layer failure into the contract's error; anything unknown stays a 500. */
export function toAppError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  const e = err as { name?: string; code?: string; cause?: { code?: string } } | undefined;
  if (!e) return err;
  if (e.name === 'TransactionConflictException') return new ConcurrentChange();
  if (unavailableNames.has(e.name ?? '') || networkCodes.has(e.code ?? '') || networkCodes.has(e.cause?.code ?? '')) {
    return unavailable();
  }
  return err;
}

/**
 * Runs one or more SDK calls; whatever they throw leaves as the contract's error. Every call the
 * data layer makes goes through here (or through `transact`, which reads cancellation reasons
 * first), so SDK errors are mapped in this one place.
 */
export async function sdk<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toAppError(err);
  }
}

/** Whether a single-item write failed its ConditionExpression. */
export const conditionFailed = (err: unknown) => (err as Error | undefined)?.name === 'ConditionalCheckFailedException';
