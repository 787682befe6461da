/**
 * Credentials and abuse over HTTP (docs/access.md, threat model, items 1, 2 and 4): each
 * test performs the attack and shows it fails. The file works in companies of its own.
 */
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signLocalToken } from '../../shared/auth/jwt';
import { DEFAULT_API_KEYS_PER_COMPANY, localTokenBinding } from '../../shared/config';
import { call, type Answer } from '../support/http';
import { freshCompany, type OwnCompany } from '../support/stage-data';

interface KeyOut {
  id: string;
  name: string;
  revokedAt: string | null;
  key?: string;
}

describe('bearer tokens of another stage or application (item 1)', () => {
  let own: OwnCompany;
  beforeAll(async () => {
    own = await freshCompany('Token binding company');
  });

  /** A token signed with this stage's own secret (the signature verifies), for the issuer and audience given. */
  const token = (binding: { issuer: string; audience: string }) =>
    signLocalToken({ sub: '6101', cid: own.companyId, perms: ['coursings.read'] }, inject('jwtSecret'), '1h', binding);
  const coursings = async (bearer: string) => call('GET', '/api/v1/coursings', { token: bearer });

  it("accepts a token bound to this stage's issuer and audience", async () => {
    expect((await coursings(await token(localTokenBinding))).status).toBe(200);
  });

  it.each([
    [
      'another application of the same identity provider (its audience)',
      { ...localTokenBinding, audience: 'urn:acme:pos' },
    ],
    ['another stage (its issuer)', { ...localTokenBinding, issuer: 'urn:brigade:dev' }],
    ['another stage (its issuer and audience)', { issuer: 'urn:brigade:prod', audience: 'urn:brigade:prod:api' }],
  ])('answers 401 to a token of %s, though its signature verifies', async (_name, binding) => {
    const out = await coursings(await token(binding));
    expect(out.status).toBe(401);
    expect(out.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('answers 401 to a token that names no audience or no issuer', async () => {
    const secret = new TextEncoder().encode(inject('jwtSecret'));
    const unbound = (claims: Record<string, string>) =>
      new SignJWT({ cid: own.companyId, perms: ['coursings.read'], ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('6101')
        .setExpirationTime('1h')
        .sign(secret);
    expect((await coursings(await unbound({ iss: localTokenBinding.issuer }))).status).toBe(401);
    expect((await coursings(await unbound({ aud: localTokenBinding.audience }))).status).toBe(401);
    expect((await coursings(await unbound({}))).status).toBe(401);
  });
});

describe("the cap on a company's API keys (item 2)", () => {
  const cap = DEFAULT_API_KEYS_PER_COMPANY; // the local stage runs with the default
  let own: OwnCompany;
  beforeAll(async () => {
    own = await freshCompany('Key cap company');
  });

  const create = (name: string): Promise<Answer> =>
    call('POST', '/api/v1/api-keys', {
      key: own.keys.admin,
      body: { name, tier: 'standard', permissions: ['coursings.read'] },
    });
  async function allKeys(): Promise<KeyOut[]> {
    const keys: KeyOut[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await call('GET', `/api/v1/api-keys?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
        key: own.keys.admin,
      });
      keys.push(...page.body.data);
      cursor = page.body.meta.pagination.nextCursor;
    } while (cursor);
    return keys;
  }
  const isCapRefusal = (a: Answer) =>
    a.status === 409 && a.body.error.code === 'CONFLICT' && a.body.error.message.includes(`${cap} live API keys`);

  it(`keeps a company at ${cap} live keys however creates race, answers 409 naming the limit, and frees a place on revocation`, {
    timeout: 600_000,
  }, async () => {
    const places = 5;
    for (let i = 0; i < cap - places; i++) expect((await create(`Filler ${i}`)).status).toBe(200);
    // The attack: three times as many concurrent creates as there are places left. Each answers 200, or 409 (the cap, or a
    // concurrent write to the counter: retry); 503 only when the machine's DynamoDB Local refuses connections under load.
    const burst = await Promise.all(Array.from({ length: 3 * places }, (_, i) => create(`Burst ${i}`)));
    const made = burst.filter((a) => a.status === 200).length;
    for (const a of burst.filter((b) => b.status !== 200))
      expect([
        [409, 'CONFLICT'],
        [503, 'UNAVAILABLE'],
      ]).toContainEqual([a.status, a.body.error.code]);
    expect(made).toBeLessThanOrEqual(places);

    // Then one at a time (nothing else in flight now) until refused for the cap.
    let refusal: Answer | undefined;
    let sequential = 0;
    while (!refusal) {
      const out = await create(`After ${sequential}`);
      if (out.status === 200) {
        sequential += 1;
        expect(made + sequential).toBeLessThanOrEqual(places);
      } else {
        expect(isCapRefusal(out), JSON.stringify(out.body)).toBe(true);
        refusal = out;
      }
    }
    expect(refusal.body.error.message).toBe(
      `This company already has ${cap} live API keys, the most it may have; revoke one before creating another`,
    );

    // Exactly `cap` made over the API, nothing half written: the company has its 2 own keys besides.
    const ours = (k: KeyOut) => /^(Filler|Burst|After) /.test(k.name);
    const keys = await allKeys();
    expect(keys.filter(ours)).toHaveLength(cap);
    expect(keys).toHaveLength(cap + 2);
    expect(keys.filter((k) => k.revokedAt === null)).toHaveLength(cap + 2);

    // A revoked key no longer counts: one more fits, then the cap holds again.
    const victim = keys.find(ours)!;
    expect((await call('POST', `/api/v1/api-keys/${victim.id}/revoke`, { key: own.keys.admin })).status).toBe(200);
    expect((await create('In its place')).status).toBe(200);
    expect(isCapRefusal(await create('One too many'))).toBe(true);
    expect((await allKeys()).filter((k) => k.revokedAt === null)).toHaveLength(cap + 2);
  });

  it('counts per company: another company is not refused', async () => {
    const other = await freshCompany('Key cap neighbour');
    const out = await call('POST', '/api/v1/api-keys', {
      key: other.keys.admin,
      body: { name: 'Next door', tier: 'standard', permissions: ['coursings.read'] },
    });
    expect(out.status).toBe(200);
  });
});

describe('the key cache (item 4)', () => {
  let own: OwnCompany;
  beforeAll(async () => {
    own = await freshCompany('Key cache company');
  });

  it('lets a new key in at once and refuses a revoked one at once, whatever was asked before', async () => {
    const out = await call('POST', '/api/v1/api-keys', {
      key: own.keys.admin,
      body: { name: 'Fresh', tier: 'standard', permissions: ['coursings.read'] },
    });
    const fresh = out.body.data as KeyOut & { key: string };
    // Wrong secrets for the new key's keyId first: they must not stand in the real key's way.
    const keyId = fresh.key.split('_')[2]!;
    for (let i = 0; i < 3; i++)
      expect(
        (await call('GET', '/api/v1/coursings', { key: `brigade_dev_${keyId}_${'A'.repeat(39)}${i}` })).status,
      ).toBe(401);
    expect((await call('GET', '/api/v1/coursings', { key: fresh.key })).status).toBe(200);
    expect((await call('POST', `/api/v1/api-keys/${fresh.id}/revoke`, { key: own.keys.admin })).status).toBe(200);
    expect((await call('GET', '/api/v1/coursings', { key: fresh.key })).status).toBe(401);
  });

  it('answers 401 to keys that do not parse, whatever their length', async () => {
    for (const junk of ['x', 'brigade_dev_', `brigade_live_abcdefabcdef_${'A'.repeat(40)}`, 'k'.repeat(4096)]) {
      const out = await call('GET', '/api/v1/coursings', { key: junk });
      expect(out.status).toBe(401);
      expect(out.body.error.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('a credential sent to a path no operation has', () => {
  it("is verified by the fallback (its lookup and its role's item read) before the 404", async () => {
    const own = await freshCompany('Fallback credential company');
    const admin = own.keys.admin;
    const roles = (await call('GET', '/api/v1/roles?limit=1000', { key: admin })).body.data as {
      id: number;
      name: string;
    }[];
    // A new key with a role, sent nowhere else first: no cache in this process holds its principal.
    const made = await call('POST', '/api/v1/api-keys', {
      key: admin,
      body: { name: 'Role key for the fallback', tier: 'standard', roleId: roles[0]!.id },
    });
    expect(made.status).toBe(200);
    const out = await call('GET', '/api/v1/no-such-resource', { key: made.body.data.key as string });
    expect(out.status).toBe(404);
    expect(out.body.error.code).toBe('NOT_FOUND');
  });
});
