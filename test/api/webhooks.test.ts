/**
 * Webhook subscriptions, deliveries and the event log over HTTP against the shared local stage:
 * every operation's happy path, bounds, permission, tenant wall, location-limited keys and refusals.
 * (The delivery pipeline itself — signatures, retries, dead letters — is in webhooks-delivery.test.ts.)
 * The file acts as a company of its own, so the subscription counts below see only what it made.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedEventNames } from '../../shared/domain/events';
import { Changes } from '../support/changes';
import { call, company, settledDelivery } from '../support/http';
import { freshCompany, testKey, type OwnCompany } from '../support/stage-data';

const SUBS = '/api/v1/webhooks/subscriptions';
let own: OwnCompany;
beforeAll(async () => {
  own = await freshCompany('Webhooks test company');
});
const admin = () => own.keys.admin;
const readonly = () => own.keys.readonly;
let location: Promise<number> | undefined;
/** A location of the file's company, made on first use. */
const ownLocation = () =>
  (location ??= call('POST', '/api/v1/locations', {
    key: admin(),
    body: { name: 'Webhooks bistro', timezone: 'Europe/Stockholm', operatingHours: {} },
  }).then((out) => {
    expect(out.status).toBe(200);
    return out.body.data.id as number;
  }));
const theirs = () => company(2).keys.admin;
const unknownId = () => randomUUID();

/**
 * A receiver in this process; the stage's pipeline (another process) delivers to it over loopback.
 * Requests to /hold wait until the test releases them. Tests await arrivals (`arrivals.until`) and
 * the pipeline's record of an attempt (`settledDelivery`), never the clock.
 */
let receiver: Server;
let hookUrl: string;
const arrived: { id: string; event: string }[] = [];
const arrivals = new Changes();
let hold: Promise<void> = Promise.resolve();
/** Subscriptions this file made, removed at the end (a company may have at most 50). */
const made: { id: string; key: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    const answer = async () => {
      arrived.push({ id: String(req.headers['webhook-id']), event: JSON.parse(body).event });
      arrivals.changed();
      if (req.url === '/hold') await hold;
      res.writeHead(200).end();
    };
    // A body that is not JSON answers 500: the test sees the delivery fail, not a lost rejection.
    req.on('end', () => {
      answer().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
});
afterAll(async () => {
  await Promise.all(made.map(({ id, key }) => call('DELETE', `${SUBS}/${id}`, { key })));
  await new Promise<void>((ok) => receiver.close(() => ok()));
});

const create = async (body: unknown, key = admin()) => {
  const out = await call('POST', SUBS, { key, body });
  if (out.status === 200) made.push({ id: out.body.data.id, key });
  return out;
};
/**
 * A subscription to an event nothing in this file causes: the stage's other traffic stays away
 * from the receiver (test events reach a subscription whatever it selects).
 */
const createOk = async (body: Record<string, unknown> = {}, key = admin()) => {
  const out = await create({ url: hookUrl, events: ['menu-layouts.updated'], ...body }, key);
  expect(out.status).toBe(200);
  return out.body.data as { id: string; secret: string; version: number; events: string[] };
};
const total = async (key = admin()) =>
  (await call('GET', `${SUBS}?limit=1`, { key })).body.meta.pagination.total as number;

describe('create a subscription', () => {
  it('answers the subscription with its secret, once; events default to every event the credential can read, stored by name', async () => {
    const out = await create({ url: hookUrl, description: 'Kitchen display' });
    expect(out.status).toBe(200);
    const data = out.body.data;
    expect(data).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: hookUrl,
      events: [...loggedEventNames],
      description: 'Kitchen display',
      active: true,
      previousSecretExpiresAt: null,
      version: 1,
    });
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call('GET', `${SUBS}/${data.id}`, { key: admin() });
    const { secret: _secret, ...shown } = data;
    expect(read.body.data).toEqual(shown);
    expect(JSON.stringify((await call('GET', `${SUBS}?limit=100`, { key: admin() })).body)).not.toContain(data.secret);
    // It selects everything the stage does: take it away before it draws the stage's traffic here.
    expect((await call('DELETE', `${SUBS}/${data.id}`, { key: admin() })).status).toBe(200);
  });

  it.each([
    ['no url', { url: undefined }, '/url'],
    ['a url that is not a URL', { url: 'not a url' }, '/url'],
    ['a url over 2048 characters', { url: `http://127.0.0.1/${'a'.repeat(2048)}` }, '/url'],
    ['no events', { events: [] }, '/events'],
    [
      'over 100 events',
      { events: Array.from({ length: 101 }, (_, i) => `coursing.x${'a'.repeat(i % 20)}`) },
      '/events',
    ],
    ['an event twice', { events: ['coursing.created', 'coursing.created'] }, '/events'],
    ['a malformed event name', { events: ['Coursing Created'] }, '/events/0'],
    ['an unknown event name', { events: ['coursing.created', 'coursing.exploded'] }, '/events/1'],
    ['a description over 500 characters', { description: 'x'.repeat(501) }, '/description'],
    ['an unknown field', { secret: 'whsec_mine' }, '/secret'],
    ['http to a public address', { url: 'http://93.184.215.14/hook' }, '/url'],
    ['a private address', { url: 'https://10.0.0.1/hook' }, '/url'],
    ['the metadata address', { url: 'https://169.254.169.254/latest/meta-data' }, '/url'],
    ['credentials in the url', { url: 'https://user:pass@127.0.0.1/hook' }, '/url'],
    // IPv6 forms that carry a private IPv4 address (docs/access.md, threat model, item 14): judged by the address they carry.
    ['an IPv4-compatible IPv6 address of a private one (::/96)', { url: 'https://[::a00:1]/hook' }, '/url'],
    [
      'an IPv4-translated IPv6 address of a private one (::ffff:0:0:0/96)',
      { url: 'https://[::ffff:0:a00:1]/hook' },
      '/url',
    ],
    [
      'a NAT64 address of the metadata address (64:ff9b::/96)',
      { url: 'https://[64:ff9b::a9fe:a9fe]/latest/meta-data' },
      '/url',
    ],
    ['a local-use NAT64 address (64:ff9b:1::/48)', { url: 'https://[64:ff9b:1::808:808]/hook' }, '/url'],
    ['a 6to4 address of a private one (2002::/16)', { url: 'https://[2002:c0a8:101::1]/hook' }, '/url'],
    [
      'a Teredo address whose client is private (2001::/32)',
      { url: 'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook' },
      '/url',
    ],
    ['a Teredo address whose server is private', { url: 'https://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/hook' }, '/url'],
  ])('refuses %s (400, nothing written)', async (_, body, path) => {
    const before = await total();
    const out = await create({ url: hookUrl, ...body });
    expect(out.status).toBe(400);
    expect(out.body.error.code).toBe('VALIDATION_FAILED');
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await total()).toBe(before);
  });

  it('needs webhooks.manage (403), and a key for every location (403)', async () => {
    const before = await total();
    expect((await create({ url: hookUrl }, readonly())).status).toBe(403);
    const limited = await testKey(own.companyId, {
      permissions: ['webhooks.manage', 'webhooks.read'],
      locationIds: [await ownLocation()],
    });
    const out = await create({ url: hookUrl }, limited);
    expect(out.status).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
    expect(await total()).toBe(before);
  });
});

describe('list subscriptions', () => {
  it("pages the company's subscriptions only, with a cursor", async () => {
    const mine = [await createOk(), await createOk(), await createOk()];
    const other = await createOk({}, theirs());
    const first = await call('GET', `${SUBS}?limit=2`, { key: admin() });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta.pagination).toMatchObject({
      page: 1,
      limit: 2,
      total: expect.any(Number),
      nextCursor: expect.any(String),
    });
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; meta: { pagination: { nextCursor: string | null } } } } =
        await call('GET', `${SUBS}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: admin() });
      all.push(...page.body.data.map((s) => s.id));
      cursor = page.body.meta.pagination.nextCursor;
    } while (cursor);
    for (const s of mine) expect(all).toContain(s.id);
    expect(all).not.toContain(other.id);
    expect(all.length).toBe(await total());
  });

  it.each([['limit=0'], ['limit=101'], ['page=0'], ['cursor=']])('refuses %s (400)', async (query) => {
    expect((await call('GET', `${SUBS}?${query}`, { key: admin() })).status).toBe(400);
  });

  it('needs webhooks.read (403); readonly keys have it', async () => {
    const key = await testKey(own.companyId, { permissions: ['coursings.read'] });
    expect((await call('GET', SUBS, { key })).status).toBe(403);
    expect((await call('GET', SUBS, { key: readonly() })).status).toBe(200);
  });
});

describe('get, update and delete a subscription', () => {
  it("gets one by id; malformed ids 400, unknown and other companies' 404, without webhooks.read 403", async () => {
    const s = await createOk();
    expect((await call('GET', `${SUBS}/${s.id}`, { key: readonly() })).body.data).toMatchObject({
      id: s.id,
      url: hookUrl,
    });
    expect((await call('GET', `${SUBS}/not-a-uuid`, { key: admin() })).status).toBe(400);
    expect((await call('GET', `${SUBS}/${unknownId()}`, { key: admin() })).status).toBe(404);
    expect((await call('GET', `${SUBS}/${s.id}`, { key: theirs() })).status).toBe(404);
    expect(
      (await call('GET', `${SUBS}/${s.id}`, { key: await testKey(own.companyId, { permissions: ['coursings.read'] }) }))
        .status,
    ).toBe(403);
  });

  it('updates url, events, description and active; an update that changes nothing keeps the version', async () => {
    const s = await createOk();
    const out = await call('PATCH', `${SUBS}/${s.id}`, {
      key: admin(),
      body: { events: ['coursing.created'], description: 'Only new courses', active: false },
    });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      events: ['coursing.created'],
      description: 'Only new courses',
      active: false,
      version: 2,
    });
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).body.data).toEqual(out.body.data);
    const same = await call('PATCH', `${SUBS}/${s.id}`, { key: admin(), body: { active: false } });
    expect(same.body.data.version).toBe(2);
    const moved = await call('PATCH', `${SUBS}/${s.id}`, {
      key: admin(),
      body: { url: `${hookUrl}/v2`, description: null },
    });
    expect(moved.body.data).toMatchObject({ url: `${hookUrl}/v2`, description: null, version: 3 });
  });

  it.each([
    ['an empty body', {}, '/'],
    ['a refused url', { url: 'https://192.168.0.10/hook' }, '/url'],
    ['a 6to4 url carrying a private address', { url: 'https://[2002:a00:1::1]/hook' }, '/url'],
    ['an unknown event', { events: ['table.exploded'] }, '/events/0'],
    ['a non-boolean active', { active: 'yes' }, '/active'],
    ['an unknown field', { version: 9 }, '/version'],
  ])('refuses %s (400, nothing changed)', async (_, body, path) => {
    const s = await createOk();
    const out = await call('PATCH', `${SUBS}/${s.id}`, { key: admin(), body });
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).body.data.version).toBe(1);
  });

  it("refuses to update without webhooks.manage (403), another company's (404) or a malformed id (400)", async () => {
    const s = await createOk();
    expect((await call('PATCH', `${SUBS}/${s.id}`, { key: readonly(), body: { active: false } })).status).toBe(403);
    expect((await call('PATCH', `${SUBS}/${s.id}`, { key: theirs(), body: { active: false } })).status).toBe(404);
    expect((await call('PATCH', `${SUBS}/nope`, { key: admin(), body: { active: false } })).status).toBe(400);
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).body.data).toMatchObject({
      active: true,
      version: 1,
    });
  });

  it('deletes one; then it is gone (404); other companies and readonly keys cannot', async () => {
    const s = await createOk();
    const before = await total();
    expect((await call('DELETE', `${SUBS}/${s.id}`, { key: theirs() })).status).toBe(404);
    expect((await call('DELETE', `${SUBS}/${s.id}`, { key: readonly() })).status).toBe(403);
    expect((await call('DELETE', `${SUBS}/x`, { key: admin() })).status).toBe(400);
    const out = await call('DELETE', `${SUBS}/${s.id}`, { key: admin() });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ id: s.id, deleted: true });
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).status).toBe(404);
    expect((await call('DELETE', `${SUBS}/${s.id}`, { key: admin() })).status).toBe(404);
    expect(await total()).toBe(before - 1);
  });
});

describe('rotate a secret', () => {
  it('answers a new secret once; the old one keeps signing for 24 hours', async () => {
    const s = await createOk();
    const asked = Date.now();
    const out = await call('POST', `${SUBS}/${s.id}/rotate-secret`, { key: admin() });
    const answered = Date.now();
    expect(out.status).toBe(200);
    expect(out.body.data.secret).toMatch(/^whsec_/);
    expect(out.body.data.secret).not.toBe(s.secret);
    // 24 hours from the moment of the rotation, which lies between the call and its answer.
    const expires = Date.parse(out.body.data.previousSecretExpiresAt);
    expect(expires).toBeGreaterThanOrEqual(asked + 24 * 3600_000);
    expect(expires).toBeLessThanOrEqual(answered + 24 * 3600_000);
    expect(out.body.data.version).toBe(2);
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).body.data).not.toHaveProperty('secret');
  });

  it('refuses without webhooks.manage (403), for another company (404), for a malformed id (400)', async () => {
    const s = await createOk();
    expect((await call('POST', `${SUBS}/${s.id}/rotate-secret`, { key: readonly() })).status).toBe(403);
    expect((await call('POST', `${SUBS}/${s.id}/rotate-secret`, { key: theirs() })).status).toBe(404);
    expect((await call('POST', `${SUBS}/1/rotate-secret`, { key: admin() })).status).toBe(400);
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).body.data.version).toBe(1);
  });
});

describe('test events, attempts and retries', () => {
  it('sends a test event to that subscription only, lists its attempts, and retries only failed or dead deliveries', async () => {
    const s = await createOk({ url: `${hookUrl.replace(/\/hook$/, '')}/hold` });
    const bystander = await createOk();
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    const out = await call('POST', `${SUBS}/${s.id}/test`, { key: admin() });
    expect(out.status).toBe(200);
    const delivery = out.body.data;
    expect(delivery).toMatchObject({
      id: expect.any(String),
      subscriptionId: s.id,
      event: 'webhook.test',
      status: 'pending',
      round: 1,
      attempts: 0,
    });
    expect(delivery).not.toHaveProperty('body');

    // While the receiver holds the request the delivery is pending: no retry.
    await arrivals.until(() => arrived.find((a) => a.id === delivery.id));
    const pending = await call('POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: admin() });
    expect(pending.status).toBe(409);
    release();
    hold = Promise.resolve();

    expect(await settledDelivery(own.companyId, delivery.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    const attempts = (await call('GET', `${SUBS}/${s.id}/deliveries`, { key: readonly() })).body;
    expect(attempts.data).toEqual([
      expect.objectContaining({
        deliveryId: delivery.id,
        event: 'webhook.test',
        round: 1,
        attempt: 1,
        status: 'delivered',
        httpStatus: 200,
        error: null,
        durationMs: expect.any(Number),
      }),
    ]);
    expect(attempts.meta.pagination).toMatchObject({ page: 1, limit: 20, total: 1, nextCursor: null });
    // The attempts log names the event; its payload is not in it (the log shows payloads by their resources' reads).
    for (const field of ['data', 'body', 'changes']) expect(attempts.data[0]).not.toHaveProperty(field);
    expect(arrived.filter((a) => a.id === delivery.id)).toHaveLength(1);
    expect((await call('GET', `${SUBS}/${bystander.id}/deliveries`, { key: admin() })).body.data).toEqual([]);

    expect((await call('POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: admin() })).status).toBe(409);
  });

  it('retries a failed delivery now, as a new round', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const deadUrl = `http://127.0.0.1:${(closed.address() as { port: number }).port}/hook`;
    await new Promise<void>((ok) => closed.close(() => ok()));
    const s = await createOk({ url: deadUrl });
    const delivery = (await call('POST', `${SUBS}/${s.id}/test`, { key: admin() })).body.data;
    await settledDelivery(own.companyId, delivery.id);
    const [failed] = (await call('GET', `${SUBS}/${s.id}/deliveries`, { key: admin() })).body.data;
    expect(failed).toMatchObject({
      deliveryId: delivery.id,
      status: 'failed',
      httpStatus: null,
      error: 'refused',
      nextAttemptAt: expect.any(String),
    });

    const out = await call('POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: admin() });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ id: delivery.id, status: 'pending', round: 2, attempts: 0 });
    await settledDelivery(own.companyId, delivery.id);
    const second = (await call('GET', `${SUBS}/${s.id}/deliveries`, { key: admin() })).body.data.find(
      (a: { round: number }) => a.round === 2,
    );
    expect(second).toMatchObject({ attempt: 1, status: 'failed' });
  });

  it.each([
    ['POST', 'test'],
    ['GET', 'deliveries'],
  ])("%s /{id}/%s: malformed id 400, unknown and other companies' 404, permission 403", async (method, op) => {
    const s = await createOk();
    expect((await call(method, `${SUBS}/nope/${op}`, { key: admin() })).status).toBe(400);
    expect((await call(method, `${SUBS}/${unknownId()}/${op}`, { key: admin() })).status).toBe(404);
    expect((await call(method, `${SUBS}/${s.id}/${op}`, { key: theirs() })).status).toBe(404);
    const weak = method === 'GET' ? await testKey(own.companyId, { permissions: ['coursings.read'] }) : readonly();
    expect((await call(method, `${SUBS}/${s.id}/${op}`, { key: weak })).status).toBe(403);
  });

  it.each([['limit=0'], ['limit=101'], ['page=0']])('refuses deliveries?%s (400)', async (query) => {
    const s = await createOk();
    expect((await call('GET', `${SUBS}/${s.id}/deliveries?${query}`, { key: admin() })).status).toBe(400);
  });

  it("refuses to retry an unknown or another company's delivery (404), a malformed id (400), without webhooks.manage (403)", async () => {
    const s = await createOk();
    const delivery = (await call('POST', `${SUBS}/${s.id}/test`, { key: admin() })).body.data;
    expect((await call('POST', `/api/v1/webhooks/deliveries/${unknownId()}/retry`, { key: admin() })).status).toBe(404);
    expect((await call('POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: theirs() })).status).toBe(
      404,
    );
    expect((await call('POST', '/api/v1/webhooks/deliveries/123/retry', { key: admin() })).status).toBe(400);
    expect((await call('POST', `/api/v1/webhooks/deliveries/${delivery.id}/retry`, { key: readonly() })).status).toBe(
      403,
    );
  });
});

describe('event log', () => {
  const EVENTS = '/api/v1/events';

  it("lists the company's events oldest first, by type, since a time and after an event", async () => {
    const since = new Date().toISOString();
    const mine = [await createOk(), await createOk(), await createOk()];
    const other = await createOk({}, theirs());
    const out = await call('GET', `${EVENTS}?type=webhook-subscription.created&since=${since}&limit=100`, {
      key: readonly(),
    });
    expect(out.status).toBe(200);
    const ids = out.body.data.map((e: { resourceId: string }) => e.resourceId);
    expect(ids.filter((id: string) => mine.some((m) => m.id === id))).toEqual(mine.map((m) => m.id));
    expect(ids).not.toContain(other.id);
    const first = out.body.data.find((e: { resourceId: string }) => e.resourceId === mine[0]!.id);
    expect(first).toEqual({
      id: expect.any(String),
      event: 'webhook-subscription.created',
      resource: 'webhook-subscription',
      resourceId: mine[0]!.id,
      timestamp: expect.any(String),
      apiVersion: expect.any(String),
      data: expect.objectContaining({ id: mine[0]!.id, url: hookUrl }),
      changes: null,
      cursor: expect.any(String),
    });
    expect(JSON.stringify(out.body)).not.toContain(mine[0]!.secret);

    const after = await call('GET', `${EVENTS}?type=webhook-subscription.created&after=${first.cursor}&limit=100`, {
      key: admin(),
    });
    const afterIds = after.body.data.map((e: { resourceId: string }) => e.resourceId);
    expect(afterIds).not.toContain(mine[0]!.id);
    expect(afterIds).toEqual(expect.arrayContaining([mine[1]!.id, mine[2]!.id]));

    const paged = await call('GET', `${EVENTS}?since=${since}&limit=1`, { key: admin() });
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.meta.pagination).toMatchObject({ page: 1, limit: 1, nextCursor: expect.any(String) });
    const next = await call('GET', `${EVENTS}?since=${since}&limit=1&cursor=${paged.body.meta.pagination.nextCursor}`, {
      key: admin(),
    });
    expect(next.body.meta.pagination.page).toBe(2);
    expect(next.body.data[0].id).not.toBe(paged.body.data[0].id);
  });

  it.each([
    ['limit=0', '/limit'],
    ['limit=101', '/limit'],
    ['page=0', '/page'],
    ['since=yesterday', '/since'],
    ['type=Nope', '/type'],
    ['type=coursing.exploded', '/type'],
    ['after=bm9wZQ', '/after'],
    ['after=***', '/after'],
    [`since=${new Date().toISOString()}&after=bm9wZQ`, '/after'],
    ['cursor=bm9wZQ', '/cursor'],
  ])('refuses %s (400)', async (query, path) => {
    const out = await call('GET', `${EVENTS}?${query}`, { key: admin() });
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('needs events.read (403: webhooks.read is not it); readonly keys have it', async () => {
    for (const permissions of [['coursings.read'], ['webhooks.read', 'webhooks.manage']]) {
      const out = await call('GET', EVENTS, { key: await testKey(own.companyId, { permissions }) });
      expect(out.status, permissions.join()).toBe(403);
      expect(out.body.error.code).toBe('FORBIDDEN');
    }
    expect((await call('GET', EVENTS, { key: readonly() })).status).toBe(200);
  });
});

describe('who sees which events (threat model, item 7)', () => {
  const EVENTS = '/api/v1/events';
  type Logged = { id: string; event: string; resource: string; resourceId: string; data: Record<string, unknown> };
  /** Every event of the company since `since` that the key is shown, all pages. */
  const seenBy = async (key: string, since: string, type?: string): Promise<Logged[]> => {
    const all: Logged[] = [];
    let cursor: string | null = null;
    do {
      const out: { status: number; body: { data: Logged[]; meta: { pagination: { nextCursor: string | null } } } } =
        await call(
          'GET',
          `${EVENTS}?since=${since}&limit=100${type ? `&type=${type}` : ''}${cursor ? `&cursor=${cursor}` : ''}`,
          { key },
        );
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      all.push(...out.body.data);
      cursor = out.body.meta.pagination.nextCursor;
    } while (cursor);
    return all;
  };
  const newPlace = async (name: string) => {
    const out = await call('POST', '/api/v1/locations', {
      key: admin(),
      body: { name, timezone: 'Europe/Stockholm', operatingHours: {} },
    });
    expect(out.status).toBe(200);
    return out.body.data.id as number;
  };

  /** What happened in the file's company since `since`: a guest, a key, coursings and tables at two locations. */
  let since: string;
  let here: number;
  let there: number;
  let guestId: number;
  let apiKeyId: string;
  beforeAll(async () => {
    since = new Date().toISOString();
    [here, there] = [await newPlace('Events here'), await newPlace('Events there')];
    for (const locationId of [here, there]) {
      expect(
        (
          await call('POST', `/api/v1/locations/${locationId}/tables`, {
            key: admin(),
            body: { name: 'E1', minCapacity: 1, maxCapacity: 4 },
          })
        ).status,
      ).toBe(200);
      expect(
        (await call('POST', '/api/v1/coursings', { key: admin(), body: { locationId, title: 'Starters', order: 1 } }))
          .status,
      ).toBe(200);
    }
    const guest = await call('POST', '/api/v1/users/guests', {
      key: admin(),
      body: { name: 'Secret Guest', email: `secret.${Date.now()}@example.com`, phone: '+46 70 999 88 77' },
    });
    guestId = guest.body.data.id;
    const key = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Event witness', tier: 'standard', permissions: ['coursings.read'] },
    });
    expect(key.status).toBe(200);
    apiKeyId = key.body.data.id;
  });

  it('shows a company-wide key with every read all of it', async () => {
    const events = await seenBy(readonly(), since);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        'location.created',
        'table.created',
        'coursing.created',
        'guest.created',
        'api-key.created',
      ]),
    );
    expect(events.find((e) => e.event === 'guest.created')!.data).toMatchObject({
      name: 'Secret Guest',
      phone: '+46709998877',
    });
  });

  it('lists only the events whose resource the key can read: no guest PII, no key records', async () => {
    const key = await testKey(own.companyId, { permissions: ['events.read', 'coursings.read'] });
    const events = await seenBy(key, since);
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(['coursing.created']));
    expect(events).toHaveLength(2);
    expect(JSON.stringify(events)).not.toContain('Secret Guest');
    expect(JSON.stringify(events)).not.toContain(apiKeyId);
    const withGuests = await testKey(own.companyId, { permissions: ['events.read', 'bookings.read'] });
    expect((await seenBy(withGuests, since)).map((e) => e.resourceId)).toEqual([String(guestId)]);
  });

  it('answers 403 for a type the key cannot read, naming the permission', async () => {
    const key = await testKey(own.companyId, { permissions: ['events.read', 'coursings.read'] });
    const out = await call('GET', `${EVENTS}?type=guest.created&since=${since}`, { key });
    expect(out.status).toBe(403);
    expect(out.body.error).toMatchObject({
      code: 'FORBIDDEN',
      details: [{ path: '/type', message: expect.stringContaining('bookings.read') }],
    });
    expect((await seenBy(key, since, 'coursing.created')).map((e) => e.event)).toEqual([
      'coursing.created',
      'coursing.created',
    ]);
  });

  it('shows a location-limited key the events of its locations only, and company-wide resources it can read', async () => {
    const key = await testKey(own.companyId, {
      permissions: ['events.read', 'locations.read', 'tables.read', 'coursings.read', 'bookings.read', 'api_keys.read'],
      locationIds: [here],
    });
    const events = await seenBy(key, since);
    const locationOf = (e: Logged) => (e.resource === 'location' ? Number(e.resourceId) : e.data.locationId);
    const located = events.filter((e) => e.resource !== 'api-key');
    expect(located.map(locationOf)).toEqual([here, here, here]);
    expect(located.map((e) => e.event).sort()).toEqual(['coursing.created', 'location.created', 'table.created']);
    // Keys are read company-wide, so their events are shown wherever (the test keys made since count too).
    expect(events.filter((e) => e.resource === 'api-key').map((e) => e.resourceId)).toContain(apiKeyId);
    // A guest has no location: a limited key does not see it made (its search shows only guests with history at its locations).
    expect(events.map((e) => e.event)).not.toContain('guest.created');
    expect(await seenBy(key, since, 'table.created')).toEqual([
      expect.objectContaining({ event: 'table.created', data: expect.objectContaining({ locationId: here }) }),
    ]);
  });

  it('answers an empty log to a key that can read no resource', async () => {
    expect(await seenBy(await testKey(own.companyId, { permissions: ['events.read'] }), since)).toEqual([]);
  });

  it('subscribes `*` to every event the credential can read, stored by name, and refuses events it cannot read (403, nothing written)', async () => {
    const before = await total();
    const manager = await testKey(own.companyId, {
      permissions: ['webhooks.manage', 'webhooks.read', 'coursings.read', 'tables.read'],
    });
    const star = await create({ url: hookUrl }, manager);
    expect(star.status).toBe(200);
    expect(star.body.data.events).toEqual([
      'coursing.created',
      'coursing.updated',
      'table.created',
      'table.updated',
      'table.deleted',
      'webhook-subscription.created',
      'webhook-subscription.updated',
      'webhook-subscription.deleted',
    ]);
    // It will not widen when the catalog or the credential's grants do: the names are stored.
    expect((await call('GET', `${SUBS}/${star.body.data.id}`, { key: admin() })).body.data.events).toEqual(
      star.body.data.events,
    );

    const refused = await create(
      { url: hookUrl, events: ['coursing.created', 'guest.created', 'api-key.created'] },
      manager,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual([
      { path: '/events/1', message: 'needs bookings.read' },
      { path: '/events/2', message: 'needs api_keys.read' },
    ]);
    const nothing = await create({ url: hookUrl }, await testKey(own.companyId, { permissions: ['webhooks.manage'] }));
    expect(nothing.status).toBe(403);
    expect(await total()).toBe(before + 1);
  });

  it('refuses to point a subscription, or switch it on, for a credential that cannot read what it selects (403, nothing changed)', async () => {
    const s = await createOk({ events: ['api-key.created', 'coursing.created'] });
    const manager = await testKey(own.companyId, {
      permissions: ['webhooks.manage', 'webhooks.read', 'coursings.read'],
    });
    const moved = await call('PATCH', `${SUBS}/${s.id}`, { key: manager, body: { url: `${hookUrl}/mine` } });
    expect(moved.status).toBe(403);
    expect(moved.body.error.message).toContain('api_keys.read');
    expect(
      (await call('PATCH', `${SUBS}/${s.id}`, { key: manager, body: { events: ['api-key.revoked'] } })).status,
    ).toBe(403);
    expect((await call('PATCH', `${SUBS}/${s.id}`, { key: admin(), body: { active: false } })).status).toBe(200);
    expect((await call('PATCH', `${SUBS}/${s.id}`, { key: manager, body: { active: true } })).status).toBe(403);
    expect((await call('GET', `${SUBS}/${s.id}`, { key: admin() })).body.data).toMatchObject({
      url: hookUrl,
      events: ['api-key.created', 'coursing.created'],
      active: false,
      version: 2,
    });
    // What it may do: narrow the subscription to what it reads, then move it.
    expect(
      (
        await call('PATCH', `${SUBS}/${s.id}`, {
          key: manager,
          body: { events: ['coursing.created'], description: 'narrowed' },
        })
      ).status,
    ).toBe(200);
    const ok = await call('PATCH', `${SUBS}/${s.id}`, { key: manager, body: { url: `${hookUrl}/mine`, active: true } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      url: `${hookUrl}/mine`,
      events: ['coursing.created'],
      active: true,
      version: 4,
    });
  });
});
