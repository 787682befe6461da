/**
 * The verifier beside a key's bcrypt hash (shared/auth/verifier.ts; docs/access.md, "How a key is
 * verified"): a miss of the in-memory cache is judged by one HMAC when the lookup item carries a
 * verifier of its hash under this process's pepper, by bcrypt otherwise (and the authorizer then
 * writes the verifier, only while the item holds the hash that verified); and the revocation bound,
 * through the verifier path too. The database is a mock; bcrypt is real, and its runs are counted.
 */
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey, randomBase62 } from '../../shared/auth/apiKey';
import { authenticate, clearKeyCache, KEY_CACHE_TTL_MS } from '../../shared/auth/authenticate';
import { checkVerifier, keyVerifier, verifierCurrent } from '../../shared/auth/verifier';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { wrongByOne } from '../support/wrong-key';
import { bcryptRuns } from '../support/bcrypt-runs';

/** Every bcrypt comparison the code under test runs, counted (bcryptRuns.count). */
vi.mock('bcryptjs', async (real) => (await import('../support/bcrypt-runs')).countingBcrypt(real));

const PEPPER = 'unit-test-pepper-0123456789abcdefghijklmnopqrstuvwxyz';
const ROTATED = 'unit-test-pepper-rotated-0123456789abcdefghijklmnopqrs';
const usePepper = (pepper: string | undefined) => {
  if (pepper === undefined) delete process.env.API_KEY_PEPPER;
  else process.env.API_KEY_PEPPER = pepper;
  resetConfig();
};

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
usePepper(PEPPER);
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);

let key: Awaited<ReturnType<typeof generateApiKey>>;
const lookupKey = () => ({ pk: `KEY#${key.keyId}`, sk: 'KEY' });
const lookups = () => ddb.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.pk === lookupKey().pk).length;
const writes = () => ddb.commandCalls(UpdateCommand);
const lookupItem = (over: Record<string, unknown> = {}) => ({
  apiKeyId: 'a1',
  companyId: 1,
  hash: key.hash,
  fingerprint: key.fingerprint,
  tier: 'standard',
  permissions: ['tabs.read'],
  roleId: null,
  locationIds: null,
  revoked: false,
  usageKey: null,
  ...over,
});
const serve = (item: Record<string, unknown>) => ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: item });
/** As the authorizer asks (it writes verifiers); `authenticate` alone is what the public functions run. */
const authorize = (plaintext = key.plaintext, now = Date.now()) =>
  authenticate({ 'x-api-key': plaintext }, now, { recordVerifier: true });

beforeAll(async () => {
  key = await generateApiKey('local');
});

beforeEach(() => {
  usePepper(PEPPER);
  ddb.reset();
  clearKeyCache();
  bcryptRuns.count = 0;
  ddb.on(GetCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
});

describe('the verifier', () => {
  it('names the pepper and the hash it was made for, and decides only under both', () => {
    const v = keyVerifier(key.plaintext, key.hash)!;
    expect(v).toMatch(/^[0-9a-f]{8}\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(v)).not.toContain(key.plaintext.split('_').at(-1));
    expect(checkVerifier(v, key.plaintext, key.hash)).toBe(true);
    expect(checkVerifier(v, wrongByOne(key.plaintext), key.hash)).toBe(false);
    expect(verifierCurrent(v, key.hash)).toBe(true);
    // Made for another hash: it decides nothing (bcrypt will).
    expect(checkVerifier(v, key.plaintext, `${key.hash.slice(0, -1)}x`)).toBe('unusable');
    expect(checkVerifier(undefined, key.plaintext, key.hash)).toBe('unusable');
    expect(checkVerifier(`${v.slice(0, -2)}`, key.plaintext, key.hash)).toBe(false);
    usePepper(ROTATED);
    expect(checkVerifier(v, key.plaintext, key.hash)).toBe('unusable');
    expect(verifierCurrent(v, key.hash)).toBe(false);
    expect(keyVerifier(key.plaintext, key.hash)).not.toBe(v);
    usePepper(undefined);
    expect(keyVerifier(key.plaintext, key.hash)).toBeUndefined();
    expect(checkVerifier(v, key.plaintext, key.hash)).toBe('unusable');
  });

  it('refuses a pepper shorter than 32 characters', () => {
    process.env.API_KEY_PEPPER = 'short';
    resetConfig();
    expect(() => keyVerifier(key.plaintext, key.hash)).toThrow(/at least 32 characters/);
  });
});

describe('a key judged by its verifier', () => {
  it('is served from memory within its 60 s: no read, no bcrypt', async () => {
    serve(lookupItem({ verifier: keyVerifier(key.plaintext, key.hash) }));
    const t0 = Date.now();
    await authorize(key.plaintext, t0);
    await authorize(key.plaintext, t0 + KEY_CACHE_TTL_MS - 1);
    expect(lookups()).toBe(1);
    expect(bcryptRuns.count).toBe(0);
  });

  it('verifies on a miss with one read and no bcrypt, and writes nothing', async () => {
    serve(lookupItem({ verifier: keyVerifier(key.plaintext, key.hash) }));
    expect((await authorize()).permissions).toEqual(['tabs.read']);
    expect(lookups()).toBe(1);
    expect(bcryptRuns.count).toBe(0);
    expect(writes()).toHaveLength(0);
  });

  it('refuses a wrong secret without bcrypt, spending none of the keyId budget: the real key still verifies without bcrypt', async () => {
    // No fingerprint, so the verifier alone tells the secrets apart.
    serve(lookupItem({ fingerprint: undefined, verifier: keyVerifier(key.plaintext, key.hash) }));
    const forged = Array.from({ length: 50 }, () => `brigade_dev_${key.keyId}_${randomBase62(40)}`);
    const answers = await Promise.allSettled([...forged, wrongByOne(key.plaintext)].map((k) => authorize(k)));
    expect(answers.every((a) => a.status === 'rejected')).toBe(true);
    expect(bcryptRuns.count).toBe(0);
    expect((await authorize()).companyId).toBe(1);
    expect(bcryptRuns.count).toBe(0);
    expect(writes()).toHaveLength(0);
  });
});

describe('a key without a usable verifier', () => {
  it('is verified by bcrypt once; the authorizer then writes its verifier, conditioned on the hash that verified', async () => {
    serve(lookupItem());
    await authorize();
    expect(bcryptRuns.count).toBe(1);
    expect(writes()).toHaveLength(1);
    const input = writes()[0]!.args[0].input;
    expect(input.Key).toEqual(lookupKey());
    expect(input.ConditionExpression).toBe('#hash = :hash');
    expect(input.ExpressionAttributeValues).toEqual({
      ':hash': key.hash,
      ':verifier': keyVerifier(key.plaintext, key.hash),
    });
    // Another container (an empty cache) reading the item as written needs no bcrypt.
    clearKeyCache();
    serve(lookupItem({ verifier: input.ExpressionAttributeValues![':verifier'] }));
    await authorize();
    expect(bcryptRuns.count).toBe(1);
    expect(writes()).toHaveLength(1);
  });

  it('is not written by a function that verifies a credential itself (no grant to write a lookup item)', async () => {
    serve(lookupItem());
    await authenticate({ 'x-api-key': key.plaintext });
    expect(bcryptRuns.count).toBe(1);
    expect(writes()).toHaveLength(0);
  });

  it('writes nothing where there is no pepper, and still verifies by bcrypt', async () => {
    usePepper(undefined);
    serve(lookupItem({ verifier: 'deadbeef.AAAAAAAAAAA.AAAA' })); // a verifier this process cannot judge
    expect((await authorize()).companyId).toBe(1);
    expect(bcryptRuns.count).toBe(1);
    expect(writes()).toHaveLength(0);
  });

  it('runs bcrypt again when the hash changed: the old verifier is for the old hash, and a new one is written', async () => {
    serve(lookupItem({ verifier: keyVerifier(key.plaintext, key.hash) }));
    const t0 = Date.now();
    await authorize(key.plaintext, t0);
    expect(bcryptRuns.count).toBe(0);
    // The key's hash replaced (the same secret hashed again), its old verifier left on the item.
    const rehashed = (await import('bcryptjs')).default.hashSync(key.plaintext, 4);
    serve(lookupItem({ hash: rehashed, verifier: keyVerifier(key.plaintext, key.hash) }));
    expect((await authorize(key.plaintext, t0 + KEY_CACHE_TTL_MS + 1)).companyId).toBe(1);
    expect(bcryptRuns.count).toBe(1);
    expect(writes().map((w) => w.args[0].input.ExpressionAttributeValues)).toEqual([
      { ':hash': rehashed, ':verifier': keyVerifier(key.plaintext, rehashed) },
    ]);
  });

  it('runs bcrypt again after the pepper was rotated, and writes the verifier under the new pepper', async () => {
    const old = keyVerifier(key.plaintext, key.hash);
    usePepper(ROTATED);
    serve(lookupItem({ verifier: old }));
    await authorize();
    expect(bcryptRuns.count).toBe(1);
    expect(writes()[0]!.args[0].input.ExpressionAttributeValues![':verifier']).toBe(
      keyVerifier(key.plaintext, key.hash),
    );
  });

  it('answers a key that verified even when writing its verifier fails (the next container pays one bcrypt run)', async () => {
    serve(lookupItem());
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
    expect((await authorize()).companyId).toBe(1);
    expect(writes()).toHaveLength(1);
  });
});

describe('principals of one role', () => {
  it('share one permission list, which nobody can change', async () => {
    const other = await generateApiKey('local');
    const roleKey = { pk: 'C#1', sk: 'ROLE#000000000007' };
    ddb
      .on(GetCommand, { Key: roleKey })
      .callsFake(async () => ({ Item: { permissionKeys: ['roles.read', 'tabs.read'] } }));
    for (const k of [key, other])
      ddb.on(GetCommand, { Key: { pk: `KEY#${k.keyId}`, sk: 'KEY' } }).resolves({
        Item: lookupItem({
          hash: k.hash,
          fingerprint: k.fingerprint,
          roleId: 7,
          permissions: [],
          verifier: keyVerifier(k.plaintext, k.hash),
        }),
      });
    const [a, b] = [await authorize(key.plaintext), await authorize(other.plaintext)];
    expect(a.permissions).toEqual(['roles.read', 'tabs.read']);
    expect(b.permissions).toBe(a.permissions);
    expect(() => a.permissions.push('x')).toThrow(TypeError);
  });
});

describe('the revocation bound (docs/access.md: refused within 60 s on every container)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.resetModules();
  });

  it('refuses a revoked key on every container once the bound has passed since the revocation, through the verifier path too', async () => {
    expect(KEY_CACHE_TTL_MS).toBe(60_000); // the bound docs/access.md states (no gateway cache adds to it)
    const t0 = Date.UTC(2026, 11, 12, 19, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'], now: t0 });
    const item = lookupItem({ verifier: keyVerifier(key.plaintext, key.hash) });
    serve(item);
    // Two containers: each its own module instance, so its own cache.
    const containers = [];
    for (let i = 0; i < 2; i++) {
      vi.resetModules();
      const mod = await import('../../shared/auth/authenticate');
      containers.push((plaintext: string) =>
        mod.authenticate({ 'x-api-key': plaintext }, undefined, { recordVerifier: true }),
      );
    }
    const [a, b] = containers as [(k: string) => Promise<unknown>, (k: string) => Promise<unknown>];
    await a(key.plaintext); // verified at t0
    vi.setSystemTime(t0 + 30_000);
    await b(key.plaintext); // verified at t0 + 30 s
    const revokedAt = t0 + 40_000;
    vi.setSystemTime(revokedAt);
    serve({ ...item, revoked: true });
    // Within the bound a container may still answer from its entry…
    await expect(b(key.plaintext)).resolves.toBeDefined();
    vi.setSystemTime(t0 + KEY_CACHE_TTL_MS - 1);
    await expect(a(key.plaintext)).resolves.toBeDefined();
    // …and once the bound has passed since the revocation, none does.
    vi.setSystemTime(revokedAt + KEY_CACHE_TTL_MS);
    for (const container of [a, b])
      await expect(container(key.plaintext)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(bcryptRuns.count).toBe(0);
  });
});
