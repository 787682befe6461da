/** Webhook pipeline logic without I/O: signatures, the retry schedule, settings, URL rules, the filter, payloads. */
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { outboxMessageOf } from '../../shared/data/outbox';
import { newEvent } from '../../shared/events/catalog';
import { matchesPattern, outboxFilterPattern } from '../../shared/webhooks/filter';
import { outboxMessageFromImage } from '../../shared/webhooks/outbox';
import { deliveryIdFor, newDelivery, webhookBody } from '../../shared/webhooks/payload';
import { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS, leaseMs, retryDelayMs } from '../../shared/webhooks/schedule';
import { DEFAULT_TIMEOUT_MS, webhookSettings } from '../../shared/webhooks/settings';
import { newSecret, sign, signatureHeader } from '../../shared/webhooks/signing';
import { urlRefusal, type Resolve } from '../../shared/webhooks/urlPolicy';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HOUR = 3600_000;

describe('signing (Standard Webhooks)', () => {
  it('reproduces the published example signature', () => {
    // The example of the Standard Webhooks specification and its reference libraries.
    expect(
      sign(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('makes secrets of whsec_ and the base64 of 32 random bytes, all different', () => {
    const secrets = Array.from({ length: 20 }, newSecret);
    for (const s of secrets) {
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it('signs with every given secret, space-separated, for rotations', () => {
    const [a, b] = [newSecret(), newSecret()];
    const header = signatureHeader([a, b], 'id-1', 1700000000, '{}');
    expect(header.split(' ')).toEqual([sign(a, 'id-1', 1700000000, '{}'), sign(b, 'id-1', 1700000000, '{}')]);
    expect(sign(a, 'id-1', 1700000001, '{}')).not.toBe(sign(a, 'id-1', 1700000000, '{}'));
  });

  it('refuses a key that is not a webhook secret', () => {
    expect(() => sign('not-a-secret', 'id', 1, '')).toThrow(/not a webhook secret/);
  });
});

describe('retry schedule', () => {
  it('retries after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: 8 attempts', () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(MAX_ATTEMPTS).toBe(8);
    const middle = () => 0.5;
    expect(Array.from({ length: 7 }, (_, i) => retryDelayMs(i + 1, 1, middle))).toEqual(RETRY_DELAYS_MS);
    expect(retryDelayMs(8, 1, middle)).toBeUndefined();
  });

  it('adds at most ±10 % jitter, and never waits longer than SQS can hold a message (12 h)', () => {
    expect(retryDelayMs(1, 1, () => 0)).toBe(5_000 * (1 - JITTER));
    expect(retryDelayMs(1, 1, () => 0.999999)).toBeCloseTo(5_000 * (1 + JITTER), -1);
    for (let failed = 1; failed < MAX_ATTEMPTS; failed++)
      expect(retryDelayMs(failed, 1, () => 0.999999)!).toBeLessThan(12 * HOUR);
  });

  it('scales every delay by WEBHOOK_BACKOFF_SCALE', () => {
    expect(retryDelayMs(7, 0.0001, () => 0.5)).toBe(3_600);
    expect(retryDelayMs(2, 0, () => 0.5)).toBe(0);
  });

  it('holds a claimed delivery longer than a receiver may take', () => {
    expect(leaseMs(30_000)).toBeGreaterThan(2 * 30_000);
  });
});

describe('settings', () => {
  it('gives a receiver 30 s and runs the schedule at full length by default', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(webhookSettings({})).toEqual({ timeoutMs: 30_000, backoffScale: 1 });
  });

  it('reads WEBHOOK_TIMEOUT_MS and WEBHOOK_BACKOFF_SCALE, and refuses nonsense', () => {
    expect(webhookSettings({ WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_BACKOFF_SCALE: '0.001' })).toEqual({
      timeoutMs: 1500,
      backoffScale: 0.001,
    });
    expect(() => webhookSettings({ WEBHOOK_TIMEOUT_MS: '0' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(() => webhookSettings({ WEBHOOK_TIMEOUT_MS: 'soon' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
    expect(() => webhookSettings({ WEBHOOK_BACKOFF_SCALE: '-1' })).toThrow(/WEBHOOK_BACKOFF_SCALE/);
  });
});

describe('URL rules', () => {
  const dns =
    (answers: Record<string, string[]>): Resolve =>
    async (host) => {
      const found = answers[host];
      if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return found;
    };
  const resolve = dns({
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'sneaky.example.com': ['93.184.215.14', '10.1.2.3'],
    localhost: ['127.0.0.1', '::1'],
  });

  it('accepts https to public addresses on deployed stages', async () => {
    expect(await urlRefusal('https://hooks.example.com/brigade', 'prod', resolve)).toBeUndefined();
    expect(await urlRefusal('https://93.184.215.14:443/x', 'dev', resolve)).toBeUndefined();
    // IPv6 forms that carry a public IPv4 address are judged by it.
    for (const host of [
      '[64:ff9b::808:808]',
      '[2002:808:808::1]',
      '[2001:0:4136:e378:8000:63bf:f7f7:f7f7]',
      '[::ffff:8.8.8.8]',
    ]) {
      expect(await urlRefusal(`https://${host}/hook`, 'prod', resolve)).toBeUndefined();
    }
  });

  it.each([['https://93.184.215.14:8443/x'], ['https://hooks.example.com:8080/x'], ['https://hooks.example.com:22/x']])(
    'refuses another port than 443 on deployed stages: %s',
    async (url) => {
      expect(await urlRefusal(url, 'prod', resolve)).toMatch(/must use port 443/);
      expect(await urlRefusal(url, 'local', resolve)).toBeUndefined();
    },
  );

  it.each([
    ['http://hooks.example.com/x', /must be an https URL/],
    ['ftp://hooks.example.com/x', /must be an https URL/],
    ['not a url', /is not a URL/],
    ['https://user:pw@hooks.example.com/x', /must not contain credentials/],
    ['https://nowhere.example.com/x', /does not resolve/],
    ['https://sneaky.example.com/x', /resolves to an address in a refused range \(private\)/],
  ])('refuses %s on deployed stages', async (url, why) => {
    expect(await urlRefusal(url, 'prod', resolve)).toMatch(why);
  });

  it('names the refused range a host resolves to, never the address (a deployed stage maps internal names)', async () => {
    const internal = dns({
      'sneaky.example.com': ['10.1.2.3'],
      'metadata.example.com': ['169.254.169.254'],
      'self.example.com': ['127.0.0.53'],
      'carrier.example.com': ['100.100.100.200'],
      'ula.example.com': ['fd00:ec2::254'],
      'mapped.example.com': ['::ffff:192.168.7.9'],
    });
    for (const [host, address, range] of [
      ['sneaky.example.com', '10.1.2.3', 'private'],
      ['metadata.example.com', '169.254.169.254', 'link-local'],
      ['self.example.com', '127.0.0.53', 'loopback'],
      ['carrier.example.com', '100.100.100.200', 'shared (CGNAT)'],
      ['ula.example.com', 'fd00:ec2::254', 'unique-local'],
      ['mapped.example.com', '192.168.7.9', 'private'],
    ] as const) {
      const why = await urlRefusal(`https://${host}/hook`, 'prod', internal);
      expect(why).toBe(`resolves to an address in a refused range (${range}), which is not a public address`);
      expect(why).not.toContain(address);
    }
  });

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.170.2',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '192.0.2.10',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '[::1]',
    '[::]',
    '[fe80::1]',
    '[fc00::1]',
    '[fd00:ec2::254]',
    '[::ffff:10.0.0.1]',
    '[::ffff:169.254.169.254]',
    '[64:ff9b::a00:1]',
    '[ff02::1]',
    // IPv4-compatible (::/96), SIIT-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32) carrying private IPv4
    '[::10.0.0.1]',
    '[::a9fe:a9fe]',
    '[::ffff:0:a00:1]',
    '[64:ff9b::169.254.169.254]',
    '[64:ff9b:1::808:808]',
    '[2002:a00:1::1]',
    '[2002:a9fe:a9fe::]',
    '[2001:0:4136:e378:8000:63bf:f5ff:fffe]',
    '[2001:0:a00:1:8000:63bf:f7f7:f7f7]',
    '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  ])('refuses the non-public address %s', async (host) => {
    const why = await urlRefusal(`https://${host}/hook`, 'prod', resolve);
    expect(why).toMatch(/resolves to an address in a refused range \(.+\), which is not a public address/);
    expect(why).not.toContain(host.replace(/^\[(.*)\]$/, '$1'));
  });

  it('refuses a host whose DNS answers an IPv6 form carrying a private IPv4 address', async () => {
    const tricky = dns({
      'nat64.example.com': ['64:ff9b::a00:1'],
      'teredo.example.com': ['2001:0:4136:e378:8000:63bf:f5ff:fffe'],
      'sixtofour.example.com': ['2002:a9fe:a9fe::1'],
    });
    for (const host of ['nat64.example.com', 'teredo.example.com', 'sixtofour.example.com']) {
      const why = await urlRefusal(`https://${host}/hook`, 'prod', tricky);
      expect(why).toMatch(/refused range \((private|link-local)\), which is not a public address/);
      expect(why).not.toMatch(/\d+\.\d+\.\d+\.\d+|[0-9a-f]+:[0-9a-f]*:/);
    }
  });

  it('also accepts loopback on the local stage, and http only to loopback', async () => {
    expect(await urlRefusal('http://127.0.0.1:4000/hook', 'local', resolve)).toBeUndefined();
    expect(await urlRefusal('http://localhost:4000/hook', 'local', resolve)).toBeUndefined();
    expect(await urlRefusal('https://[::1]:4000/hook', 'local', resolve)).toBeUndefined();
    expect(await urlRefusal('https://hooks.example.com/x', 'local', resolve)).toBeUndefined();
    expect(await urlRefusal('http://hooks.example.com/x', 'local', resolve)).toMatch(/http only to loopback/);
    expect(await urlRefusal('http://10.0.0.1/x', 'local', resolve)).toMatch(/not a public address/);
    expect(await urlRefusal('http://127.0.0.1:4000/hook', 'dev', resolve)).toMatch(/must be an https URL/);
  });
});

describe('the outbox filter (the Pipe and the local stream reader)', () => {
  const record = (eventName: string, entity?: string) => ({
    eventName,
    dynamodb: entity === undefined ? {} : { NewImage: { pk: { S: 'x' }, entity: { S: entity } } },
  });

  it('lets new outbox items through and nothing else', () => {
    expect(matchesPattern(outboxFilterPattern, record('INSERT', 'OUTBOX'))).toBe(true);
    expect(matchesPattern(outboxFilterPattern, record('MODIFY', 'OUTBOX'))).toBe(false);
    expect(matchesPattern(outboxFilterPattern, record('REMOVE', 'OUTBOX'))).toBe(false);
    expect(matchesPattern(outboxFilterPattern, record('INSERT', 'COURSING'))).toBe(false);
    expect(matchesPattern(outboxFilterPattern, record('INSERT'))).toBe(false);
    expect(matchesPattern(outboxFilterPattern, null)).toBe(false);
  });

  it('reads an event and a delivery request from their stream images', () => {
    const event = newEvent(7, 'coursing.created', 'c-1', { id: 'c-1', title: 'Starters' });
    const image = marshall(
      { pk: 'C#7#EVENTS', sk: 'x', entity: 'OUTBOX', companyId: 7, payload: event.payload },
      { removeUndefinedValues: true },
    );
    expect(outboxMessageFromImage(image)).toEqual({ kind: 'event', event });
    const ref = { subscriptionId: 's-1', deliveryId: 'd-1', round: 2 };
    expect(outboxMessageOf({ entity: 'OUTBOX', companyId: 7, deliveryRequest: ref })).toEqual({
      kind: 'delivery',
      ref: { companyId: 7, ...ref },
    });
  });
});

describe('payloads', () => {
  const event = newEvent(3, 'coursing.updated', 'c-9', { id: 'c-9', title: 'Mains' }, { title: 'Mains' });

  it('derives one delivery id per event and subscription: a UUID, stable, different per subscription', () => {
    const a = deliveryIdFor(event.payload.id, 'sub-a');
    expect(a).toMatch(UUID_V4);
    expect(deliveryIdFor(event.payload.id, 'sub-a')).toBe(a);
    expect(deliveryIdFor(event.payload.id, 'sub-b')).not.toBe(a);
  });

  it('sends the event payload with id = the delivery id and eventId = the event id', () => {
    const delivery = newDelivery('sub-a', event.payload, '2026-01-01T00:00:00.000Z');
    const body = JSON.parse(delivery.body);
    expect(Object.keys(body)).toEqual([
      'id',
      'eventId',
      'event',
      'resource',
      'resourceId',
      'timestamp',
      'apiVersion',
      'data',
      'changes',
    ]);
    expect(body).toEqual({ ...event.payload, id: delivery.id, eventId: event.payload.id });
    expect(delivery.body).toBe(webhookBody(delivery.id, event.payload));
    expect(delivery).toMatchObject({
      status: 'pending',
      round: 1,
      attempts: 0,
      nextAttemptAt: '2026-01-01T00:00:00.000Z',
      event: 'coursing.updated',
    });
  });
});
