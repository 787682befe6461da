/**
 * The pipeline's shared code against DynamoDB Local and a receiver on loopback: the dispatcher
 * (matching, idempotency) and the delivery attempt (signing, claims, the schedule to the dead end).
 * Time is injected, so the 28-hour schedule runs in a moment.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alerts } from '../../shared/data/alerts';
import type { DeliveryRef } from '../../shared/data/outbox';
import { attempts } from '../../shared/data/webhookAttempts';
import { deliveries } from '../../shared/data/webhookDeliveries';
import { subscriptions } from '../../shared/data/webhookSubscriptions';
import { newEvent, type EventName } from '../../shared/events/catalog';
import { DEAD_ALERT_TYPE, attemptDelivery } from '../../shared/webhooks/delivery';
import { dispatch } from '../../shared/webhooks/dispatch';
import { deliveryIdFor } from '../../shared/webhooks/payload';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, leaseMs } from '../../shared/webhooks/schedule';
import { newSecret, sign } from '../../shared/webhooks/signing';
import { Changes } from '../support/changes';
import { idBlock } from '../support/id-blocks';
import { addSubscription } from '../support/subscriptions';

const ids = idBlock(import.meta.url);
const freshCompany = () => ids.next();

/** A receiver whose answers the test scripts: a status per request, after a delay (a slow receiver). */
let server: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const arrivals = new Changes();
let answer: () => { status: number; delayMs?: number } = () => ({ status: 200 });

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      arrivals.changed();
      const { status, delayMs = 0 } = answer();
      setTimeout(() => res.writeHead(status).end(), delayMs);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  receiverUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

/** Dispatches an event and returns the references queued. */
async function dispatchEvent(
  companyId: number,
  name: EventName = 'coursing.created',
  data: Record<string, unknown> = { title: 'Starters' },
) {
  const event = newEvent(companyId, name, randomUUID(), data);
  const queued: DeliveryRef[] = [];
  await dispatch({ kind: 'event', event }, async (refs) => void queued.push(...refs));
  return { event, queued };
}

const settings = { timeoutMs: 300, backoffScale: 1 };
const middle = () => 0.5;

describe('dispatch', () => {
  it('makes one delivery per active subscription that selects the event and existed when it happened', async () => {
    const companyId = freshCompany();
    const all = await addSubscription(companyId, receiverUrl);
    const coursings = await addSubscription(companyId, receiverUrl, {
      events: ['coursing.created', 'coursing.updated'],
    });
    await addSubscription(companyId, receiverUrl, { events: ['api-key.created'] });
    await addSubscription(companyId, receiverUrl, { active: false });
    await addSubscription(companyId, receiverUrl, { createdAt: new Date(Date.now() + 60_000).toISOString() });
    await addSubscription(freshCompany(), receiverUrl);

    const { event, queued } = await dispatchEvent(companyId);
    expect(queued.map((r) => r.subscriptionId).sort()).toEqual([all.id, coursings.id].sort());
    for (const ref of queued) {
      expect(ref).toEqual({
        companyId,
        subscriptionId: ref.subscriptionId,
        deliveryId: deliveryIdFor(event.payload.id, ref.subscriptionId),
        round: 1,
      });
      expect(await deliveries.get(companyId, ref.deliveryId)).toMatchObject({
        status: 'pending',
        eventId: event.payload.id,
        event: 'coursing.created',
      });
    }
  });

  it('is idempotent: a repeat makes no new delivery and queues again only what was never attempted', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId, receiverUrl);
    const { event, queued } = await dispatchEvent(companyId);
    const again: DeliveryRef[] = [];
    await dispatch({ kind: 'event', event }, async (refs) => void again.push(...refs));
    expect(again).toEqual(queued);

    answer = () => ({ status: 200 });
    expect(await attemptDelivery(queued[0]!, { settings })).toEqual({ kind: 'delivered' });
    const third: DeliveryRef[] = [];
    await dispatch({ kind: 'event', event }, async (refs) => void third.push(...refs));
    expect(third).toEqual([]);
    expect((await attempts.page(companyId, s.id, { page: 1, limit: 10 }))!.items).toHaveLength(1);
  });

  it('queues a requested delivery as it is', async () => {
    const ref = { companyId: 1, subscriptionId: 's', deliveryId: 'd', round: 3 };
    const queued: DeliveryRef[] = [];
    await dispatch({ kind: 'delivery', ref }, async (refs) => void queued.push(...refs));
    expect(queued).toEqual([ref]);
  });
});

describe('a delivery attempt', () => {
  it('POSTs the body, signed, with the delivery id as webhook-id, and records the attempt', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId, receiverUrl);
    const { event, queued } = await dispatchEvent(companyId);
    answer = () => ({ status: 204 });
    const before = received.length;
    const at = Date.now();
    expect(await attemptDelivery(queued[0]!, { settings, now: () => at })).toEqual({ kind: 'delivered' });

    const [request] = received.slice(before);
    const id = queued[0]!.deliveryId;
    const timestamp = Number(request!.headers['webhook-timestamp']);
    expect(request!.headers['webhook-id']).toBe(id);
    expect(timestamp).toBe(Math.floor(at / 1000)); // the attempt's own time, in Unix seconds
    expect(request!.headers['webhook-signature']).toBe(sign(s.secret, id, timestamp, request!.body));
    expect(JSON.parse(request!.body)).toEqual({ ...event.payload, id, eventId: event.payload.id });
    expect(await deliveries.get(companyId, id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastHttpStatus: 204,
      lastError: null,
      deliveredAt: expect.any(String),
      nextAttemptAt: null,
    });
    expect((await attempts.page(companyId, s.id, { page: 1, limit: 10 }))!.items).toEqual([
      expect.objectContaining({
        deliveryId: id,
        eventId: event.payload.id,
        round: 1,
        attempt: 1,
        status: 'delivered',
        httpStatus: 204,
        error: null,
      }),
    ]);
  });

  it('signs with both secrets while a rotation overlaps, and with the new one alone after it', async () => {
    const companyId = freshCompany();
    const old = newSecret();
    const fresh = newSecret();
    await addSubscription(companyId, receiverUrl, {
      secret: fresh,
      previousSecret: old,
      previousSecretExpiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    answer = () => ({ status: 200 });
    let before = received.length;
    await attemptDelivery((await dispatchEvent(companyId)).queued[0]!, { settings });
    let [request] = received.slice(before);
    const signed = (secret: string) =>
      sign(
        secret,
        String(request!.headers['webhook-id']),
        Number(request!.headers['webhook-timestamp']),
        request!.body,
      );
    expect(String(request!.headers['webhook-signature']).split(' ')).toEqual([signed(fresh), signed(old)]);

    const later = Date.now() + 2 * 3600_000;
    before = received.length;
    await attemptDelivery((await dispatchEvent(companyId)).queued[0]!, { settings, now: () => later });
    [request] = received.slice(before);
    expect(request!.headers['webhook-signature']).toBe(signed(fresh));
  });

  it("follows the schedule on failures, and after the 8th marks the delivery dead with an alert at the event's location", async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId, receiverUrl);
    const { queued } = await dispatchEvent(companyId, 'coursing.created', { title: 'Starters', locationId: 42 });
    const ref = queued[0]!;
    answer = () => ({ status: 500 });
    let clock = Date.now();
    const now = () => clock;

    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const outcome = await attemptDelivery(ref, { settings, now, random: middle });
      expect(outcome).toEqual({ kind: 'retry', at: clock + RETRY_DELAYS_MS[attempt - 1]! });
      // Not before it is due…
      expect(await attemptDelivery(ref, { settings, now: () => clock + 1, random: middle })).toEqual({
        kind: 'wait',
        at: clock + RETRY_DELAYS_MS[attempt - 1]!,
      });
      clock += RETRY_DELAYS_MS[attempt - 1]!;
    }
    const dead = await attemptDelivery(ref, { settings, now, random: middle });
    expect(dead).toEqual({ kind: 'dead', alertId: expect.any(String) });
    expect(await attemptDelivery(ref, { settings, now })).toEqual({ kind: 'stale' });

    const delivery = await deliveries.get(companyId, ref.deliveryId);
    expect(delivery).toMatchObject({
      status: 'dead',
      attempts: MAX_ATTEMPTS,
      nextAttemptAt: null,
      lastHttpStatus: 500,
      lastError: 'status 500',
      alertId: (dead as { alertId: string }).alertId,
    });
    const alert = await alerts.get(companyId, delivery!.alertId!);
    expect(alert).toMatchObject({
      alertType: DEAD_ALERT_TYPE,
      severity: 'error',
      latestStatus: 'active',
      locationId: 42,
      details: {
        subscriptionId: s.id,
        deliveryId: ref.deliveryId,
        attempts: MAX_ATTEMPTS,
        lastHttpStatus: 500,
        url: receiverUrl,
      },
    });
    const log = (await attempts.page(companyId, s.id, { page: 1, limit: 20 }))!.items;
    expect(log.map((a) => [a.attempt, a.status])).toEqual(
      Array.from({ length: MAX_ATTEMPTS }, (_, i) => [MAX_ATTEMPTS - i, i === 0 ? 'dead' : 'failed']),
    );
  });

  it('lets one of two concurrent workers attempt; the other waits for the claim to run out', async () => {
    const companyId = freshCompany();
    await addSubscription(companyId, receiverUrl);
    const { queued } = await dispatchEvent(companyId);
    answer = () => ({ status: 200, delayMs: 100 });
    const before = received.length;
    const outcomes = await Promise.all([
      attemptDelivery(queued[0]!, { settings }),
      attemptDelivery(queued[0]!, { settings }),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['delivered', expect.stringMatching(/^(wait|stale)$/)]);
    expect(received.length - before).toBe(1);
  });

  it('counts a receiver slower than the timeout as a failure', async () => {
    const companyId = freshCompany();
    await addSubscription(companyId, receiverUrl);
    const { queued } = await dispatchEvent(companyId);
    answer = () => ({ status: 200, delayMs: 600 });
    expect(await attemptDelivery(queued[0]!, { settings, random: middle })).toMatchObject({ kind: 'retry' });
    expect(await deliveries.get(companyId, queued[0]!.deliveryId)).toMatchObject({
      status: 'failed',
      lastHttpStatus: null,
      lastError: 'timeout',
    });
  });

  it('leaves an aborted attempt unrecorded and claimed until its lease ends', async () => {
    const companyId = freshCompany();
    await addSubscription(companyId, receiverUrl);
    const { queued } = await dispatchEvent(companyId);
    answer = () => ({ status: 200, delayMs: 200 });
    const stop = new AbortController();
    const before = received.length;
    const at = Date.now();
    const attempt = attemptDelivery(queued[0]!, { settings, signal: stop.signal, now: () => at });
    // Aborted while the receiver holds the request: claimed and sent, not answered.
    await arrivals.until(() => received.length > before);
    stop.abort();
    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
    const held = await deliveries.get(companyId, queued[0]!.deliveryId);
    expect(held).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(at + leaseMs(settings.timeoutMs)).toISOString(),
    });
    expect(
      await attemptDelivery(queued[0]!, { settings, now: () => at + leaseMs(settings.timeoutMs) - 1 }),
    ).toMatchObject({ kind: 'wait' });
    // Once the lease ends it is sent again; the receiver answers at once now (a slow answer on a
    // loaded machine could pass the timeout, which is another test's case).
    answer = () => ({ status: 200 });
    expect(await attemptDelivery(queued[0]!, { settings, now: () => Date.parse(held!.nextAttemptAt!) })).toEqual({
      kind: 'delivered',
    });
  });

  it('does nothing for another round, and cancels the delivery when its subscription is gone', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId, receiverUrl);
    const { queued } = await dispatchEvent(companyId);
    expect(await attemptDelivery({ ...queued[0]!, round: 2 }, { settings })).toEqual({ kind: 'stale' });
    await subscriptions.remove(
      companyId,
      s.id,
      newEvent(companyId, 'webhook-subscription.deleted', s.id, { id: s.id }),
    );
    const before = received.length;
    expect(await attemptDelivery(queued[0]!, { settings })).toEqual({ kind: 'stale' });
    expect(received.length).toBe(before);
    expect(await deliveries.get(companyId, queued[0]!.deliveryId)).toMatchObject({
      status: 'cancelled',
      lastError: 'the subscription was deleted',
    });
  });
});
