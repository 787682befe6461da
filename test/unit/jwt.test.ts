import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signLocalToken, verifyBearer } from '../../shared/auth/jwt';
import { resetConfig } from '../../shared/config';

const secret = 'unit-test-secret-unit-test-secret';
const sign = (claims: Record<string, unknown>, key = secret, exp: string | number = '1h') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(key));

function useEnv(env: Record<string, string | undefined>) {
  Object.assign(process.env, { STAGE: 'local', ...env });
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  resetConfig();
}

afterEach(() => useEnv({ JWT_SECRET: undefined, JWKS_URL: undefined }));

describe('bearer tokens', () => {
  it('accepts a local HS256 token with sub, cid, perms and exp', async () => {
    useEnv({ JWT_SECRET: secret });
    const token = await signLocalToken({ sub: '42', cid: 7, perms: ['coursings.read'] }, secret);
    expect(await verifyBearer(token)).toEqual({ sub: '42', cid: 7, perms: ['coursings.read'] });
  });

  it.each([
    ['a wrong signature', () => sign({ sub: '42', cid: 7, perms: [] }, 'another-secret-another-secret-xx')],
    ['an expired token', () => sign({ sub: '42', cid: 7, perms: [] }, secret, Math.floor(Date.now() / 1000) - 10)],
    ['a non-numeric sub', () => sign({ sub: 'alice', cid: 7, perms: [] })],
    ['a missing cid', () => sign({ sub: '42', perms: [] })],
    ['perms that are not strings', () => sign({ sub: '42', cid: 7, perms: [1] })],
    ['garbage', async () => 'not.a.jwt'],
  ])('refuses %s', async (_name, make) => {
    useEnv({ JWT_SECRET: secret });
    expect(await verifyBearer(await make())).toBeUndefined();
  });

  it('refuses HS256 tokens where a JWKS is configured (only RS256/ES256 are accepted there)', async () => {
    useEnv({ JWT_SECRET: secret, JWKS_URL: 'http://127.0.0.1:1/jwks.json' });
    const token = await sign({ sub: '42', cid: 7, perms: [] });
    expect(await verifyBearer(token)).toBeUndefined();
  });

  it('answers UNAVAILABLE, not "invalid", when the JWKS cannot be fetched', async () => {
    useEnv({ JWKS_URL: 'http://127.0.0.1:1/jwks.json' });
    const token = await new SignJWT({ cid: 7, perms: [] }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setSubject('42').setExpirationTime('1h').sign(
      (await crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify'])).privateKey,
    );
    await expect(verifyBearer(token)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});
