/**
 * Faults, throttling (docs/testing.md): DynamoDB's own throttle answers, injected under the SDK's retries
 * of the production client (`db()`), are retried by the SDK; when its attempts run out the client
 * gets 503 `UNAVAILABLE` in the envelope with `Retry-After`, and nothing was written. A handler is
 * invoked as API Gateway would (authorizer first), against DynamoDB Local.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invokeThroughGateway } from '../../bin/local/gateway';
import { handler as createGuestHandler } from '../../functions/guests/create';
import { clearKeyCache } from '../../shared/auth/authenticate';
import { db, markThrottledCancellation, tableName } from '../../shared/data/client';
import { issueApiKey } from '../../shared/domain/apiKeys';
import { onboardCompany } from '../../shared/domain/companies';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../shared/errors';
import { idBlock } from '../support/id-blocks';
import { rateLeases } from '../../shared/domain/rateLeases';

const ids = idBlock(import.meta.url);
const companyId = ids.next();
let key: string;

/** What DynamoDB answers a throttled call: HTTP 400 with the exception's type in a JSON body. */
const THROTTLED_ITEM = 'ProvisionedThroughputExceededException';
const THROTTLED_TRANSACTION = 'TransactionCanceledException';

interface Throttle {
  /** The operation throttled (the X-Amz-Target's suffix: UpdateItem, TransactWriteItems, GetItem). */
  operation: string;
  /** Attempts to throttle; Infinity for all of them. */
  times: number;
}

let throttle: Throttle | undefined;
/** Every attempt the SDK sent of the throttled operation, and how many were throttled. */
let sent = 0;
let throttled = 0;

const answer = (type: string, extra: Record<string, unknown> = {}) => ({
  response: {
    statusCode: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `injected-${sent}` },
    body: new TextEncoder().encode(
      JSON.stringify({
        __type: `com.amazonaws.dynamodb.v20120810#${type}`,
        message: 'Throughput exceeds the current capacity of your table or index',
        ...extra,
      }),
    ),
  },
});

/** Under the SDK's deserializer, so the SDK parses the injected answer as it would DynamoDB's. */
function injectThrottles(): void {
  db().middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers: Record<string, string>; body?: string };
      const operation = request.headers['x-amz-target']?.split('.')[1];
      if (!throttle || operation !== throttle.operation) return next(args);
      sent += 1;
      if (throttled >= throttle.times) return next(args);
      throttled += 1;
      if (operation !== 'TransactWriteItems') return answer(THROTTLED_ITEM) as never;
      // A throttled transaction is cancelled, one reason per item: the throttled item's, None for the rest.
      const count = (JSON.parse(request.body ?? '{}') as { TransactItems?: unknown[] }).TransactItems?.length ?? 1;
      const reasons = Array.from({ length: count }, (_, i) =>
        i === 0
          ? { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index' }
          : { Code: 'None' },
      );
      return answer(THROTTLED_TRANSACTION, { CancellationReasons: reasons }) as never;
    },
    { step: 'deserialize', name: 'injectedThrottles', priority: 'low' },
  );
}

const context = { awsRequestId: 'throttling', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
let request = 0;
const createGuestEvent = (email: string): APIGatewayProxyEvent =>
  ({
    resource: '/api/v1/users/guests',
    path: '/api/v1/users/guests',
    httpMethod: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: JSON.stringify({ name: 'Throttled Guest', email }),
    isBase64Encoded: false,
    requestContext: { requestId: `throttling-${(request += 1)}`, identity: { sourceIp: '203.0.113.9' } },
  }) as unknown as APIGatewayProxyEvent;

async function createGuest(email: string) {
  const out = (await invokeThroughGateway(
    { permission: 'bookings.create' },
    createGuestHandler,
    createGuestEvent(email),
    context,
  )) as APIGatewayProxyResult;
  return {
    status: out.statusCode,
    headers: out.headers ?? {},
    json: JSON.parse(out.body) as { data?: { id: number }; error?: { code: string; message: string } },
  };
}

/** The company's stored items for a guest with this email (its contact item, by key; strongly consistent). */
const guestsWithEmail = async (email: string) =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: { ':pk': `C#${companyId}`, ':sk': `GUESTCONTACT#E#${email}` },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

const emailOf = (name: string) => `${name}.${companyId}@example.com`;

beforeAll(async () => {
  await onboardCompany({ id: companyId, name: 'Throttled Bistro' });
  ({ key } = await issueApiKey(companyId, {
    name: 'throttling',
    tier: 'unlimited',
    permissions: ['bookings.create', 'bookings.read'],
  }));
  injectThrottles();
});

afterEach(() => {
  throttle = undefined;
  sent = 0;
  throttled = 0;
  // Each test a fresh container: its first request leases its rate window (one UpdateItem).
  rateLeases.forget();
});

describe('a throttled call the SDK retries', () => {
  it('answers 200 when a single-item write is throttled twice: three attempts, one guest', async () => {
    throttle = { operation: 'UpdateItem', times: 2 };
    const email = emailOf('item');
    const out = await createGuest(email);
    expect(out.status).toBe(200);
    expect(throttled).toBe(2);
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(await guestsWithEmail(email)).toHaveLength(1);
  });

  it('answers 200 when a transaction is cancelled as throttled twice: the SDK retries it too', async () => {
    throttle = { operation: 'TransactWriteItems', times: 2 };
    const email = emailOf('transaction');
    const out = await createGuest(email);
    expect(out.status).toBe(200);
    expect([throttled, sent]).toEqual([2, 3]);
    expect(await guestsWithEmail(email)).toHaveLength(1);
  });
});

describe('a throttle that outlasts the retries', () => {
  it.each([
    ['single-item write (the rate window count)', 'UpdateItem'],
    ['transaction (the guest)', 'TransactWriteItems'],
  ])(
    'answers 503 UNAVAILABLE with Retry-After after 3 attempts of a throttled %s, writing no guest',
    async (_, operation) => {
      throttle = { operation, times: Infinity };
      const email = emailOf(`down-${operation}`);
      const out = await createGuest(email);
      expect(out.status).toBe(503);
      expect(out.headers['Retry-After']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(out.json.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.any(String) });
      expect(sent).toBe(3);
      expect(await guestsWithEmail(email)).toEqual([]);
    },
  );

  it("answers 503 with Retry-After when the authorizer's key lookup is throttled, and the handler never runs", async () => {
    clearKeyCache();
    throttle = { operation: 'GetItem', times: Infinity };
    const email = emailOf('authorizer');
    const out = await createGuest(email);
    throttle = undefined;
    expect(out.status).toBe(503);
    expect(out.headers['Retry-After']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(out.json.error?.code).toBe('UNAVAILABLE');
    expect(await guestsWithEmail(email)).toEqual([]);
  });
});

describe('which cancellations count as throttles', () => {
  const cancelled = (...codes: string[]) => ({
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
  it('marks a cancellation whose reasons are throttles and None retryable, and no other', () => {
    expect(markThrottledCancellation(cancelled('None', 'ThrottlingError'))).toMatchObject({
      $retryable: { throttling: true },
    });
    expect(markThrottledCancellation(cancelled('ProvisionedThroughputExceeded'))).toMatchObject({
      $retryable: { throttling: true },
    });
    // A failed condition or a conflict is an answer, not a throttle: retrying would repeat it or hide it.
    expect(markThrottledCancellation(cancelled('ThrottlingError', 'ConditionalCheckFailed'))).not.toHaveProperty(
      '$retryable',
    );
    expect(markThrottledCancellation(cancelled('TransactionConflict', 'None'))).not.toHaveProperty('$retryable');
    expect(markThrottledCancellation(cancelled('None'))).not.toHaveProperty('$retryable');
    expect(markThrottledCancellation({ name: 'ValidationException' })).not.toHaveProperty('$retryable');
  });
});
