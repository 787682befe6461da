import { createServer, type Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signLocalToken, verifyBearer } from '../../shared/auth/jwt';
import { localTokenBinding, resetConfig } from '../../shared/config';

const secret = 'unit-test-secret-unit-test-secret';
/** An HS256 token bound to the local stage unless `claims` says otherwise (`iss`/`aud` undefined: left out). */
const sign = (claims: Record<string, unknown>, key = secret, exp: string | number = '1h') =>
  new SignJWT(
    Object.fromEntries(
      Object.entries({ iss: localTokenBinding.issuer, aud: localTokenBinding.audience, ...claims }).filter(
        ([, v]) => v !== undefined,
      ),
    ),
  )
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(key));

const bindingVars = {
  JWT_SECRET: undefined,
  JWKS_URL: undefined,
  JWT_ISSUER: undefined,
  JWT_AUDIENCE: undefined,
  STAGE: 'local',
};
function useEnv(env: Record<string, string | undefined>) {
  const all = { ...bindingVars, ...env };
  for (const [k, v] of Object.entries(all)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetConfig();
}

afterEach(() => useEnv({}));

describe('bearer tokens', () => {
  it("accepts a local HS256 token with sub, cid, perms, exp and the local stage's iss and aud", async () => {
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
    // docs/access.md, threat model, item 1: a token whose signature verifies but that was issued for someone else.
    ["another application's audience", () => sign({ sub: '42', cid: 7, perms: [], aud: 'urn:acme:pos' })],
    ['another issuer', () => sign({ sub: '42', cid: 7, perms: [], iss: 'urn:brigade:dev' })],
    ['no audience', () => sign({ sub: '42', cid: 7, perms: [], aud: undefined })],
    ['no issuer', () => sign({ sub: '42', cid: 7, perms: [], iss: undefined })],
  ])('refuses %s', async (_name, make) => {
    useEnv({ JWT_SECRET: secret });
    expect(await verifyBearer(await make())).toBeUndefined();
  });

  it('binds the local stage to its own issuer and audience, which any stage may override', async () => {
    useEnv({ JWT_SECRET: secret, JWT_ISSUER: 'urn:test:issuer', JWT_AUDIENCE: 'urn:test:api' });
    const claims = { sub: '42', cid: 7, perms: [] };
    expect(await verifyBearer(await signLocalToken(claims, secret))).toBeUndefined();
    expect(
      await verifyBearer(
        await signLocalToken(claims, secret, '1h', { issuer: 'urn:test:issuer', audience: 'urn:test:api' }),
      ),
    ).toEqual(claims);
  });

  it('accepts no token at all on a deployed stage whose issuer or audience is not configured', async () => {
    const claims = { sub: '42', cid: 7, perms: [] };
    for (const missing of ['JWT_ISSUER', 'JWT_AUDIENCE']) {
      useEnv({ STAGE: 'dev', JWT_SECRET: secret, JWT_ISSUER: 'urn:x', JWT_AUDIENCE: 'urn:y', [missing]: undefined });
      expect(
        await verifyBearer(await signLocalToken(claims, secret, '1h', { issuer: 'urn:x', audience: 'urn:y' })),
      ).toBeUndefined();
    }
    useEnv({ STAGE: 'dev', JWT_SECRET: secret, JWT_ISSUER: 'urn:x', JWT_AUDIENCE: 'urn:y' });
    expect(
      await verifyBearer(await signLocalToken(claims, secret, '1h', { issuer: 'urn:x', audience: 'urn:y' })),
    ).toEqual(claims);
  });

  it('refuses HS256 tokens where a JWKS is configured (only RS256/ES256 are accepted there)', async () => {
    useEnv({ JWT_SECRET: secret, JWKS_URL: 'http://127.0.0.1:1/jwks.json' });
    const token = await sign({ sub: '42', cid: 7, perms: [] });
    expect(await verifyBearer(token)).toBeUndefined();
  });

  it('answers UNAVAILABLE, not "invalid", when the JWKS cannot be fetched', async () => {
    useEnv({ JWKS_URL: 'http://127.0.0.1:1/jwks.json' });
    const token = await new SignJWT({
      cid: 7,
      perms: [],
      iss: localTokenBinding.issuer,
      aud: localTokenBinding.audience,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('42')
      .setExpirationTime('1h')
      .sign(
        (
          await crypto.subtle.generateKey(
            {
              name: 'RSASSA-PKCS1-v1_5',
              modulusLength: 2048,
              publicExponent: new Uint8Array([1, 0, 1]),
              hash: 'SHA-256',
            },
            true,
            ['sign', 'verify'],
          )
        ).privateKey,
      );
    await expect(verifyBearer(token)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('bearer tokens of an identity provider shared with other stages and applications (JWKS)', () => {
  const idp = { issuer: 'https://id.example/', audience: 'https://api.brigade.example/dev' };
  let server: Server;
  let jwksUrl: string;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwks = JSON.stringify({
      keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' }],
    });
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    jwksUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  /** A token the provider signed with its one key, for the given issuer and audience. */
  const issued = (iss: string, aud: string) =>
    new SignJWT({ cid: 7, perms: ['coursings.read'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-1' })
      .setSubject('42')
      .setIssuer(iss)
      .setAudience(aud)
      .setExpirationTime('1h')
      .sign(privateKey);

  it("accepts a token issued for this stage's API only", async () => {
    useEnv({ STAGE: 'dev', JWKS_URL: jwksUrl, JWT_ISSUER: idp.issuer, JWT_AUDIENCE: idp.audience });
    expect(await verifyBearer(await issued(idp.issuer, idp.audience))).toEqual({
      sub: '42',
      cid: 7,
      perms: ['coursings.read'],
    });
    // The same provider, the same signing key: issued to the production stage, to another app, by another tenant of the provider.
    expect(await verifyBearer(await issued(idp.issuer, 'https://api.brigade.example/prod'))).toBeUndefined();
    expect(await verifyBearer(await issued(idp.issuer, 'https://pos.acme.example/'))).toBeUndefined();
    expect(await verifyBearer(await issued('https://id.example/other-tenant/', idp.audience))).toBeUndefined();
  });
});
