import { describe, expect, it } from 'vitest';
import { BCRYPT_COST, generateApiKey, hashCost, keyPrefix, parseApiKey, verifyApiKey } from '../../shared/auth/apiKey';
import { wrongByOne } from '../support/wrong-key';

describe('API key format', () => {
  it('uses brigade_live_ only on the production stage', () => {
    expect(keyPrefix('prod')).toBe('brigade_live_');
    expect(keyPrefix('dev')).toBe('brigade_dev_');
    expect(keyPrefix('local')).toBe('brigade_dev_');
  });

  it("generates <prefix><12 a-z0-9>_<40 base62>, under bcrypt's 72-byte limit, verifiable", async () => {
    const key = await generateApiKey('dev');
    expect(key.plaintext).toMatch(/^brigade_dev_[a-z0-9]{12}_[A-Za-z0-9]{40}$/);
    expect(key.plaintext.startsWith(`brigade_dev_${key.keyId}_`)).toBe(true);
    expect(Buffer.byteLength(key.plaintext)).toBeLessThanOrEqual(72);
    expect(key.hash).toMatch(/^\$2[aby]\$1\d\$/); // bcrypt, cost 10 or more
    expect(await verifyApiKey(key.plaintext, key.hash)).toBe(true);
    expect(await verifyApiKey(wrongByOne(key.plaintext), key.hash)).toBe(false);
  });

  it('hashes at cost 10 on deployed stages whatever the environment says; the local stage may lower it to 4', () => {
    expect(BCRYPT_COST).toBe(10);
    for (const stage of ['dev', 'prod'] as const) expect(hashCost(stage, { API_KEY_HASH_COST: '4' })).toBe(10);
    expect(hashCost('local', {})).toBe(10);
    expect(hashCost('local', { API_KEY_HASH_COST: '4' })).toBe(4);
    for (const bad of ['3', '11', '4.5', 'four'])
      expect(() => hashCost('local', { API_KEY_HASH_COST: bad }), bad).toThrow(/from 4 to 10/);
  });

  it('parses well-formed keys of its own environment only', () => {
    const secret = 'A'.repeat(40);
    expect(parseApiKey(`brigade_dev_abcdef012345_${secret}`, 'dev')).toEqual({
      environment: 'dev',
      keyId: 'abcdef012345',
    });
    expect(parseApiKey(`brigade_live_abcdef012345_${secret}`, 'prod')).toEqual({
      environment: 'live',
      keyId: 'abcdef012345',
    });
    expect(parseApiKey(`brigade_live_abcdef012345_${secret}`, 'dev')).toBeUndefined();
    expect(parseApiKey(`brigade_dev_abcdef012345_${secret}`, 'prod')).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['wrong service', `acme_dev_abcdef012345_${'A'.repeat(40)}`],
    ['short keyId', `brigade_dev_abcdef01234_${'A'.repeat(40)}`],
    ['upper-case keyId', `brigade_dev_ABCDEF012345_${'A'.repeat(40)}`],
    ['short secret', `brigade_dev_abcdef012345_${'A'.repeat(39)}`],
    ['long secret', `brigade_dev_abcdef012345_${'A'.repeat(41)}`],
    ['symbol in secret', `brigade_dev_abcdef012345_${'A'.repeat(39)}-`],
    ['trailing space', `brigade_dev_abcdef012345_${'A'.repeat(40)} `],
  ])('rejects a malformed key: %s', (_name, value) => {
    expect(parseApiKey(value, 'dev')).toBeUndefined();
  });
});
