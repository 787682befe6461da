/** Rate windows, id counters and API key storage (the hash, and the verifier beside it) against DynamoDB Local. */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate, clearKeyCache } from '../../shared/auth/authenticate';
import { authorizeRequest } from '../../shared/auth/authorizer';
import { keyVerifier } from '../../shared/auth/verifier';
import { resetConfig } from '../../shared/config';
import { apiKeys } from '../../shared/data/apiKeys';
import { db, tableName } from '../../shared/data/client';
import { ID_BLOCK_SIZE, nextId, releaseIdBlocks, reserveIdsBelow } from '../../shared/data/ids';
import { rateWindows } from '../../shared/data/rateWindows';
import { issueApiKey } from '../../shared/domain/apiKeys';
import { rateLeasesOf } from '../../shared/domain/rateLeases';
import { windowAt } from '../../shared/domain/rateWindow';
import { asFunction } from '../support/aws-call-log';
import { idBlock } from '../support/id-blocks';

const ids = idBlock(import.meta.url);

describe('rate windows', () => {
  it('counts atomically up to the limit, then refuses without counting', async () => {
    const subject = `test:${randomUUID()}`;
    const window = windowAt(Date.now());
    const hits = await Promise.all(Array.from({ length: 5 }, () => rateWindows.hit(subject, window, 3)));
    expect(hits.filter((h) => h.allowed)).toHaveLength(3);
    expect(
      hits
        .filter((h) => h.allowed)
        .map((h) => h.used)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(hits.filter((h) => !h.allowed)).toHaveLength(2);
    const item = await db().send(
      new GetCommand({ TableName: tableName(), Key: { pk: `RATE#${subject}`, sk: `W#${window.start}` } }),
    );
    expect(item.Item).toMatchObject({ n: 3, ttl: window.end + 3600 });
  });

  it('starts a new count in the next window', async () => {
    const subject = `test:${randomUUID()}`;
    const now = Date.now();
    await rateWindows.hit(subject, windowAt(now), 1);
    expect((await rateWindows.hit(subject, windowAt(now), 1)).allowed).toBe(false);
    expect(await rateWindows.hit(subject, windowAt(now + 3600_000), 1)).toEqual({ allowed: true, used: 1 });
  });

  it('leases blocks to containers that together never pass the limit, and writes nothing once it is full', async () => {
    const subject = `test:${randomUUID()}`;
    const window = windowAt(Date.now());
    const limit = 150;
    const containers = Array.from({ length: 4 }, () => rateLeasesOf());
    let allowed = 0;
    // 4 containers, 10 requests in flight in each, until each is refused.
    await Promise.all(
      containers.flatMap((c) =>
        Array.from({ length: 10 }, async () => {
          while ((await c.take(subject, window, limit)).allowed) allowed += 1;
        }),
      ),
    );
    expect(allowed).toBe(limit);
    const read = () =>
      db().send(new GetCommand({ TableName: tableName(), Key: { pk: `RATE#${subject}`, sk: `W#${window.start}` } }));
    expect((await read()).Item).toMatchObject({ n: limit, ttl: window.end + 3600 });
    // A lease past the limit is refused with nothing written.
    expect(await rateWindows.lease(subject, window, limit, 1)).toBeUndefined();
    expect((await read()).Item?.n).toBe(limit);
  });
});

describe('id counters', () => {
  it('reserves ids in blocks: one counter update serves ID_BLOCK_SIZE creates', async () => {
    // Other files create variants on the same database at the same time (their own blocks), so
    // the block is judged by itself: contiguous, above the floor, and the counter past its end.
    await reserveIdsBelow('variant', 100);
    releaseIdBlocks(); // a fresh block for this process
    const first = await nextId('variant');
    const rest = await Promise.all(Array.from({ length: ID_BLOCK_SIZE - 1 }, () => nextId('variant')));
    expect(first).toBeGreaterThan(100);
    expect([first, ...rest].sort((a, b) => a - b)).toEqual(Array.from({ length: ID_BLOCK_SIZE }, (_, i) => first + i));
    const counter = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'SEQ', sk: 'variant' } }));
    expect(counter.Item?.v).toBeGreaterThanOrEqual(first + ID_BLOCK_SIZE - 1);
    expect(await nextId('variant')).toBeGreaterThanOrEqual(first + ID_BLOCK_SIZE);
  });

  it('hands out unique ids under concurrency and never below a reserved floor', async () => {
    await reserveIdsBelow('custom-tag', 5000);
    const ids = await Promise.all(Array.from({ length: 20 }, () => nextId('custom-tag')));
    expect(new Set(ids).size).toBe(20);
    expect(Math.min(...ids)).toBeGreaterThan(5000);
    await reserveIdsBelow('custom-tag', 10); // moving a counter back is refused silently
    expect(await nextId('custom-tag')).toBeGreaterThan(Math.max(...ids));
  });
});

describe('API keys', () => {
  it('stores only the hash: a created key authenticates, and its plaintext is in no item', async () => {
    const companyId = ids.next();
    const { record, key } = await issueApiKey(companyId, {
      name: 'Till 1',
      tier: 'premium',
      permissions: ['coursings.read'],
      locationIds: [5],
    });
    clearKeyCache();
    const principal = await authenticate({ 'x-api-key': key });
    expect(principal).toMatchObject({
      kind: 'apiKey',
      companyId,
      tier: 'premium',
      permissions: ['coursings.read'],
      locationIds: [5],
      apiKeyId: record.id,
    });
    const stored = await Promise.all([
      db().send(new GetCommand({ TableName: tableName(), Key: { pk: `KEY#${record.keyId}`, sk: 'KEY' } })),
      db().send(new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk: `APIKEY#${record.id}` } })),
    ]);
    const secret = key.split('_').at(-1)!;
    for (const s of stored) {
      expect(s.Item).toBeDefined();
      expect(JSON.stringify(s.Item)).not.toContain(secret);
    }
  });

  describe('the verifier beside the hash', () => {
    const lookup = async (keyId: string) =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `KEY#${keyId}`, sk: 'KEY' } }))).Item;
    const usePepper = (pepper: string) => {
      vi.stubEnv('API_KEY_PEPPER', pepper);
      resetConfig();
    };
    const newKey = () =>
      issueApiKey(ids.next(), { name: 'Till', tier: 'standard', permissions: ['coursings.read'], locationIds: null });
    afterEach(() => {
      vi.unstubAllEnvs();
      resetConfig();
    });

    it('is written with a key made where there is a pepper, and by the authorizer for one made without, once bcrypt verified it', async () => {
      usePepper('');
      const old = await newKey();
      expect((await lookup(old.record.keyId))!.verifier).toBeUndefined();
      usePepper('integration-pepper-0123456789abcdefghijklmnopqrstuvwxyz');
      const made = await newKey();
      const item = (await lookup(made.record.keyId))!;
      expect(item.verifier).toBe(keyVerifier(made.key, item.hash as string));
      expect(JSON.stringify(item)).not.toContain(made.key.split('_').at(-1));

      clearKeyCache();
      const event = {
        type: 'REQUEST',
        methodArn: 'arn:aws:execute-api:local:0:api/local/GET/x',
        headers: { 'X-API-Key': old.key },
      };
      const verdict = await asFunction('authorizer', () =>
        authorizeRequest(event as unknown as APIGatewayRequestAuthorizerEvent),
      );
      expect(verdict.principalId).toBe(`key:${old.record.keyId}`);
      const written = (await lookup(old.record.keyId))!;
      expect(written.verifier).toBe(keyVerifier(old.key, written.hash as string));
      // A fresh container now judges the key by its verifier.
      clearKeyCache();
      expect((await authenticate({ 'x-api-key': old.key })).companyId).toBe(written.companyId);
    });

    it('is written only while the lookup item holds the hash that verified the key, and never makes an item', async () => {
      usePepper('integration-pepper-0123456789abcdefghijklmnopqrstuvwxyz');
      const { record, key } = await newKey();
      const before = (await lookup(record.keyId))!;
      const other = keyVerifier(key, 'not the hash');
      expect(await apiKeys.recordVerifier(record.keyId, 'not the hash', other!)).toBe(false);
      expect(await lookup(record.keyId)).toEqual(before);
      expect(await apiKeys.recordVerifier(record.keyId, before.hash as string, 'replaced')).toBe(true);
      expect((await lookup(record.keyId))!.verifier).toBe('replaced');
      const missing = `zz${randomUUID().replace(/-/g, '').slice(0, 10)}`;
      expect(await apiKeys.recordVerifier(missing, before.hash as string, 'x')).toBe(false);
      expect(await lookup(missing)).toBeUndefined();
    });
  });
});
