/**
 * Webhook delivery (docs/webhooks.md), end to end on a local stage of this file's own (its pipeline's timing is
 * ours: WEBHOOK_BACKOFF_SCALE runs the 28-hour retry schedule in seconds, WEBHOOK_TIMEOUT_MS makes
 * a slow receiver quick to find). Receivers listen on loopback and check every request with their
 * own Standard Webhooks verification, written here from the specification, not imported.
 * Nothing here waits on the clock: a test awaits what its receivers take (`arrivals`) or the
 * pipeline having nothing left to do (`stage.pipeline.drained()`), then looks at the end state.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStage } from '../../bin/local/stage';
import { alerts } from '../../shared/data/alerts';
import { deliveries } from '../../shared/data/webhookDeliveries';
import { assertAnswer } from '../support/answers';
import { Changes } from '../support/changes';
import type { UntypedJson } from '../support/http';

const SCALE = '0.00002'; // 5 s → 0.1 ms … 10 h → 0.72 s: all 8 attempts within about 2 s
const TIMEOUT_MS = '1000';
const saved = { scale: process.env.WEBHOOK_BACKOFF_SCALE, timeout: process.env.WEBHOOK_TIMEOUT_MS };

let stage: LocalStage;
let localDir: string;

// ---- An independent Standard Webhooks verifier (https://www.standardwebhooks.com) ----

const TOLERANCE_SECONDS = 5 * 60;

/** The receiver's check: id, timestamp within tolerance, and some v1 signature = HMAC-SHA256(secret, "id.timestamp.body"). */
function verifies(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// ---- Receivers: one server, a behaviour per path ----

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; eventId: string; event: string; [k: string]: unknown };
  /** Set when the answer was written (an aborted request never gets one). */
  answered?: number;
  /** Resolves when the receiver is done with the request: answered, or found aborted when its answer was due. */
  settled: Promise<void>;
}

let receiver: Server;
let receiverBase: string;
const received: Received[] = [];
/** Reported whenever a request arrives or is settled. */
const arrivals = new Changes();
const countOf = (path: string, id: string) => received.filter((r) => r.path === path && r.json.id === id).length;

/** How each path answers: a status, after a delay. */
const behaviours: Record<string, (r: Received) => { status: number; delayMs?: number }> = {
  '/ok': () => ({ status: 200 }),
  // Fails the first three attempts of each delivery.
  '/flaky': (r) => ({ status: countOf('/flaky', r.json.id) <= 3 ? 503 : 200 }),
  '/down': () => ({ status: 500 }),
  // Slower than the timeout the first time, quick after.
  '/slow': (r) => (countOf('/slow', r.json.id) === 1 ? { status: 200, delayMs: 1_500 } : { status: 200 }),
  '/sluggish': () => ({ status: 200, delayMs: 400 }),
};

beforeAll(async () => {
  Object.assign(process.env, { WEBHOOK_BACKOFF_SCALE: SCALE, WEBHOOK_TIMEOUT_MS: TIMEOUT_MS });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      let settle!: () => void;
      const r: Received = {
        path: req.url!,
        headers: req.headers,
        body,
        json: JSON.parse(body),
        settled: new Promise<void>((ok) => (settle = ok)),
      };
      received.push(r);
      arrivals.changed();
      const answer: { status: number; delayMs?: number } = behaviours[r.path]?.(r) ?? { status: 404 };
      const { status, delayMs = 0 } = answer;
      // A slow receiver is a behaviour of the fixture, not a wait of the test.
      setTimeout(() => {
        if (!res.destroyed) {
          res.writeHead(status).end();
          r.answered = status;
        }
        settle();
        arrivals.changed();
      }, delayMs);
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  receiverBase = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

  localDir = mkdtempSync(join(tmpdir(), 'brigade-webhooks-'));
  const { startLocalStage } = await import('../../bin/local/stage');
  stage = await startLocalStage({ port: 0, localDir });
}, 300_000); // a stage of its own (a JVM and the seed): a net for two shared cores, not a budget

afterAll(async () => {
  await stage?.stop();
  await new Promise<void>((ok) => receiver.close(() => ok()));
  rmSync(localDir, { recursive: true, force: true });
  for (const [name, value] of [
    ['WEBHOOK_BACKOFF_SCALE', saved.scale],
    ['WEBHOOK_TIMEOUT_MS', saved.timeout],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

// ---- This stage's API ----

const companyOf = (n: 1 | 2) => stage.devKeys.companies[n - 1]!;
const adminOf = (n: 1 | 2) => companyOf(n).keys.admin;

/** A call with an API key, or with a bearer token (`Bearer …`). */
async function api(
  method: string,
  path: string,
  body?: unknown,
  key = adminOf(1),
): Promise<{ status: number; body: UntypedJson }> {
  const credential: Record<string, string> = key.startsWith('Bearer ') ? { Authorization: key } : { 'X-API-Key': key };
  const res = await fetch(`${stage.baseUrl}${path}`, {
    method,
    headers: { ...credential, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await res.json()) as UntypedJson;
  // Checked against the route's response schema, as `call()` checks the shared stage's answers.
  assertAnswer(method, res.url, res.status, res.headers, answer);
  return { status: res.status, body: answer };
}

async function ok(method: string, path: string, body?: unknown, key = adminOf(1)): Promise<UntypedJson> {
  const out = await api(method, path, body, key);
  expect(out.status, `${method} ${path}: ${JSON.stringify(out.body)}`).toBe(200);
  return out.body.data;
}

const subscribe = (path: string, events: string[], n: 1 | 2 = 1): Promise<{ id: string; secret: string }> =>
  ok('POST', '/api/v1/webhooks/subscriptions', { url: `${receiverBase}${path}`, events }, adminOf(n));

const attemptsOf = async (subscriptionId: string, n: 1 | 2 = 1) =>
  (await ok('GET', `/api/v1/webhooks/subscriptions/${subscriptionId}/deliveries?limit=100`, undefined, adminOf(n))) as {
    deliveryId: string;
    attempt: number;
    status: string;
    httpStatus: number | null;
    error: string | null;
  }[];

/** Every event of company 1 since `since`, from the event log (all pages). */
async function eventLogSince(since: string): Promise<{ id: string; event: string }[]> {
  const all: { id: string; event: string }[] = [];
  let cursor: string | null = null;
  do {
    const res = await api('GET', `/api/v1/events?since=${since}&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...res.body.data);
    cursor = res.body.meta.pagination.nextCursor;
  } while (cursor);
  return all;
}

describe('every event the API emits reaches a subscriber, signed', () => {
  // Some 45 calls and their deliveries: on two shared cores this can outlast the suite's 60 s net.
  it("delivers each event type that occurred, each verified by the receiver's own check", {
    timeout: 180_000,
  }, async () => {
    const since = new Date().toISOString();
    const all = await subscribe('/ok', ['*']);
    const location = companyOf(1).locations[0]!.locationId;

    // A tour of the API's changes. Areas add their operations here; the checks below iterate over
    // whatever event types the log then holds, so new events are covered without further changes.
    const coursing = await ok('POST', '/api/v1/coursings', { locationId: location, title: 'Starters', order: 1 });
    await ok('PUT', `/api/v1/coursings/${coursing.id}`, { title: 'Small plates' });
    const other = await subscribe('/ok', ['menu-layouts.updated']);
    await ok('PATCH', `/api/v1/webhooks/subscriptions/${other.id}`, { description: 'renamed' });
    await ok('POST', `/api/v1/webhooks/subscriptions/${other.id}/rotate-secret`);
    await ok('DELETE', `/api/v1/webhooks/subscriptions/${other.id}`);
    const key = await ok('POST', '/api/v1/api-keys', {
      name: 'Till 1',
      tier: 'standard',
      permissions: ['coursings.read'],
    });
    await ok('PATCH', `/api/v1/api-keys/${key.id}`, { name: 'Till one' });
    await ok('POST', `/api/v1/api-keys/${key.id}/revoke`);
    const place = await ok('POST', '/api/v1/locations', {
      name: 'Pop-up',
      timezone: 'Europe/Stockholm',
      operatingHours: { friday: [{ open: '17:00', close: '23:00' }] },
    });
    await ok('PATCH', `/api/v1/locations/${place.id}`, {
      operatingHours: { saturday: [{ open: '12:00', close: '22:00' }] },
    });
    const table = await ok('POST', `/api/v1/locations/${place.id}/tables`, {
      name: 'P1',
      minCapacity: 2,
      maxCapacity: 4,
    });
    await ok('PATCH', `/api/v1/locations/${place.id}/tables/${table.id}`, { maxCapacity: 6 });
    const group = await ok('POST', `/api/v1/locations/${place.id}/booking-groups`, {
      name: 'Terrace',
      tableIds: [table.id],
    });
    await ok('PATCH', `/api/v1/locations/${place.id}/booking-groups/${group.id}`, { name: 'Terrace (covered)' });
    await ok('DELETE', `/api/v1/locations/${place.id}/booking-groups/${group.id}`);
    await ok('DELETE', `/api/v1/locations/${place.id}/tables/${table.id}`);
    await ok('DELETE', `/api/v1/locations/${place.id}`);
    await ok('POST', '/api/v1/users/guests', { name: 'Ada Guest', email: `ada+${Date.now()}@example.com` });
    const role = await ok('POST', '/api/v1/roles', { name: 'Host', permissionIds: [] });
    await ok('PUT', `/api/v1/roles/${role.id}`, { name: 'Head host' });
    const operator = `Bearer ${stage.devKeys.operatorToken}`;
    const permission = await ok(
      'POST',
      '/api/v1/permissions',
      { key: 'floor_plans.read', name: 'Read floor plans' },
      operator,
    );
    await ok('PUT', `/api/v1/permissions/${permission.id}`, { name: 'See floor plans' }, operator);
    await ok('DELETE', `/api/v1/permissions/${permission.id}`, undefined, operator);
    // Bookings: the whole lifecycle on a location of its own that asks for confirmation.
    const bistro = await ok('POST', '/api/v1/locations', {
      name: 'Tour bistro',
      timezone: 'Europe/Stockholm',
      operatingHours: { monday: [{ open: '11:00', close: '23:00' }] },
    });
    const [t1, t2] = [
      await ok('POST', `/api/v1/locations/${bistro.id}/tables`, { name: 'B1', minCapacity: 1, maxCapacity: 6 }),
      await ok('POST', `/api/v1/locations/${bistro.id}/tables`, { name: 'B2', minCapacity: 1, maxCapacity: 6 }),
    ];
    await ok('PUT', `/api/v1/locations/${bistro.id}/booking-settings`, { confirmationMode: 'request_based' });
    const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const booking = (tableId: string, startTime: string) =>
      ok('POST', '/api/v1/bookings', {
        locationId: bistro.id,
        bookingDate: day,
        startTime,
        endTime: `${Number(startTime.slice(0, 2)) + 1}:00`,
        timezone: 'Europe/Stockholm',
        guestCount: 2,
        tableIds: [tableId],
        guestName: 'Tour Guest',
      });
    const b1 = await booking(t1.id, '12:00');
    await ok('PATCH', `/api/v1/bookings/${b1.id}`, { specialRequests: 'Window seat' });
    await ok('POST', `/api/v1/bookings/${b1.id}/confirm`);
    await ok('POST', `/api/v1/bookings/${b1.id}/check-in`);
    const member = await ok('POST', `/api/v1/bookings/${b1.id}/members`, {
      guestName: 'Second Guest',
      rsvpStatus: 'invited',
    });
    await ok('PATCH', `/api/v1/bookings/${b1.id}/members/${member.id}`, { rsvpStatus: 'accepted' });
    await ok('POST', `/api/v1/bookings/${b1.id}/pre-order`, { items: [{ name: 'Oysters', price: 4500, quantity: 2 }] });
    await ok('POST', `/api/v1/bookings/${b1.id}/seat`, {});
    await ok('POST', `/api/v1/bookings/${b1.id}/unseat`, { reason: 'Seated the wrong party' });
    const seated = await ok('POST', `/api/v1/bookings/${b1.id}/seat`, {});
    const placed = await ok('POST', `/api/v1/tabs/${seated.tabId ?? b1.tab.id}/orders`, {
      items: [{ name: 'Bread', price: 500, quantity: 1 }],
    });
    await ok('PATCH', `/api/v1/orders/${placed.id}/dispatches/${placed.dispatches[0].id}`, { status: 'accepted' });
    await ok('POST', `/api/v1/bookings/${b1.id}/complete`);
    const b2 = await booking(t2.id, '13:00');
    await ok('POST', `/api/v1/bookings/${b2.id}/confirm`);
    await ok('POST', `/api/v1/bookings/${b2.id}/no-show`);
    const b3 = await booking(t2.id, '18:00');
    await ok('POST', `/api/v1/bookings/${b3.id}/cancel`, { reason: 'Plans changed' });

    const test = await ok('POST', `/api/v1/webhooks/subscriptions/${all.id}/test`);

    const logged = await eventLogSince(since);
    const types = [...new Set([...logged.map((e) => e.event), 'webhook.test'])].sort();
    expect(types).toEqual(
      expect.arrayContaining([
        'coursing.created',
        'coursing.updated',
        'webhook-subscription.created',
        'webhook-subscription.updated',
        'webhook-subscription.deleted',
        'api-key.created',
        'api-key.updated',
        'api-key.revoked',
        'location.created',
        'location.updated',
        'location.hours.updated',
        'location.deleted',
        'table.created',
        'table.updated',
        'table.deleted',
        'booking-group.created',
        'booking-group.updated',
        'booking-group.deleted',
        'guest.created',
        'role.created',
        'role.updated',
        'permission.created',
        'permission.updated',
        'permission.deleted',
        'webhook.test',
        'booking-settings.updated',
        'booking.created',
        'booking.updated',
        'booking.confirmed',
        'booking.seated',
        'booking.unseated',
        'order.reversed',
        'booking.completed',
        'booking.no-show',
        'booking.cancelled',
        'booking-member.added',
        'booking-member.updated',
        'order.created',
        'order.updated',
      ]),
    );

    const expected = [...logged.map((e) => e.id), test.eventId];
    await stage.pipeline.drained();
    const got = received.filter((r) => r.path === '/ok' && expected.includes(r.json.eventId) && r.answered === 200);
    expect(new Set(got.map((r) => r.json.eventId))).toEqual(new Set(expected));
    for (const type of types) {
      const requests = got.filter((r) => r.json.event === type);
      expect(requests.length, type).toBeGreaterThan(0);
      for (const r of requests) {
        expect(verifies(all.secret, r.headers, r.body), `${type} signature`).toBe(true);
        expect(r.headers['webhook-id'], type).toBe(r.json.id);
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.json).toMatchObject({
          event: type,
          resource: expect.any(String),
          resourceId: expect.any(String),
          timestamp: expect.any(String),
          apiVersion: expect.any(String),
        });
      }
    }
    // A tampered body, or another secret, does not verify.
    const sample = got[0]!;
    expect(verifies(all.secret, sample.headers, `${sample.body} `)).toBe(false);
    expect(verifies(other.secret, sample.headers, sample.body)).toBe(false);
    // The log's event id is the payload's eventId; the payload's id is the delivery's.
    const coursingEvent = logged.find((e) => e.event === 'coursing.created')!;
    expect(got.find((r) => r.json.eventId === coursingEvent.id)!.json.id).not.toBe(coursingEvent.id);
  });
});

describe('retries', () => {
  it('delivers on the 4th attempt to a receiver that failed the first 3, with the same webhook-id each time', async () => {
    const sub = await subscribe('/flaky', ['coursing.created']);
    const coursing = await ok('POST', '/api/v1/coursings', {
      locationId: companyOf(1).locations[1]!.locationId,
      title: 'Mains',
      order: 2,
    });
    await stage.pipeline.drained();
    const requests = received.filter((r) => r.path === '/flaky' && r.json.resourceId === coursing.id);
    expect(requests.map((r) => r.answered)).toEqual([503, 503, 503, 200]);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of requests) expect(verifies(sub.secret, r.headers, r.body)).toBe(true);
    const stamps = requests.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));

    const attempts = await attemptsOf(sub.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.httpStatus, a.error])).toEqual([
      [4, 'delivered', 200, null],
      [3, 'failed', 503, 'status 503'],
      [2, 'failed', 503, 'status 503'],
      [1, 'failed', 503, 'status 503'],
    ]);
    expect(new Set(attempts.map((a) => a.deliveryId))).toEqual(new Set([requests[0]!.json.id]));
  });

  it('dead-letters a delivery to a receiver that always fails after exactly 8 attempts, with an alert', async () => {
    const sub = await subscribe('/down', ['menu-layouts.updated']);
    const delivery = await ok('POST', `/api/v1/webhooks/subscriptions/${sub.id}/test`);
    // Drained: no delivery is open and no attempt runs, so nothing more can come; then count.
    await stage.pipeline.drained();
    const attempts = await attemptsOf(sub.id);
    expect(attempts.map((a) => a.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(attempts.map((a) => a.status)).toEqual(['dead', ...Array(7).fill('failed')]);
    expect(countOf('/down', delivery.id)).toBe(8);

    const stored = await deliveries.get(1, delivery.id);
    expect(stored).toMatchObject({
      status: 'dead',
      attempts: 8,
      nextAttemptAt: null,
      lastHttpStatus: 500,
      lastError: 'status 500',
    });
    const alert = await alerts.get(1, stored!.alertId!);
    expect(alert).toMatchObject({
      alertType: 'webhook.delivery.dead',
      severity: 'error',
      latestStatus: 'active',
      title: expect.any(String),
      details: {
        subscriptionId: sub.id,
        deliveryId: delivery.id,
        event: 'webhook.test',
        attempts: 8,
        lastHttpStatus: 500,
        lastError: 'status 500',
      },
    });

    // A retry gives it a new round: attempted again at once.
    const retried = await ok('POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`);
    expect(retried).toMatchObject({ status: 'pending', round: 2, attempts: 0 });
    await arrivals.until(() => countOf('/down', delivery.id) >= 9);
  });

  it('counts a receiver slower than the timeout as a failed attempt', async () => {
    const sub = await subscribe('/slow', ['menu-layouts.updated']);
    const delivery = await ok('POST', `/api/v1/webhooks/subscriptions/${sub.id}/test`);
    await stage.pipeline.drained();
    const attempts = await attemptsOf(sub.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.httpStatus, a.error])).toEqual([
      [2, 'delivered', 200, null],
      [1, 'failed', null, 'timeout'],
    ]);
    expect(countOf('/slow', delivery.id)).toBe(2);
  });
});

describe('durability', () => {
  it('loses nothing when the pipeline is killed with deliveries in flight', async () => {
    const sub = await subscribe('/sluggish', ['coursing.created'], 2);
    const location = companyOf(2).locations[0]!.locationId;
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        ok('POST', '/api/v1/coursings', { locationId: location, title: `Course ${i}`, order: i }, adminOf(2)),
      ),
    );
    const ids = new Set(made.map((c) => c.id as string));
    const mine = () => received.filter((r) => r.path === '/sluggish' && ids.has(r.json.resourceId as string));

    await arrivals.until(() => mine().length > 0);
    await stage.pipeline.stop(); // attempts in flight are abandoned, unrecorded
    const cutOff = mine().filter((r) => r.answered === undefined);
    expect(cutOff.length).toBeGreaterThan(0);
    await Promise.all(mine().map((r) => r.settled)); // every answer that was due has been written or found aborted
    expect(mine().filter((r) => r.answered !== undefined).length).toBeLessThan(ids.size);

    await stage.pipeline.start(); // reads the stream from its start again; the worker resumes
    await stage.pipeline.drained();
    const delivered = new Set(
      mine()
        .filter((r) => r.answered === 200)
        .map((r) => r.json.resourceId),
    );
    expect(delivered).toEqual(ids);
    for (const r of mine()) expect(verifies(sub.secret, r.headers, r.body)).toBe(true);
    // What was cut off came again with the same webhook-id.
    for (const r of cutOff)
      expect(mine().filter((again) => again.json.id === r.json.id && again.answered === 200)).not.toHaveLength(0);
    const attempts = await attemptsOf(sub.id, 2);
    expect(new Set(attempts.filter((a) => a.status === 'delivered').map((a) => a.deliveryId)).size).toBe(ids.size);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets during the overlap: each verifies on its own', async () => {
    const sub = await subscribe('/ok', ['menu-layouts.updated']);
    const rotated = await ok('POST', `/api/v1/webhooks/subscriptions/${sub.id}/rotate-secret`);
    expect(rotated.secret).not.toBe(sub.secret);
    const delivery = await ok('POST', `/api/v1/webhooks/subscriptions/${sub.id}/test`);
    const request = await arrivals.until(() => received.find((r) => r.json.id === delivery.id && r.answered === 200));
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(sub.secret, request.headers, request.body)).toBe(true);
    expect(verifies(rotated.secret, request.headers, request.body)).toBe(true);
    const [first, second] = String(request.headers['webhook-signature']).split(' ');
    expect(verifies(rotated.secret, { ...request.headers, 'webhook-signature': first }, request.body)).toBe(true);
    expect(verifies(sub.secret, { ...request.headers, 'webhook-signature': second }, request.body)).toBe(true);
  });
});
