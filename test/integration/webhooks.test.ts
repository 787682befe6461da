/** Webhook subscriptions, deliveries, the attempts log and the event log against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { alerts } from '../../shared/data/alerts';
import { db, tableName } from '../../shared/data/client';
import { eventLogPartitions, eventLog, eventPosition } from '../../shared/data/events';
import { attempts } from '../../shared/data/webhookAttempts';
import { deliveries, type AttemptRecord, type StoredDelivery } from '../../shared/data/webhookDeliveries';
import { MAX_SUBSCRIPTIONS, subscriptions, type StoredSubscription } from '../../shared/data/webhookSubscriptions';
import { AppError } from '../../shared/errors';
import { newEvent, type EventName } from '../../shared/events/catalog';
import { transact } from '../../shared/data/transact';
import { outboxStep } from '../../shared/data/outbox';
import { newDelivery } from '../../shared/webhooks/payload';
import { newSecret } from '../../shared/webhooks/signing';
import { idBlock } from '../support/id-blocks';
import { aSubscription } from '../support/subscriptions';
import { companyEvents } from '../support/events';

/** Each file works in its own companies, so files can run in parallel on one table. */
const ids = idBlock(import.meta.url);
const freshCompany = () => ids.next();

const iso = (ms: number) => new Date(ms).toISOString();

async function addSubscription(
  companyId: number,
  overrides: Partial<StoredSubscription> = {},
): Promise<StoredSubscription> {
  const s = aSubscription(overrides);
  const { secret: _secret, previousSecret: _previous, ...shown } = s;
  await subscriptions.create(companyId, s, newEvent(companyId, 'webhook-subscription.created', s.id, shown));
  return s;
}

const raw = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk } }))).Item;
const outbox = async (companyId: number) => (await companyEvents(companyId)).Items ?? [];
const requests = async (companyId: number) =>
  (
    await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `C#${companyId}#WHREQUESTS` },
      }),
    )
  ).Items ?? [];

function failedRecord(
  d: StoredDelivery,
  at: number,
  status: AttemptRecord['delivery']['status'],
  next: number | null,
): AttemptRecord {
  const attempt = d.attempts + 1;
  return {
    delivery: {
      status,
      attempts: attempt,
      nextAttemptAt: next === null ? null : iso(next),
      lastAttemptAt: iso(at),
      lastHttpStatus: 500,
      lastError: 'status 500',
      deliveredAt: null,
      alertId: null,
      updatedAt: iso(at),
    },
    attempt: {
      id: randomUUID(),
      deliveryId: d.id,
      eventId: d.eventId,
      event: d.event,
      round: d.round,
      attempt,
      status: status as 'failed',
      httpStatus: 500,
      error: 'status 500',
      durationMs: 3,
      startedAt: iso(at),
      finishedAt: iso(at),
      nextAttemptAt: next === null ? null : iso(next),
    },
  };
}

describe('subscriptions', () => {
  it('stores a subscription with its secret, counts it and records its event in one transaction', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId, { events: ['coursing.created'] });
    const { secret: _s, previousSecret: _p, ...shown } = s;
    expect(await subscriptions.get(companyId, s.id)).toEqual(shown);
    expect(await raw(`C#${companyId}#WHSUB#${s.id}`, 'SUBSCRIPTION')).toMatchObject({
      secret: s.secret,
      entity: 'WEBHOOK_SUBSCRIPTION',
    });
    expect((await raw(`C#${companyId}`, 'COUNT#WHSUB'))?.n).toBe(1);
    const [event] = await outbox(companyId);
    expect(String(event!.pk)).toMatch(new RegExp(`^C#${companyId}#EVENTS#0[0-7]$`));
    expect(event).toMatchObject({
      entity: 'OUTBOX',
      // A subscription names no location: its event is in a shard of the company's log.
      gsi1pk: `${String(event!.pk)}#webhook-subscription.created`,
      gsi1sk: event!.sk,
      payload: { resourceId: s.id },
    });
    expect(JSON.stringify(event)).not.toContain(s.secret);
    expect(await subscriptions.get(freshCompany(), s.id)).toBeUndefined();
  });

  it("lists the company's subscriptions with their total, and its active ones with secrets for the dispatcher", async () => {
    const companyId = freshCompany();
    const on = await addSubscription(companyId);
    const off = await addSubscription(companyId, { active: false });
    const page = await subscriptions.list(companyId, { page: 1, limit: 10 });
    expect(page.items.map((s) => s.id).sort()).toEqual([on.id, off.id].sort());
    expect(page.pagination.total).toBe(2);
    expect(page.items.every((s) => !('secret' in s))).toBe(true);
    expect(await subscriptions.active(companyId)).toEqual([on]);
  });

  it('updates only from the version it read', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const next = { ...(await subscriptions.get(companyId, s.id))!, url: 'https://hooks.example.com/new', version: 2 };
    await subscriptions.update(
      companyId,
      next,
      1,
      newEvent(companyId, 'webhook-subscription.updated', s.id, next, { url: next.url }),
    );
    const stale = { ...next, description: 'stale', version: 2 };
    const err = await subscriptions
      .update(companyId, stale, 1, newEvent(companyId, 'webhook-subscription.updated', s.id, stale))
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 409 });
    expect(await subscriptions.get(companyId, s.id)).toMatchObject({
      url: 'https://hooks.example.com/new',
      description: null,
      version: 2,
    });
    expect(await raw(`C#${companyId}#WHSUB#${s.id}`, 'SUBSCRIPTION')).toMatchObject({ secret: s.secret });
  });

  it('rotates the secret inside DynamoDB: the old one becomes the previous one', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const fresh = newSecret();
    const until = iso(Date.now() + 86_400_000);
    const next = { ...(await subscriptions.get(companyId, s.id))!, previousSecretExpiresAt: until, version: 2 };
    await subscriptions.rotateSecret(
      companyId,
      next,
      1,
      fresh,
      newEvent(companyId, 'webhook-subscription.updated', s.id, next),
    );
    expect(await raw(`C#${companyId}#WHSUB#${s.id}`, 'SUBSCRIPTION')).toMatchObject({
      secret: fresh,
      previousSecret: s.secret,
      previousSecretExpiresAt: until,
      version: 2,
    });
    await expect(
      subscriptions.rotateSecret(
        companyId,
        next,
        1,
        newSecret(),
        newEvent(companyId, 'webhook-subscription.updated', s.id, next),
      ),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('removes a subscription and its count; an unknown one is 404 and changes nothing', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    await subscriptions.remove(
      companyId,
      s.id,
      newEvent(companyId, 'webhook-subscription.deleted', s.id, { id: s.id }),
    );
    expect(await subscriptions.get(companyId, s.id)).toBeUndefined();
    expect((await raw(`C#${companyId}`, 'COUNT#WHSUB'))?.n).toBe(0);
    const before = (await outbox(companyId)).length;
    await expect(
      subscriptions.remove(companyId, s.id, newEvent(companyId, 'webhook-subscription.deleted', s.id, { id: s.id })),
    ).rejects.toMatchObject({ status: 404 });
    expect(await outbox(companyId)).toHaveLength(before);
  });

  it(`allows at most ${MAX_SUBSCRIPTIONS} subscriptions per company (422, nothing written)`, async () => {
    const companyId = freshCompany();
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) await addSubscription(companyId);
    const err = await addSubscription(companyId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 422 });
    expect((await subscriptions.list(companyId, { page: 1, limit: 100 })).items).toHaveLength(MAX_SUBSCRIPTIONS);
  });
});

describe('deliveries', () => {
  const event = (companyId: number) => newEvent(companyId, 'coursing.created', randomUUID(), { title: 'Starters' });

  it('is created once per event and subscription: a second create returns the first', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const d = newDelivery(s.id, event(companyId).payload, iso(Date.now()));
    expect(await deliveries.create(companyId, d)).toEqual({ created: true });
    expect(await deliveries.create(companyId, { ...d, createdAt: iso(Date.now() + 1) })).toEqual({
      created: false,
      existing: d,
    });
  });

  it('is claimed by one worker at a time, only when due, and recorded only by the claim holder', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const now = Date.now();
    const d = newDelivery(s.id, event(companyId).payload, iso(now));
    await deliveries.create(companyId, d);

    const claims = await Promise.all(
      ['a', 'b', 'c'].map((c) => deliveries.claim(companyId, d, c, iso(now), iso(now + 60_000))),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const holder = ['a', 'b', 'c'][claims.indexOf(true)]!;
    expect((await deliveries.get(companyId, d.id))?.nextAttemptAt).toBe(iso(now + 60_000));

    const record = failedRecord(d, now, 'failed', now + 5_000);
    expect(await deliveries.record(companyId, d, 'someone-else', record)).toBe(false);
    expect(await deliveries.record(companyId, d, holder, record)).toBe(true);
    expect(await deliveries.get(companyId, d.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      nextAttemptAt: iso(now + 5_000),
      lastHttpStatus: 500,
    });
    // Not due again before its time; then claimable for attempt 2 only.
    expect(
      await deliveries.claim(
        companyId,
        { ...d, status: 'failed', attempts: 1 },
        'x',
        iso(now + 1_000),
        iso(now + 61_000),
      ),
    ).toBe(false);
    expect(await deliveries.claim(companyId, d, 'x', iso(now + 6_000), iso(now + 66_000))).toBe(false);
    expect(
      await deliveries.claim(
        companyId,
        { ...d, status: 'failed', attempts: 1 },
        'x',
        iso(now + 6_000),
        iso(now + 66_000),
      ),
    ).toBe(true);
  });

  it('leaves the due index when delivered or dead, and a dead one raises its alert in the same write', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const now = Date.now();
    const d = newDelivery(s.id, event(companyId).payload, iso(now));
    await deliveries.create(companyId, d);
    expect(await raw(`C#${companyId}`, `WHDELIVERY#${d.id}`)).toMatchObject({
      gsi2pk: expect.stringMatching(/^WHDUE#[0-7]$/),
      gsi2sk: `${d.nextAttemptAt}#${companyId}#${d.id}`,
    });
    expect((await deliveries.upcoming(100)).map((r) => r.deliveryId)).toContain(d.id);

    await deliveries.claim(companyId, d, 'c', iso(now), iso(now + 60_000));
    const alertId = randomUUID();
    const dead = failedRecord(d, now, 'dead', null);
    dead.delivery.alertId = alertId;
    dead.alert = {
      id: alertId,
      locationId: null,
      alertType: 'webhook.delivery.dead',
      severity: 'error',
      title: 't',
      message: 'm',
      details: { deliveryId: d.id },
      stackTrace: null,
      context: null,
      latestStatus: 'active',
      resolvedAt: null,
      resolvedBy: null,
      acknowledgedAt: null,
      acknowledgedBy: null,
      version: 1,
      createdAt: iso(now),
      updatedAt: iso(now),
    };
    expect(await deliveries.record(companyId, d, 'c', dead)).toBe(true);
    const item = await raw(`C#${companyId}`, `WHDELIVERY#${d.id}`);
    expect(item).toMatchObject({ status: 'dead', alertId });
    expect(item?.gsi2pk).toBeUndefined();
    expect(item?.claim).toBeUndefined();
    expect(await alerts.get(companyId, alertId)).toEqual(dead.alert);
    expect((await raw(`C#${companyId}`, 'COUNT#ALERT'))?.n).toBe(1);
    expect((await deliveries.upcoming(100)).map((r) => r.deliveryId)).not.toContain(d.id);
  });

  it('retries a dead delivery as a new round, queued by a request in the same transaction; a stale retry is 409', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const now = Date.now();
    const d = newDelivery(s.id, event(companyId).payload, iso(now));
    await deliveries.create(companyId, d);
    await deliveries.claim(companyId, d, 'c', iso(now), iso(now + 60_000));
    await deliveries.record(companyId, d, 'c', failedRecord(d, now, 'dead', null));
    const was = (await deliveries.get(companyId, d.id))!;
    const at = iso(now + 1_000);
    const next = { ...was, status: 'pending' as const, round: 2, attempts: 0, nextAttemptAt: at, updatedAt: at };
    await deliveries.retry(companyId, was, next);
    expect(await deliveries.get(companyId, d.id)).toEqual(next);
    expect(await requests(companyId)).toEqual([
      expect.objectContaining({
        entity: 'OUTBOX',
        companyId,
        deliveryRequest: { subscriptionId: s.id, deliveryId: d.id, round: 2 },
      }),
    ]);
    await expect(deliveries.retry(companyId, was, next)).rejects.toMatchObject({ status: 409 });
    expect(await requests(companyId)).toHaveLength(1);
  });

  it('makes a requested (test) delivery only for an existing subscription of the company', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const test = newEvent(companyId, 'webhook.test', s.id, {});
    const d = newDelivery(s.id, test.payload, iso(Date.now()));
    await deliveries.createRequested(companyId, d);
    expect(await deliveries.get(companyId, d.id)).toMatchObject({ status: 'pending', event: 'webhook.test' });
    expect(await requests(companyId)).toHaveLength(1);
    expect(await outbox(companyId)).toHaveLength(1); // only the subscription's created event: tests stay out of the log

    const other = freshCompany();
    const foreign = newDelivery(s.id, newEvent(other, 'webhook.test', s.id, {}).payload, iso(Date.now()));
    await expect(deliveries.createRequested(other, foreign)).rejects.toMatchObject({ status: 404 });
    expect(await deliveries.get(other, foreign.id)).toBeUndefined();
    expect(await requests(other)).toHaveLength(0);
  });

  it('cancels an open delivery (its subscription is gone) and takes it out of the due index', async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const d = newDelivery(s.id, event(companyId).payload, iso(Date.now()));
    await deliveries.create(companyId, d);
    await deliveries.cancel(companyId, d, 'the subscription was deleted', iso(Date.now()));
    expect(await deliveries.get(companyId, d.id)).toMatchObject({
      status: 'cancelled',
      nextAttemptAt: null,
      lastError: 'the subscription was deleted',
    });
    expect((await raw(`C#${companyId}`, `WHDELIVERY#${d.id}`))?.gsi2pk).toBeUndefined();
  });
});

describe('attempts log', () => {
  it("pages a subscription's attempts newest first; an unknown subscription is undefined; cursors stay in their subscription", async () => {
    const companyId = freshCompany();
    const s = await addSubscription(companyId);
    const start = Date.now() - 100_000;
    for (let i = 0; i < 5; i++) {
      const d = newDelivery(s.id, newEvent(companyId, 'coursing.created', randomUUID(), {}).payload, iso(start));
      await deliveries.create(companyId, d);
      await deliveries.claim(companyId, d, 'c', iso(start + i * 1000), iso(start + i * 1000 + 1));
      await deliveries.record(companyId, d, 'c', failedRecord(d, start + i * 1000, 'failed', start + 50_000));
    }
    const first = (await attempts.page(companyId, s.id, { page: 1, limit: 2 }))!;
    expect(first.items.map((a) => a.startedAt)).toEqual([iso(start + 4000), iso(start + 3000)]);
    expect(first.items[0]).toMatchObject({
      attempt: 1,
      status: 'failed',
      httpStatus: 500,
      error: 'status 500',
      durationMs: 3,
    });
    expect(first.pagination).toMatchObject({ page: 1, limit: 2, nextCursor: expect.any(String) });
    const second = (await attempts.page(companyId, s.id, { page: 1, limit: 2, cursor: first.pagination.nextCursor! }))!;
    expect(second.items.map((a) => a.startedAt)).toEqual([iso(start + 2000), iso(start + 1000)]);
    expect((await attempts.page(companyId, s.id, { page: 2, limit: 2 }))!.items).toEqual(second.items);
    const last = (await attempts.page(companyId, s.id, { page: 3, limit: 2 }))!;
    expect(last.items).toHaveLength(1);
    expect(last.pagination).toMatchObject({ total: 5, totalPages: 3, nextCursor: null });

    expect(await attempts.page(companyId, randomUUID(), { page: 1, limit: 2 })).toBeUndefined();
    expect(await attempts.page(freshCompany(), s.id, { page: 1, limit: 2 })).toBeUndefined();
    const other = await addSubscription(companyId);
    await expect(
      attempts.page(companyId, other.id, { page: 1, limit: 2, cursor: first.pagination.nextCursor! }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

describe('event log', () => {
  async function record(companyId: number, name: EventName, at: number) {
    const e = newEvent(companyId, name, randomUUID(), { n: at }, null, new Date(at));
    await transact([outboxStep(e)]);
    return e.payload;
  }

  it("pages the company's events oldest first, by type, since a time or after an event, one Query per log partition", async () => {
    const companyId = freshCompany();
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    const created = [];
    for (let i = 0; i < 6; i++)
      created.push(await record(companyId, i % 2 ? 'coursing.updated' : 'coursing.created', t0 + i * 1000));
    await record(freshCompany(), 'coursing.created', t0); // another company's

    const send = vi.spyOn(db(), 'send');
    const all = await eventLog.page(companyId, { page: 1, limit: 4 });
    // The company's locations (its record, its list), then each partition of its log at once.
    const commands = send.mock.calls.map(([c]) => c.constructor.name);
    send.mockRestore();
    expect(commands.filter((c) => c === 'QueryCommand')).toHaveLength((await eventLogPartitions(companyId)).length + 1);
    expect(commands.filter((c) => c !== 'QueryCommand').every((c) => c === 'GetCommand')).toBe(true);
    expect(all.items.map((e) => e.id)).toEqual(created.slice(0, 4).map((e) => e.id));
    expect(all.items[0]).toEqual({ ...created[0], cursor: expect.any(String) });
    expect(all.pagination).toMatchObject({
      page: 1,
      limit: 4,
      total: 5,
      totalPages: 2,
      nextCursor: expect.any(String),
    });
    const rest = await eventLog.page(companyId, { page: 1, limit: 4, cursor: all.pagination.nextCursor! });
    expect(rest.items.map((e) => e.id)).toEqual(created.slice(4).map((e) => e.id));
    expect(rest.pagination).toMatchObject({ page: 2, total: 6, totalPages: 2, nextCursor: null });

    const updated = await eventLog.page(companyId, { page: 1, limit: 10, type: 'coursing.updated' });
    expect(updated.items.map((e) => e.id)).toEqual([created[1], created[3], created[5]].map((e) => e!.id));

    const since = await eventLog.page(companyId, { page: 1, limit: 10, since: created[2]!.timestamp });
    expect(since.items.map((e) => e.id)).toEqual(created.slice(2).map((e) => e.id));
    const after = await eventLog.page(companyId, { page: 1, limit: 10, after: eventPosition(all.items[2]!.cursor) });
    expect(after.items.map((e) => e.id)).toEqual(created.slice(3).map((e) => e.id));
    const afterByType = await eventLog.page(companyId, {
      page: 1,
      limit: 10,
      type: 'coursing.updated',
      after: eventPosition(all.items[2]!.cursor),
    });
    expect(afterByType.items.map((e) => e.id)).toEqual([created[3], created[5]].map((e) => e!.id));
  });

  it('refuses a cursor of another list', async () => {
    const companyId = freshCompany();
    const t0 = Date.parse('2026-03-02T10:00:00.000Z');
    for (let i = 0; i < 3; i++) await record(companyId, 'coursing.created', t0 + i);
    const page = await eventLog.page(companyId, { page: 1, limit: 1, type: 'coursing.created' });
    await expect(
      eventLog.page(companyId, { page: 1, limit: 1, type: 'coursing.updated', cursor: page.pagination.nextCursor! }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      eventLog.page(freshCompany(), {
        page: 1,
        limit: 1,
        type: 'coursing.created',
        cursor: page.pagination.nextCursor!,
      }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(eventLog.page(companyId, { page: 1, limit: 1, cursor: 'bm9wZQ' })).rejects.toMatchObject({
      status: 400,
    });
  });
});
