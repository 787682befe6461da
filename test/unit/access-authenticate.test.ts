/** Authenticating API keys with roles, and dropping a changed key from the verified-key cache. */
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../shared/auth/apiKey';
import { authenticate, clearKeyCache, forgetApiKey, KEY_CACHE_TTL_MS } from '../../shared/auth/authenticate';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);

let key: { plaintext: string; hash: string; keyId: string };
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
  ddb.on(GetCommand).resolves({});
  const item = { apiKeyId: 'a1', companyId: 1, hash: key.hash, tier: 'standard', permissions: [], roleId: 7, locationIds: null, revoked: false, usageKey: null };
  ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: item });
  ddb.on(GetCommand, { Key: roleKey }).resolves({ Item: { permissionKeys: ['roles.read', 'coursings.read'] } });
});

describe('a key with a role', () => {
  it('holds the role\'s permissions, read with one GetItem of the role', async () => {
    expect((await auth()).permissions).toEqual(['roles.read', 'coursings.read']);
    expect(ddb.commandCalls(GetCommand, { Key: roleKey })).toHaveLength(1);
  });

  it('sees a change of its role once its cache entry is older than 60 s', async () => {
    const t0 = Date.now();
    await auth(key.plaintext, t0);
    ddb.on(GetCommand, { Key: roleKey }).resolves({ Item: { permissionKeys: ['roles.read'] } });
    expect((await auth(key.plaintext, t0 + KEY_CACHE_TTL_MS - 1)).permissions).toEqual(['roles.read', 'coursings.read']);
    expect((await auth(key.plaintext, t0 + KEY_CACHE_TTL_MS + 1)).permissions).toEqual(['roles.read']);
  });
});

describe('forgetting a key', () => {
  it('makes the next request verify the key again', async () => {
    await auth();
    await auth();
    expect(lookups()).toBe(1);
    forgetApiKey(key.keyId);
    ddb.on(GetCommand, { Key: lookupKey() }).resolves({ Item: { apiKeyId: 'a1', companyId: 1, hash: key.hash, revoked: true } });
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
