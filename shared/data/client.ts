import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { captured } from '../runtime/tracing';

let client: DynamoDBDocumentClient | undefined;

/** Cancellation reasons that mean "throttled": nothing was written, and a later try may pass. */
const throttledReasons = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * A transaction DynamoDB cancelled only because it was throttled (every reason None or a throttle)
 * is marked retryable as a throttle, so the SDK retries it with its throttling backoff as it does a
 * throttled single-item call; a cancellation for any other reason is left alone.
 */
export function markThrottledCancellation(err: unknown): unknown {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[]; $retryable?: unknown } | undefined;
  const reasons = e?.name === 'TransactionCanceledException' ? e.CancellationReasons : undefined;
  if (
    reasons?.some((r) => throttledReasons.has(r.Code ?? '')) &&
    reasons.every((r) => r.Code === 'None' || throttledReasons.has(r.Code ?? ''))
  ) {
    e!.$retryable = { throttling: true };
  }
  return err;
}

/** The process-wide document client (created on first use, reused across invocations). */
export function db(): DynamoDBDocumentClient {
  if (!client) {
    const { region, dynamoEndpoint, dynamoTimeoutMs } = config();
    const base = captured(
      new DynamoDBClient({
        region,
        maxAttempts: 3,
        // An attempt that cannot connect, or gets no answer, fails (and is retried) rather than
        // holding the function until its own timeout: the client gets a 503 it can act on.
        requestHandler: {
          connectionTimeout: Math.min(1_000, dynamoTimeoutMs),
          requestTimeout: dynamoTimeoutMs,
          throwOnRequestTimeout: true,
        },
        ...(dynamoEndpoint
          ? { endpoint: dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
          : {}),
      }),
    );
    // Under the SDK's retries, over its deserializer: sees each attempt's parsed error.
    base.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          throw markThrottledCancellation(err);
        }
      },
      { step: 'deserialize', name: 'retryThrottledTransactions', priority: 'high' },
    );
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

/** Replace the client (tests and the local stage, after the endpoint changes). */
export function setDb(next: DynamoDBDocumentClient | undefined): void {
  client = next;
}

export const tableName = (): string => config().tableName;
