/**
 * The pipeline's Lambda edges, with the shared attempt and dispatch code stubbed and SQS mocked:
 * how an outcome becomes a deleted message, a deferred one (partial batch failure) or a dead letter.
 */
import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryRef } from '../../shared/data/outbox';
import type { AttemptOutcome } from '../../shared/webhooks/delivery';
import type { Enqueue } from '../../shared/webhooks/dispatch';

const attempt = vi.hoisted(() => ({ outcomes: new Map<string, AttemptOutcome>() }));
vi.mock('../../shared/webhooks/delivery', () => ({
  attemptDelivery: async (ref: DeliveryRef) => attempt.outcomes.get(ref.deliveryId) ?? { kind: 'stale' },
}));
const dispatched = vi.hoisted(() => ({ calls: [] as { message: unknown; enqueue: Enqueue }[] }));
vi.mock('../../shared/webhooks/dispatch', () => ({
  dispatch: async (message: unknown, enqueue: Enqueue) => void dispatched.calls.push({ message, enqueue }),
}));

const QUEUE = 'https://sqs.eu-north-1.amazonaws.com/123456789012/delivery';
const DLQ = 'https://sqs.eu-north-1.amazonaws.com/123456789012/delivery-dlq';
const sqs = mockClient(SQSClient);
const context = {
  functionName: 'test',
  awsRequestId: 'r-1',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

const ref = (deliveryId: string): DeliveryRef => ({ companyId: 1, subscriptionId: 's-1', deliveryId, round: 1 });
const sqsEvent = (bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, i) => ({
    messageId: `m-${i}`,
    receiptHandle: `rh-${i}`,
    body,
    attributes: {} as SQSEvent['Records'][number]['attributes'],
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-north-1:123456789012:q',
    awsRegion: 'eu-north-1',
  })),
});

beforeAll(() => {
  Object.assign(process.env, {
    DELIVERY_QUEUE_URL: QUEUE,
    DELIVERY_DLQ_URL: DLQ,
    STAGE: 'dev',
    AWS_REGION: 'eu-north-1',
  });
});
beforeEach(() => {
  sqs.reset();
  sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
  attempt.outcomes.clear();
  dispatched.calls.length = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('delivery Lambda', () => {
  it('deletes delivered and stale messages, defers retries to their due time, dead-letters dead ones', async () => {
    const { handler } = await import('../../functions/pipeline/delivery');
    // The deferrals are counted from the clock: stop it (Date only), so the test and the handler read one instant.
    const now = Date.parse('2027-06-01T09:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now });
    attempt.outcomes.set('ok', { kind: 'delivered' });
    attempt.outcomes.set('again', { kind: 'retry', at: now + 300_000 });
    attempt.outcomes.set('later', { kind: 'wait', at: now + 4_500 });
    attempt.outcomes.set('dead', { kind: 'dead', alertId: 'a-1' });
    const emitted: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (emitted.push(String(chunk)), true));

    const bodies = ['ok', 'again', 'later', 'dead', 'gone'].map((id) => JSON.stringify(ref(id)));
    const out = await handler(sqsEvent(bodies), context);

    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-2' }]);
    const visibility = sqs.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input);
    expect(visibility).toEqual([
      { QueueUrl: QUEUE, ReceiptHandle: 'rh-1', VisibilityTimeout: 300 },
      { QueueUrl: QUEUE, ReceiptHandle: 'rh-2', VisibilityTimeout: 5 },
    ]);
    expect(sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: DLQ, MessageBody: bodies[3] },
    ]);
    const metric = emitted.map((line) => JSON.parse(line)).find((m) => m._aws?.CloudWatchMetrics);
    expect(metric).toMatchObject({
      WebhookDeliveriesDead: 1,
      service: 'brigade',
      stage: 'dev',
      _aws: { CloudWatchMetrics: [{ Namespace: 'Brigade' }] },
    });
  });

  it('never asks SQS for more than its 12-hour visibility limit', async () => {
    const { handler } = await import('../../functions/pipeline/delivery');
    attempt.outcomes.set('far', { kind: 'retry', at: Date.now() + 20 * 3600_000 });
    await handler(sqsEvent([JSON.stringify(ref('far'))]), context);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)[0]!.args[0].input.VisibilityTimeout).toBe(12 * 3600);
  });

  it('fails a message that is not a delivery reference (it reaches the dead-letter queue by redrive)', async () => {
    const { handler } = await import('../../functions/pipeline/delivery');
    const out = await handler(sqsEvent(['{"nope":1}']), context);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: 'm-0' }]);
  });
});

describe('dispatcher Lambda', () => {
  it('reads the outbox item from the EventBridge event the Pipe sent, and queues deliveries ten per call', async () => {
    const { handler } = await import('../../functions/pipeline/dispatcher');
    const payload = {
      id: 'e-1',
      event: 'coursing.created',
      resource: 'coursing',
      resourceId: 'c-1',
      timestamp: '2026-01-01T00:00:00.000Z',
      apiVersion: 'v',
      data: {},
      changes: null,
    };
    const detail = {
      eventName: 'INSERT',
      dynamodb: { NewImage: marshall({ pk: 'C#1#EVENTS', entity: 'OUTBOX', companyId: 1, payload }) },
    };
    const out = await handler(
      sqsEvent([JSON.stringify({ source: 'brigade.outbox', 'detail-type': 'Outbox item', detail })]),
      context,
    );

    expect(out.batchItemFailures).toEqual([]);
    expect(dispatched.calls.map((c) => c.message)).toEqual([{ kind: 'event', event: { companyId: 1, payload } }]);
    const refs = Array.from({ length: 12 }, (_, i) => ref(`d-${i}`));
    await dispatched.calls[0]!.enqueue(refs);
    const batches = sqs.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
    expect(batches.map((b) => [b.QueueUrl, b.Entries!.length])).toEqual([
      [QUEUE, 10],
      [QUEUE, 2],
    ]);
    expect(JSON.parse(batches[1]!.Entries![1]!.MessageBody!)).toEqual(refs[11]);
  });

  it('does not report success when SQS did not take every delivery (the fan-out message comes back)', async () => {
    sqs
      .on(SendMessageBatchCommand)
      .resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    const { sqsEnqueue } = await import('../../shared/webhooks/sqs');
    await expect(sqsEnqueue(QUEUE)([ref('d-1')])).rejects.toThrow(/not queued: InternalError/);
  });
});
