/** API keys over HTTP (docs/access.md): plaintext once, grants, locations, revocation. */
import { beforeAll, describe, expect, it } from 'vitest';
import { isPlatformOnly } from '../../shared/auth/catalog';
import { call, company, devKeys, type Answer } from '../support/http';
import { platformOperatorRoleId, stageItems, testKey, userToken } from '../support/stage-data';

const admin = () => company(1).keys.admin;
const [here, there] = [101, 102];
const theirLocation = 103;

interface KeyOut {
  id: string;
  createdAt: string;
  keyId: string;
  prefix: string;
  name: string;
  tier: string;
  roleId: number | null;
  permissions: string[] | null;
  locationIds: number[] | null;
  revokedAt: string | null;
  version: number;
  key?: string;
}

const create = (body: Record<string, unknown>, key = admin()) => call('POST', '/api/v1/api-keys', { key, body });
const read = async (id: string, key = admin()) =>
  (await call('GET', `/api/v1/api-keys/${id}`, { key })).body.data as KeyOut;
const patch = (id: unknown, body: unknown, key = admin()) => call('PATCH', `/api/v1/api-keys/${id}`, { key, body });
const revoke = (id: unknown, key = admin()) => call('POST', `/api/v1/api-keys/${id}/revoke`, { key });
/** Every key of company 1, page by page (other test files add keys concurrently: assert by name, not by count). */
async function allKeys(): Promise<KeyOut[]> {
  const keys: KeyOut[] = [];
  let cursor: string | null = null;
  do {
    const page: Answer = await call('GET', `/api/v1/api-keys?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
      key: admin(),
    });
    keys.push(...page.body.data);
    cursor = page.body.meta.pagination.nextCursor;
  } while (cursor);
  return keys;
}
const named = async (name: unknown) => (await allKeys()).filter((k) => k.name === name);
/** The name of every key a refusal test asks for: none may exist afterwards. */
const refused = `Refused ${Math.random().toString(36).slice(2)}`;
/** A key of company 1 made over the API, with its plaintext. */
const made = async (body: Record<string, unknown> = {}) =>
  (await create({ name: 'Till', tier: 'standard', permissions: ['coursings.read'], ...body })).body.data as KeyOut & {
    key: string;
  };

const roleIds: Record<string, number> = {};
let platformOperatorRole: number;
let hostRole: number;

beforeAll(async () => {
  for (const r of (await call('GET', '/api/v1/roles?limit=1000', { key: admin() })).body.data as {
    id: number;
    name: string;
  }[])
    roleIds[r.name] = r.id;
  platformOperatorRole = await platformOperatorRoleId(1);
  const catalog = (await call('GET', '/api/v1/permissions?category=coursings', { key: admin() })).body.data as {
    id: number;
    key: string;
  }[];
  const coursingsRead = catalog.find((p) => p.key === 'coursings.read')!.id;
  hostRole = (
    await call('POST', '/api/v1/roles', {
      key: admin(),
      body: { name: 'Kitchen display', permissionIds: [coursingsRead] },
    })
  ).body.data.id;
});

describe('POST /api/v1/api-keys', () => {
  it('answers the record and, this once, the plaintext; the key works at once', async () => {
    const out = await create({
      name: 'Till 1',
      tier: 'premium',
      permissions: ['coursings.read', 'coursings.create'],
      locationIds: [here],
    });
    expect(out.status).toBe(200);
    const data = out.body.data as KeyOut;
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      keyId: expect.stringMatching(/^[a-z0-9]{12}$/),
      prefix: 'brigade_dev_',
      name: 'Till 1',
      tier: 'premium',
      roleId: null,
      permissions: ['coursings.create', 'coursings.read'],
      locationIds: [here],
      publishable: false,
      allowedOrigins: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      revokedAt: null,
      version: 1,
      key: expect.stringMatching(new RegExp(`^brigade_dev_${data.keyId}_[A-Za-z0-9]{40}$`)),
    });
    const works = await call('GET', `/api/v1/coursings?locationId=${here}`, { key: data.key });
    expect(works.status).toBe(200);
    expect(works.headers.get('x-ratelimit-limit')).toBe('10000');
    expect((await call('GET', `/api/v1/coursings?locationId=${there}`, { key: data.key })).status).toBe(403);
    const { key: _plaintext, ...record } = data;
    expect(await read(data.id)).toEqual(record); // never the plaintext again
    expect((await allKeys()).find((k) => k.id === data.id)).toEqual(record);
  });

  it("gives a key with a role the role's permissions", async () => {
    const out = await create({ name: 'Kitchen screen', tier: 'standard', roleId: hostRole });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ roleId: hostRole, permissions: null });
    expect((await call('GET', '/api/v1/coursings', { key: out.body.data.key })).status).toBe(200);
    expect((await call('GET', '/api/v1/roles', { key: out.body.data.key })).status).toBe(403);
    const readonly = await create({ name: 'Auditor', tier: 'standard', roleId: roleIds.readonly });
    expect((await call('GET', '/api/v1/roles', { key: readonly.body.data.key })).status).toBe(200);
  });

  it("limits a key made by a location-limited caller to that caller's locations", async () => {
    const limited = await testKey(1, { permissions: ['api_keys.manage', 'coursings.read'], locationIds: [here] });
    const out = await create({ name: 'Branch till', tier: 'standard', permissions: ['coursings.read'] }, limited);
    expect(out.status).toBe(200);
    expect(out.body.data.locationIds).toEqual([here]);
  });

  it.each([
    ['no name', { tier: 'standard', permissions: ['coursings.read'] }, '/name'],
    ['an empty name', { name: '', tier: 'standard', permissions: ['coursings.read'] }, '/name'],
    ['a name of 101 characters', { name: 'n'.repeat(101), tier: 'standard', permissions: ['coursings.read'] }, '/name'],
    ['no tier', { name: refused, permissions: ['coursings.read'] }, '/tier'],
    ['an unknown tier', { name: refused, tier: 'gold', permissions: ['coursings.read'] }, '/tier'],
    ['neither roleId nor permissions', { name: refused, tier: 'standard' }, '/roleId'],
    [
      'both roleId and permissions',
      { name: refused, tier: 'standard', roleId: 1, permissions: ['coursings.read'] },
      '/permissions',
    ],
    ['no permissions', { name: refused, tier: 'standard', permissions: [] }, '/permissions'],
    ['a malformed permission', { name: refused, tier: 'standard', permissions: ['Coursings.Read'] }, '/permissions/0'],
    [
      'a repeated permission',
      { name: refused, tier: 'standard', permissions: ['tabs.read', 'tabs.read'] },
      '/permissions',
    ],
    [
      '91 permissions',
      {
        name: refused,
        tier: 'standard',
        permissions: Array.from(
          { length: 91 },
          (_, i) => `p${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}.read`,
        ),
      },
      '/permissions',
    ],
    ['a roleId of 0', { name: refused, tier: 'standard', roleId: 0 }, '/roleId'],
    ['no locations', { name: refused, tier: 'standard', permissions: ['tabs.read'], locationIds: [] }, '/locationIds'],
    [
      'a location that is not a number',
      { name: refused, tier: 'standard', permissions: ['tabs.read'], locationIds: ['101'] },
      '/locationIds/0',
    ],
    [
      'an unknown field',
      { name: refused, tier: 'standard', permissions: ['tabs.read'], key: 'brigade_dev_mine' },
      '/key',
    ],
  ])('answers 400 for %s, creating nothing', async (_name, body, path) => {
    const out = await create(body);
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await named((body as { name?: string }).name)).toEqual([]);
  });

  it('accepts a 100-character name and 90 permissions', async () => {
    expect((await create({ name: 'n'.repeat(100), tier: 'standard', permissions: ['tabs.read'] })).status).toBe(200);
    const catalog = (
      (await call('GET', '/api/v1/permissions?limit=1000', { key: admin() })).body.data as {
        key: string;
        builtIn: boolean;
      }[]
    ).filter((p) => p.builtIn && !isPlatformOnly(p.key)); // the platform's are never a company's to grant (docs/access.md)
    expect(catalog.length).toBeLessThanOrEqual(90);
    expect(
      (await create({ name: 'Everything', tier: 'unlimited', permissions: catalog.map((p) => p.key) })).status,
    ).toBe(200);
  });

  it("answers 404 for unknown permissions (by index), roles and locations, and another company's role and location", async () => {
    const unknownPermissions = await create({
      name: refused,
      tier: 'standard',
      permissions: ['tabs.read', 'nowhere.read', 'nothing.manage'],
    });
    expect(unknownPermissions.status).toBe(404);
    expect(unknownPermissions.body.error.details).toEqual([
      { path: '/permissions/1', message: expect.any(String) },
      { path: '/permissions/2', message: expect.any(String) },
    ]);
    expect((await create({ name: refused, tier: 'standard', roleId: 987_654_321 })).body.error).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/roleId' }],
    });
    // The platform-operator role is an unknown role to the company (access-privileges.test.ts compares the answers).
    expect((await create({ name: refused, tier: 'standard', roleId: platformOperatorRole })).status).toBe(404);
    const theirRole = (await call('GET', '/api/v1/roles?limit=1', { key: company(2).keys.admin })).body.data[0].id;
    expect((await create({ name: refused, tier: 'standard', roleId: theirRole })).status).toBe(404);
    for (const locationId of [theirLocation, 987_654]) {
      const out = await create({
        name: refused,
        tier: 'standard',
        permissions: ['tabs.read'],
        locationIds: [here, locationId],
      });
      expect(out.status).toBe(404);
      expect(out.body.error.details).toEqual([{ path: '/locationIds/1', message: expect.any(String) }]);
    }
    expect(await named(refused)).toEqual([]);
  });

  it('answers 403 without api_keys.manage, for permissions or a role the caller lacks, a higher tier and other locations', async () => {
    const weak = await testKey(1, { permissions: ['api_keys.manage', 'tabs.read'], tier: 'premium' });
    const limited = await testKey(1, { permissions: ['api_keys.manage', 'tabs.read'], locationIds: [here] });
    expect(
      (await create({ name: refused, tier: 'standard', permissions: ['tabs.read'] }, company(1).keys.readonly)).status,
    ).toBe(403);
    const escalation = await create(
      { name: refused, tier: 'standard', permissions: ['tabs.read', 'roles.update'] },
      weak,
    );
    expect(escalation.status).toBe(403);
    expect(escalation.body.error.details).toEqual([
      { path: '/permissions/1', message: expect.stringContaining('roles.update') },
    ]);
    expect((await create({ name: refused, tier: 'standard', roleId: roleIds.admin }, weak)).status).toBe(403);
    const tier = await create({ name: refused, tier: 'unlimited', permissions: ['tabs.read'] }, weak);
    expect(tier.status).toBe(403);
    expect(tier.body.error.details).toEqual([{ path: '/tier', message: 'at most premium' }]);
    expect(
      (await create({ name: refused, tier: 'standard', permissions: ['tabs.read'], locationIds: [there] }, limited))
        .status,
    ).toBe(403);
    expect(
      (await create({ name: refused, tier: 'standard', permissions: ['tabs.read'], locationIds: null }, limited))
        .status,
    ).toBe(403);
    expect(await named(refused)).toEqual([]);
  });

  it("lets a user choose any tier: a user's own tier is only its rate window", async () => {
    const user = await userToken(1, ['api_keys.manage', 'tabs.read']);
    const out = await call('POST', '/api/v1/api-keys', {
      token: user,
      body: { name: 'From the dashboard', tier: 'unlimited', permissions: ['tabs.read'] },
    });
    expect(out.status).toBe(200);
    expect(out.body.data.tier).toBe('unlimited');
  });
});

describe('GET /api/v1/api-keys', () => {
  it("lists the company's keys, oldest first, with totals and cursors, never a plaintext or hash", async () => {
    const mine = await made({ name: 'Listed' });
    const all = await call('GET', '/api/v1/api-keys?limit=100', { key: admin() });
    expect(all.status).toBe(200);
    const items = all.body.data as KeyOut[];
    expect(items.map((k) => k.id)).toContain(mine.id);
    expect(new Set(items.slice(0, 4).map((k) => k.name))).toEqual(
      new Set(['Seeded admin key', 'Seeded read-only key', 'Seeded standard key', 'Seeded premium key']),
    );
    const created = items.map((k) => k.createdAt);
    expect(created).toEqual([...created].sort());
    expect(JSON.stringify(items)).not.toMatch(/"key":|hash|\$2[aby]\$/);
    expect(all.body.meta.pagination).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });

    const first = await call('GET', '/api/v1/api-keys?limit=2', { key: admin() });
    expect(first.body.meta.pagination.limit).toBe(2);
    const second = await call('GET', `/api/v1/api-keys?limit=2&cursor=${first.body.meta.pagination.nextCursor}`, {
      key: admin(),
    });
    expect(second.body.data.map((k: KeyOut) => k.id)).toEqual(items.slice(2, 4).map((k) => k.id));
    expect((await call('GET', '/api/v1/api-keys', { key: admin() })).body.meta.pagination.limit).toBe(20);
  });

  it.each([
    ['page 0', 'page=0', '/page'],
    ['limit 0', 'limit=0', '/limit'],
    ['limit 101', 'limit=101', '/limit'],
  ])('answers 400 for %s', async (_name, query, path) => {
    const out = await call('GET', `/api/v1/api-keys?${query}`, { key: admin() });
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('answers 403 without api_keys.read', async () => {
    expect(
      (await call('GET', '/api/v1/api-keys', { key: await testKey(1, { permissions: ['roles.read'] }) })).status,
    ).toBe(403);
  });

  it('shows each company only its own keys', async () => {
    const theirs = (
      await create({ name: 'Harbour till', tier: 'standard', permissions: ['tabs.read'] }, company(2).keys.admin)
    ).body.data as KeyOut;
    const mine = (await call('GET', '/api/v1/api-keys?limit=100', { key: admin() })).body.data as KeyOut[];
    expect(mine.map((k) => k.id)).not.toContain(theirs.id);
  });
});

describe('GET /api/v1/api-keys/{id}', () => {
  it('answers the record', async () => {
    const mine = await made();
    const out = await call('GET', `/api/v1/api-keys/${mine.id}`, { key: company(1).keys.readonly });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ id: mine.id, name: 'Till', keyId: mine.keyId });
    expect(out.body.data.key).toBeUndefined();
  });

  it("answers 400 for a malformed id, 404 for an unknown one and for another company's key", async () => {
    expect((await call('GET', '/api/v1/api-keys/123', { key: admin() })).status).toBe(400);
    expect((await call('GET', '/api/v1/api-keys/3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b', { key: admin() })).status).toBe(
      404,
    );
    const theirs = (
      await create({ name: 'Theirs', tier: 'standard', permissions: ['tabs.read'] }, company(2).keys.admin)
    ).body.data as KeyOut;
    const out = await call('GET', `/api/v1/api-keys/${theirs.id}`, { key: admin() });
    expect(out.status).toBe(404);
    expect(out.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 403 without api_keys.read', async () => {
    const mine = await made();
    expect(
      (await call('GET', `/api/v1/api-keys/${mine.id}`, { key: await testKey(1, { permissions: ['roles.read'] }) }))
        .status,
    ).toBe(403);
  });
});

describe('PATCH /api/v1/api-keys/{id}', () => {
  it('renames, re-tiers, re-limits and re-grants a key; the change bites at once', async () => {
    const mine = await made({ permissions: ['coursings.read', 'roles.read'] });
    expect((await call('GET', '/api/v1/roles', { key: mine.key })).status).toBe(200);
    const out = await patch(mine.id, {
      name: 'Renamed',
      tier: 'premium',
      permissions: ['coursings.read'],
      locationIds: [there],
    });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      id: mine.id,
      name: 'Renamed',
      tier: 'premium',
      permissions: ['coursings.read'],
      roleId: null,
      locationIds: [there],
      version: 2,
    });
    expect(await read(mine.id)).toEqual(out.body.data);
    expect((await call('GET', '/api/v1/roles', { key: mine.key })).status).toBe(403);
    const limited = await call('GET', `/api/v1/coursings?locationId=${there}`, { key: mine.key });
    expect(limited.status).toBe(200);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('10000');

    const toRole = await patch(mine.id, { roleId: roleIds.readonly, locationIds: null });
    expect(toRole.body.data).toMatchObject({
      roleId: roleIds.readonly,
      permissions: null,
      locationIds: null,
      version: 3,
    });
    expect((await call('GET', '/api/v1/roles', { key: mine.key })).status).toBe(200);
    expect((await patch(mine.id, { name: 'Renamed' })).body.data.version).toBe(3); // nothing changed, nothing written
  });

  it.each([
    ['an empty body', {}, '/'],
    ['both roleId and permissions', { roleId: 1, permissions: ['tabs.read'] }, '/roleId'],
    ['an empty name', { name: '' }, '/name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, '/name'],
    ['an unknown tier', { tier: 'gold' }, '/tier'],
    ['no permissions', { permissions: [] }, '/permissions'],
    ['no locations', { locationIds: [] }, '/locationIds'],
    ['a revokedAt', { revokedAt: null }, '/revokedAt'],
  ])('answers 400 for %s, changing nothing', async (_name, body, path) => {
    const mine = await made();
    const out = await patch(mine.id, body);
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect((await read(mine.id)).version).toBe(1);
  });

  it("answers 400 for a malformed id, 404 for an unknown one, another company's key, an unknown permission or location", async () => {
    expect((await patch('nope', { name: 'x' })).status).toBe(400);
    expect((await patch('3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b', { name: 'x' })).status).toBe(404);
    const theirs = (
      await create({ name: 'Theirs', tier: 'standard', permissions: ['tabs.read'] }, company(2).keys.admin)
    ).body.data as KeyOut;
    expect((await patch(theirs.id, { name: 'Mine now' })).status).toBe(404);
    expect((await read(theirs.id, company(2).keys.admin)).name).toBe('Theirs');
    const mine = await made();
    expect((await patch(mine.id, { permissions: ['nowhere.read'] })).body.error).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/permissions/0' }],
    });
    expect((await patch(mine.id, { locationIds: [theirLocation] })).body.error).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/locationIds/0' }],
    });
    expect((await read(mine.id)).version).toBe(1);
  });

  it('answers 403 without api_keys.manage, for escalation, and for keys or locations beyond a limited caller', async () => {
    const mine = await made();
    expect((await patch(mine.id, { name: 'x' }, company(1).keys.readonly)).status).toBe(403);
    const weak = await testKey(1, { permissions: ['api_keys.manage', 'coursings.read'], tier: 'standard' });
    expect((await patch(mine.id, { permissions: ['coursings.read', 'bookings.manage'] }, weak)).status).toBe(403);
    expect((await patch(mine.id, { tier: 'premium' }, weak)).status).toBe(403);
    const limited = await testKey(1, { permissions: ['api_keys.manage', 'coursings.read'], locationIds: [here] });
    expect((await patch(mine.id, { name: 'x' }, limited)).status).toBe(403); // mine reaches every location
    const branch = await made({ locationIds: [here] });
    expect((await patch(branch.id, { locationIds: [here, there] }, limited)).status).toBe(403);
    expect((await patch(branch.id, { name: 'Branch' }, limited)).status).toBe(200);
    expect((await read(mine.id)).version).toBe(1);
  });

  it('answers 409 for a revoked key', async () => {
    const mine = await made();
    await revoke(mine.id);
    const out = await patch(mine.id, { name: 'Back' });
    expect(out.status).toBe(409);
    expect(out.body.error.code).toBe('CONFLICT');
  });
});

describe('POST /api/v1/api-keys/{id}/revoke and DELETE /api/v1/api-keys/{id}', () => {
  it('revokes: the key answers 401 at once; revoking again answers 200 and changes nothing', async () => {
    const mine = await made();
    expect((await call('GET', '/api/v1/coursings', { key: mine.key })).status).toBe(200);
    const out = await revoke(mine.id);
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({ id: mine.id, revokedAt: expect.stringMatching(/Z$/), version: 2 });
    const refused = await call('GET', '/api/v1/coursings', { key: mine.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('UNAUTHENTICATED');
    const again = await revoke(mine.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(out.body.data);
    expect(await read(mine.id)).toEqual(out.body.data);
  });

  it('DELETE revokes the key too; the record stays', async () => {
    const mine = await made();
    const out = await call('DELETE', `/api/v1/api-keys/${mine.id}`, { key: admin() });
    expect(out.status).toBe(200);
    expect(out.body.data.revokedAt).toEqual(expect.any(String));
    expect((await call('GET', '/api/v1/coursings', { key: mine.key })).status).toBe(401);
    expect((await read(mine.id)).revokedAt).toBe(out.body.data.revokedAt);
  });

  it("answers 400 for a malformed id, 404 for an unknown one and for another company's key", async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      const path = (id: string) => (method === 'POST' ? `/api/v1/api-keys/${id}/revoke` : `/api/v1/api-keys/${id}`);
      expect((await call(method, path('x'), { key: admin() })).status).toBe(400);
      expect((await call(method, path('3f1d2c4b-5a6e-4f70-8a9b-0c1d2e3f4a5b'), { key: admin() })).status).toBe(404);
    }
    const theirs = (
      await create({ name: 'Theirs', tier: 'standard', permissions: ['roles.read'] }, company(2).keys.admin)
    ).body.data as KeyOut & { key: string };
    expect((await revoke(theirs.id)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/api-keys/${theirs.id}`, { key: admin() })).status).toBe(404);
    expect((await call('GET', '/api/v1/roles', { key: theirs.key })).status).toBe(200);
  });

  it("answers 403 without api_keys.manage and for a key beyond a limited caller's locations", async () => {
    const mine = await made();
    expect((await revoke(mine.id, company(1).keys.readonly)).status).toBe(403);
    const limited = await testKey(1, { permissions: ['api_keys.manage'], locationIds: [here] });
    expect((await revoke(mine.id, limited)).status).toBe(403);
    expect((await call('DELETE', `/api/v1/api-keys/${mine.id}`, { key: limited })).status).toBe(403);
    expect((await read(mine.id)).revokedAt).toBeNull();
  });
});

describe('the plaintext', () => {
  it('is in no item of the table: record, lookup item and events hold at most the keyId', async () => {
    const mine = await made({ name: 'Secretive' });
    await revoke(mine.id);
    const items = await stageItems();
    const dump = JSON.stringify(items);
    expect(dump).toContain(mine.keyId);
    expect(dump).not.toContain(mine.key);
    expect(dump).not.toContain(mine.key.split('_').at(-1));
    // Events only: delivery requests are outbox items too, without a payload.
    const payloads = items
      .filter((i) => i.entity === 'OUTBOX' && i.payload !== undefined)
      .map((i) => i.payload as { event: string; resourceId: string });
    const events = payloads.filter((p) => p.resourceId === mine.id).map((p) => p.event);
    expect(events.sort()).toEqual(['api-key.created', 'api-key.revoked']);
  });
});

describe('the operator token', () => {
  it('manages keys of its own company like any user', async () => {
    const out = await call('POST', '/api/v1/api-keys', {
      token: devKeys().operatorToken,
      body: { name: 'Support', tier: 'standard', permissions: ['tabs.read'] },
    });
    expect(out.status).toBe(200);
    expect((await read(out.body.data.id)).name).toBe('Support');
  });
});
