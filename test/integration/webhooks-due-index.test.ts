/**
 * The due index is written only where it carries deliveries (shared/config.ts `deliveryQueue`):
 * with the AWS configuration (`sqs`) a delivery's item never holds gsi2pk/gsi2sk, from its
 * creation through a claimed attempt, a failure with its next attempt, a manual retry and its
 * success, nor does a test event's; with the local stage's (`due-index`) it holds them while it
 * waits for an attempt. The real dispatcher, attempt and operations run, each as its function
 * (so the suite's IAM check sees their calls), against DynamoDB Local and a receiver on loopback.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { loadConfig, resetConfig, type DeliveryQueue } from '../../shared/config';
import { db, tableName } from '../../shared/data/client';
import type { DeliveryRef } from '../../shared/data/outbox';
import { retryDelivery, sendTestEvent } from '../../shared/domain/webhooks';
import { newEvent } from '../../shared/events/catalog';
import { attemptDelivery } from '../../shared/webhooks/delivery';
import { dispatch } from '../../shared/webhooks/dispatch';
import { LocalPipeline } from '../../bin/local/pipeline';
import { asFunction } from '../support/aws-call-log';
import { idBlock } from '../support/id-blocks';
import { addSubscription } from '../support/subscriptions';

const ids = idBlock(import.meta.url);

type Item = Record<string, unknown>;
const itemOf = async (companyId: number, deliveryId: string): Promise<Item> =>
  (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk: `WHDELIVERY#${deliveryId}` } }),
    )
  ).Item!;

/**
 * The receiver: answers each request with the status `respond` gives, after `respond` has run, so a
 * test can read the delivery while its attempt holds the claim.
 */
let server: Server;
let receiverUrl: string;
let respond: (deliveryId: string) => Promise<number> = async () => 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      void respond(String(req.headers['webhook-id'])).then(
        (status) => res.writeHead(status).end(),
        () => res.writeHead(599).end(),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const configured = process.env.WEBHOOK_DELIVERY_QUEUE;
/** The configuration of a stage whose deliveries `queue` carries. */
function carriedBy(queue: DeliveryQueue): void {
  process.env.WEBHOOK_DELIVERY_QUEUE = queue;
  resetConfig();
}
afterEach(() => {
  if (configured === undefined) delete process.env.WEBHOOK_DELIVERY_QUEUE;
  else process.env.WEBHOOK_DELIVERY_QUEUE = configured;
  resetConfig();
});

const settings = { timeoutMs: 10_000, backoffScale: 1 };
const principalOf = (companyId: number): Principal => ({
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
});

const attempt = (ref: DeliveryRef) => asFunction('webhook-delivery', () => attemptDelivery(ref, { settings }));

/** One attempt whose receiver answers `status`; the delivery's item as it was while the attempt held the claim. */
async function attemptSeen(ref: DeliveryRef, status: number) {
  let claimed: Item | undefined;
  respond = async (deliveryId) => {
    if (deliveryId === ref.deliveryId) claimed = await itemOf(ref.companyId, ref.deliveryId);
    return status;
  };
  const outcome = await attempt(ref);
  return { outcome, claimed: claimed! };
}

/**
 * A delivery's life, with its item at each step: dispatched (created, pending), its first attempt
 * (claimed, then failed with a next attempt), a manual retry, the retry's attempt (claimed, then
 * delivered); and a test event's delivery, created and then delivered.
 */
async function life() {
  const companyId = ids.next();
  const s = await addSubscription(companyId, receiverUrl);
  const refs: DeliveryRef[] = [];
  await asFunction('webhook-dispatcher', () =>
    dispatch(
      { kind: 'event', event: newEvent(companyId, 'coursing.created', randomUUID(), { title: 'Starters' }) },
      async (queued) => void refs.push(...queued),
    ),
  );
  expect(refs).toHaveLength(1);
  const ref = refs[0]!;
  const created = await itemOf(companyId, ref.deliveryId);

  const first = await attemptSeen(ref, 500);
  expect(first.outcome.kind).toBe('retry');
  const failed = await itemOf(companyId, ref.deliveryId);

  const next = await asFunction('retryWebhookDelivery', () => retryDelivery(principalOf(companyId), ref.deliveryId));
  const retried = await itemOf(companyId, ref.deliveryId);

  const second = await attemptSeen({ ...ref, round: next.round }, 204);
  expect(second.outcome).toEqual({ kind: 'delivered' });
  const delivered = await itemOf(companyId, ref.deliveryId);

  const test = await asFunction('testWebhookSubscription', () => sendTestEvent(principalOf(companyId), s.id));
  const testRef = { companyId, subscriptionId: s.id, deliveryId: test.id, round: 1 };
  const testCreated = await itemOf(companyId, test.id);
  const testAttempt = await attemptSeen(testRef, 200);
  expect(testAttempt.outcome).toEqual({ kind: 'delivered' });

  return {
    steps: {
      created,
      claimed: first.claimed,
      failed,
      retried,
      'claimed again': second.claimed,
      delivered,
      'test event created': testCreated,
      'test event claimed': testAttempt.claimed,
      'test event delivered': await itemOf(companyId, test.id),
    },
    companyId,
  };
}

describe('the due index', () => {
  it('follows the stage unless WEBHOOK_DELIVERY_QUEUE says otherwise', () => {
    expect(loadConfig({ STAGE: 'local' }).deliveryQueue).toBe('due-index');
    expect(loadConfig({ STAGE: 'dev' }).deliveryQueue).toBe('sqs');
    expect(loadConfig({ STAGE: 'prod' }).deliveryQueue).toBe('sqs');
    expect(loadConfig({ STAGE: 'local', WEBHOOK_DELIVERY_QUEUE: 'sqs' }).deliveryQueue).toBe('sqs');
    expect(() => loadConfig({ STAGE: 'dev', WEBHOOK_DELIVERY_QUEUE: 'table' })).toThrow(
      'WEBHOOK_DELIVERY_QUEUE must be one of sqs, due-index, not "table"',
    );
  });

  it('is never written where SQS carries the deliveries: no delivery item holds its keys at any step', async () => {
    carriedBy('sqs');
    const { steps } = await life();
    expect(steps.failed).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: expect.any(String) });
    expect(steps.retried).toMatchObject({ status: 'pending', round: 2, attempts: 0 });
    expect(steps.delivered).toMatchObject({ status: 'delivered', round: 2, attempts: 1 });
    expect(steps['claimed again']).toMatchObject({ claim: expect.any(String) });
    for (const [step, item] of Object.entries(steps)) {
      expect(item, step).not.toHaveProperty('gsi2pk');
      expect(item, step).not.toHaveProperty('gsi2sk');
    }
  });

  it('holds each delivery that waits for an attempt where it carries the deliveries (the local stage), and lets go of finished ones', async () => {
    carriedBy('due-index');
    const { steps, companyId } = await life();
    const open = [
      'created',
      'claimed',
      'failed',
      'retried',
      'claimed again',
      'test event created',
      'test event claimed',
    ] as const;
    for (const step of open) {
      const item = steps[step];
      // Keyed by when it is due: the next attempt, or the end of the claim's lease.
      expect(item, step).toMatchObject({
        gsi2pk: expect.stringMatching(/^WHDUE#[0-7]$/),
        gsi2sk: `${String(item.nextAttemptAt)}#${companyId}#${String(item.id)}`,
      });
    }
    expect(steps.claimed.nextAttemptAt).not.toBe(steps.created.nextAttemptAt);
    for (const step of ['delivered', 'test event delivered'] as const) {
      expect(steps[step], step).not.toHaveProperty('gsi2pk');
      expect(steps[step], step).not.toHaveProperty('gsi2sk');
    }
  });

  it('lets go of a delivery written into it before, at its next write once SQS carries the deliveries', async () => {
    carriedBy('due-index');
    const companyId = ids.next();
    await addSubscription(companyId, receiverUrl);
    const refs: DeliveryRef[] = [];
    await asFunction('webhook-dispatcher', () =>
      dispatch(
        { kind: 'event', event: newEvent(companyId, 'coursing.created', randomUUID(), {}) },
        async (queued) => void refs.push(...queued),
      ),
    );
    expect(await itemOf(companyId, refs[0]!.deliveryId)).toHaveProperty('gsi2pk');

    carriedBy('sqs');
    const { claimed } = await attemptSeen(refs[0]!, 500);
    expect(claimed).toMatchObject({ claim: expect.any(String) });
    expect(claimed).not.toHaveProperty('gsi2pk');
    expect(await itemOf(companyId, refs[0]!.deliveryId)).not.toHaveProperty('gsi2sk');
  });

  it("is the local pipeline's queue: the pipeline refuses to start where deliveries do not enter it", async () => {
    carriedBy('sqs');
    await expect(new LocalPipeline({ endpoint: 'http://127.0.0.1:1', tableName: tableName() }).start()).rejects.toThrow(
      'the local webhook pipeline polls the due index, but WEBHOOK_DELIVERY_QUEUE=sqs keeps deliveries out of it',
    );
  });
});
