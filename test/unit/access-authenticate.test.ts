/**
 * Authenticating API keys with roles, dropping a changed key from the verified-key cache, and the
 * cache under attack (docs/access.md, threat model, item 4): junk keys, floods of refused keys, random secrets with a
 * real keyId. The database is a mock; bcrypt is real, and its runs are counted.
 */
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateApiKey, randomBase62 } from '../../shared/auth/apiKey';
import {
  authenticate,
  BCRYPT_ATTEMPTS_PER_KEY_ID,
  clearKeyCache,
  forgetApiKey,
  KEY_CACHE_TTL_MS,
  keyCacheStats,
} from '../../shared/auth/authenticate';
import { builtInPermissions } from '../../shared/auth/catalog';
import { holds } from '../../shared/auth/principal';
import { resetConfig } from '../../shared/config';
import { apiKeys, type ApiKeyAuth } from '../../shared/data/apiKeys';
import { setDb } from '../../shared/data/client';
import { bcryptRuns } from '../support/bcrypt-runs';

/** Every bcrypt comparison the code under test runs, counted (bcryptRuns.count). */
vi.mock('bcryptjs', async (real) => (await import('../support/bcrypt-runs')).countingBcrypt(real));

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);

let key: Awaited<ReturnType<typeof generateApiKey>>;
const lookupKey = () => ({ pk: `KEY#${key.keyId}`, sk: 'KEY' });
const roleKey = { pk: 'C#1', sk: 'ROLE#000000000007' };
const lookups = () => ddb.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.pk === lookupKey().pk).length;
const auth = (plaintext = key.plaintext, now = Date.now()) => authenticate({ 'x-api-key': plaintext }, now);

beforeAll(async () => {
  key = await generateApiKey('local');
});

beforeEach(() => {
  ddb.reset();
  clearKeyCache();
  bcryptRuns.count = 0;
  ddb.on(GetCommand).resolves({});
  const item = {
    apiKeyId: 'a1',
    companyId: 1,
    hash: key.hash,
    tier: 'standard',
    permissions: [],
    roleId: 7,
    locationIds: null,
    revoked: false,
    usageKey: null,
  };
  ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: item });
  ddb.on(GetCommand, { Key: roleKey }).resolves({ Item: { permissionKeys: ['roles.read', 'coursings.read'] } });
});

describe('a key with a role', () => {
  it("holds the role's permissions, read with one GetItem of the role", async () => {
    expect((await auth()).permissions).toEqual(['roles.read', 'coursings.read']);
    expect(ddb.commandCalls(GetCommand, { Key: roleKey })).toHaveLength(1);
  });

  it('sees a change of its role once its cache entry is older than 60 s', async () => {
    const t0 = Date.now();
    await auth(key.plaintext, t0);
    ddb.on(GetCommand, { Key: roleKey }).resolves({ Item: { permissionKeys: ['roles.read'] } });
    expect((await auth(key.plaintext, t0 + KEY_CACHE_TTL_MS - 1)).permissions).toEqual([
      'roles.read',
      'coursings.read',
    ]);
    expect((await auth(key.plaintext, t0 + KEY_CACHE_TTL_MS + 1)).permissions).toEqual(['roles.read']);
  });
});

describe('forgetting a key', () => {
  it('makes the next request verify the key again', async () => {
    await auth();
    await auth();
    expect(lookups()).toBe(1);
    forgetApiKey(key.keyId);
    ddb
      .on(GetCommand, { Key: lookupKey() })
      .resolves({ Item: { apiKeyId: 'a1', companyId: 1, hash: key.hash, revoked: true } });
    await expect(auth()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(lookups()).toBe(2);
  });

  it('still finds the verified entry after a wrong secret for the same keyId was tried', async () => {
    await auth();
    const wrong = `${key.plaintext.slice(0, -1)}${key.plaintext.endsWith('a') ? 'b' : 'a'}`;
    await expect(auth(wrong)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    forgetApiKey(key.keyId);
    await auth();
    expect(lookups()).toBe(3);
  });

  it('does nothing for a key this process has not verified', () => {
    expect(() => forgetApiKey('zzzzzzzzzzzz')).not.toThrow();
  });
});

// bcrypt is real here: on a busy machine a run can take most of a second.
describe('the key cache under attack (threat model, item 4)', { timeout: 60_000 }, () => {
  /** A well-formed key of the local stage with this keyId and a random secret. */
  const forged = (keyId = randomBase62(12).toLowerCase()) => `brigade_dev_${keyId}_${randomBase62(40)}`;
  const refusedCount = async (keys: string[], now?: number) =>
    (await Promise.allSettled(keys.map((k) => auth(k, now)))).filter((r) => r.status === 'rejected').length;
  const getCalls = () => ddb.commandCalls(GetCommand).length;
  const lookupItem = (over: Record<string, unknown> = {}) => ({
    apiKeyId: 'a1',
    companyId: 1,
    hash: key.hash,
    tier: 'standard',
    permissions: ['tabs.read'],
    roleId: null,
    locationIds: null,
    revoked: false,
    usageKey: null,
    ...over,
  });

  it('refuses keys that do not parse without a read, a bcrypt run or a cache entry', async () => {
    const junk = [
      ...Array.from({ length: 500 }, () => randomBase62(60)),
      ...Array.from({ length: 500 }, () => `brigade_live_${randomBase62(12).toLowerCase()}_${randomBase62(40)}`), // another stage's prefix
      `${key.plaintext}x`,
    ];
    expect(await refusedCount(junk)).toBe(junk.length);
    expect(getCalls()).toBe(0);
    expect(bcryptRuns.count).toBe(0);
    expect(keyCacheStats()).toMatchObject({ entries: 0, refusedEntries: 0 });
  });

  it('caches refusals apart: a flood of more refused keys than the cache holds does not evict a verified principal', async () => {
    // The lookup itself is stubbed here (10,500 reads through the SDK mock would take a while); the other tests read through it.
    const found = lookupItem();
    const findAuth = vi
      .spyOn(apiKeys, 'findAuth')
      .mockImplementation(async (keyId) => (keyId === key.keyId ? (found as ApiKeyAuth) : undefined));
    try {
      const t0 = Date.now();
      await auth(key.plaintext, t0);
      // Well-formed keys of keyIds that do not exist: each costs one read, then is remembered as refused.
      const flood = Array.from({ length: 10_500 }, () => forged());
      expect(await refusedCount(flood, t0)).toBe(flood.length);
      expect(keyCacheStats()).toMatchObject({ entries: 1, refusedEntries: 10_000 });
      const reads = findAuth.mock.calls.length;
      expect(reads).toBe(1 + flood.length);
      expect((await auth(key.plaintext, t0 + 1)).permissions).toEqual(['tabs.read']);
      expect(findAuth.mock.calls.length).toBe(reads); // still served from the cache: no read, no bcrypt
      expect(bcryptRuns.count).toBe(1);
      // A refused key asked again within the minute costs nothing.
      expect(await refusedCount(flood.slice(-100), t0 + 2)).toBe(100);
      expect(findAuth.mock.calls.length).toBe(reads);
    } finally {
      findAuth.mockRestore();
    }
  });

  it('refuses random secrets with a real keyId by their fingerprint, without bcrypt; the real key then verifies at once', async () => {
    ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: lookupItem({ fingerprint: key.fingerprint }) });
    const flood = Array.from({ length: 300 }, () => forged(key.keyId));
    expect(await refusedCount(flood)).toBe(flood.length);
    expect(bcryptRuns.count).toBe(0);
    // A container that never saw the real key (the worst case) lets it in on its first request.
    expect((await auth()).companyId).toBe(1);
    expect(bcryptRuns.count).toBe(1);
  });

  it('runs bcrypt at most a few times per keyId per minute for a key without a fingerprint, and never locks out a key it has verified', async () => {
    ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: lookupItem() }); // a key made before fingerprints
    const t0 = Date.now();
    await auth(key.plaintext, t0);
    expect(bcryptRuns.count).toBe(1);
    // Later, once the real key's entry is older than the TTL: a flood, all at once.
    const t1 = t0 + KEY_CACHE_TTL_MS + 1;
    expect(
      await refusedCount(
        Array.from({ length: 100 }, () => forged(key.keyId)),
        t1,
      ),
    ).toBe(100);
    expect(bcryptRuns.count).toBe(1 + BCRYPT_ATTEMPTS_PER_KEY_ID);
    // The real key is read again (revocation still bites) but needs no bcrypt: it verified against this hash before.
    const reads = lookups();
    expect((await auth(key.plaintext, t1)).companyId).toBe(1);
    expect(lookups()).toBe(reads + 1);
    expect(bcryptRuns.count).toBe(1 + BCRYPT_ATTEMPTS_PER_KEY_ID);
  });

  it('verifies a key asked by many requests at once with one read and one bcrypt run', async () => {
    ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: lookupItem({ fingerprint: key.fingerprint }) });
    const answers = await Promise.all(Array.from({ length: 3 * BCRYPT_ATTEMPTS_PER_KEY_ID }, () => auth()));
    expect(answers.every((p) => p.companyId === 1)).toBe(true);
    expect(bcryptRuns.count).toBe(1);
    expect(lookups()).toBe(1);
  });

  it("states its limit: a container that never verified a key without a fingerprint refuses it while a flood has spent the minute's bcrypt runs", async () => {
    ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: lookupItem() });
    const t0 = Date.now();
    await refusedCount(
      Array.from({ length: 20 }, () => forged(key.keyId)),
      t0,
    );
    expect(bcryptRuns.count).toBe(BCRYPT_ATTEMPTS_PER_KEY_ID);
    await expect(auth(key.plaintext, t0 + 1)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    // Not remembered as refused: once the minute is over it verifies.
    expect((await auth(key.plaintext, t0 + KEY_CACHE_TTL_MS + 1)).companyId).toBe(1);
  });

  it('reads the lookup item and the role strongly consistent: a revoked key is refused once its entry is older than the TTL', async () => {
    const t0 = Date.now();
    await auth(key.plaintext, t0);
    for (const call of ddb.commandCalls(GetCommand)) expect(call.args[0].input.ConsistentRead).toBe(true);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(2); // the lookup item, then the role
    ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: lookupItem({ revoked: true }) });
    expect((await auth(key.plaintext, t0 + KEY_CACHE_TTL_MS - 1)).companyId).toBe(1); // within the window, from the cache
    await expect(auth(key.plaintext, t0 + KEY_CACHE_TTL_MS + 1)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});

describe('a key of the admin role', () => {
  it('holds every built-in and any permission the catalog gains after it was verified', async () => {
    ddb
      .on(GetCommand, { Key: roleKey })
      .resolves({ Item: { permissionKeys: [...builtInPermissions], allPermissions: true } });
    const principal = await auth();
    expect(principal.permissions).toEqual(expect.arrayContaining([...builtInPermissions]));
    expect(holds(principal, 'loyalty_tiers.manage')).toBe(true);
    const other = { ...principal, allPermissions: undefined };
    expect(holds(other, 'loyalty_tiers.manage')).toBe(false);
  });
});
