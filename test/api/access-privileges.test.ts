/**
 * Privilege boundaries over HTTP (docs/access.md, threat model, items 6, 9 and 10): each
 * test performs the attack and shows it fails. The file works in a company of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { builtInPermissions } from '../../shared/auth/catalog';
import { call, devKeys, type Answer } from '../support/http';
import { freshCompany, platformOperatorRoleId, testKey, userToken, type OwnCompany } from '../support/stage-data';

interface KeyOut {
  id: string;
  keyId: string;
  tier: string;
  roleId: number | null;
  permissions: string[] | null;
  revokedAt: string | null;
  version: number;
  key: string;
}
interface RoleOut {
  id: number;
  name: string;
  permissionIds: number[];
  version: number;
}

let own: OwnCompany;
/** Role ids of the company by name, and permission ids by key. */
const roleIds: Record<string, number> = {};
const permissionIds: Record<string, number> = {};
let platformOperatorRole: number;

const admin = () => own.keys.admin;
const operator = () => devKeys().operatorToken;
const roles = async (key = admin()) => (await call('GET', '/api/v1/roles?limit=1000', { key })).body.data as RoleOut[];
const readKey = async (id: string) =>
  (await call('GET', `/api/v1/api-keys/${id}`, { key: admin() })).body.data as KeyOut;
/** A key made by the company's admin over the API. */
async function keyOf(body: Record<string, unknown>): Promise<KeyOut> {
  const out = await call('POST', '/api/v1/api-keys', {
    key: admin(),
    body: { name: 'Target', tier: 'standard', ...body },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}
const works = async (key: string) => (await call('GET', '/api/v1/coursings', { key })).status;

beforeAll(async () => {
  own = await freshCompany('Privileges company');
  for (const r of await roles()) roleIds[r.name] = r.id;
  for (const p of (await call('GET', '/api/v1/permissions?limit=1000', { key: admin() })).body.data as {
    id: number;
    key: string;
  }[])
    permissionIds[p.key] = p.id;
  platformOperatorRole = await platformOperatorRoleId(own.companyId);
});

describe('no change of a key or role by a weaker credential (item 6)', () => {
  /** A premium key that may manage keys and read coursings, and nothing else. */
  let weak: string;
  beforeAll(async () => {
    weak = await testKey(own.companyId, {
      permissions: ['api_keys.manage', 'api_keys.read', 'coursings.read'],
      tier: 'premium',
    });
  });

  it('refuses to rename, re-grant, revoke or delete a key holding a permission the caller lacks (403 naming it), changing nothing', async () => {
    const target = await keyOf({ permissions: ['coursings.read', 'bookings.manage'] });
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/api-keys/${target.id}`, { name: 'Hijacked' }],
      // Narrowing the stronger key to what the caller holds would strip it: refused too.
      ['PATCH', `/api/v1/api-keys/${target.id}`, { permissions: ['coursings.read'] }],
      ['POST', `/api/v1/api-keys/${target.id}/revoke`, undefined],
      ['DELETE', `/api/v1/api-keys/${target.id}`, undefined],
    ] as const) {
      const out = await call(method, path, { key: weak, body });
      expect(out.status, `${method} ${path}`).toBe(403);
      expect(out.body.error.code).toBe('FORBIDDEN');
      expect(out.body.error.message).toContain('bookings.manage');
      expect(out.body.error.details).toEqual([
        { path: '/permissions', message: 'holds bookings.manage, which this credential does not hold' },
      ]);
    }
    const { key: _plaintext, ...record } = target;
    expect(await readKey(target.id)).toEqual(record);
    expect(await works(target.key)).toBe(200);
  });

  it("refuses to change or revoke a key on a higher tier than the calling key's", async () => {
    const target = await keyOf({ tier: 'unlimited', permissions: ['coursings.read'] });
    const out = await call('POST', `/api/v1/api-keys/${target.id}/revoke`, { key: weak });
    expect(out.status).toBe(403);
    expect(out.body.error.message).toContain('unlimited tier');
    expect(out.body.error.details).toEqual([
      { path: '/tier', message: "the key is on the unlimited tier, above this credential's premium" },
    ]);
    expect(
      (await call('PATCH', `/api/v1/api-keys/${target.id}`, { key: weak, body: { tier: 'standard' } })).status,
    ).toBe(403);
    expect(await readKey(target.id)).toMatchObject({ tier: 'unlimited', revokedAt: null, version: 1 });
  });

  it("judges a key with a role by the role's permissions as they are: the admin role holds everything", async () => {
    const readonly = await keyOf({ roleId: roleIds.readonly });
    const adminKey = await keyOf({ tier: 'premium', roleId: roleIds.admin });
    for (const target of [readonly, adminKey]) {
      const out = await call('POST', `/api/v1/api-keys/${target.id}/revoke`, { key: weak });
      expect(out.status).toBe(403);
      expect(out.body.error.details.length).toBeGreaterThan(1);
      expect(out.body.error.details.every((d: { path: string }) => d.path === '/roleId')).toBe(true);
      expect((await readKey(target.id)).revokedAt).toBeNull();
    }
    // A key whose every permission the caller holds, at a tier no higher than its own, it may manage.
    const covered = await keyOf({ tier: 'premium', permissions: ['coursings.read'] });
    expect(
      (await call('PATCH', `/api/v1/api-keys/${covered.id}`, { key: weak, body: { name: 'Renamed' } })).status,
    ).toBe(200);
    expect((await call('POST', `/api/v1/api-keys/${covered.id}/revoke`, { key: weak })).status).toBe(200);
    expect(await works(covered.key)).toBe(401);
  });

  it('binds users by permissions too (not by tier): a dashboard user cannot revoke a key holding more than it does', async () => {
    const user = await userToken(own.companyId, ['api_keys.manage', 'coursings.read'], '6201');
    const target = await keyOf({ tier: 'unlimited', permissions: ['coursings.read', 'webhooks.manage'] });
    const refused = await call('POST', `/api/v1/api-keys/${target.id}/revoke`, { token: user });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual([
      { path: '/permissions', message: 'holds webhooks.manage, which this credential does not hold' },
    ]);
    const within = await keyOf({ tier: 'unlimited', permissions: ['coursings.read'] });
    expect((await call('POST', `/api/v1/api-keys/${within.id}/revoke`, { token: user })).status).toBe(200);
  });

  it('refuses to update a role holding a permission the caller lacks, changing nothing', async () => {
    const strong = (
      await call('POST', '/api/v1/roles', {
        key: admin(),
        body: {
          name: 'Floor manager',
          permissionIds: [permissionIds['coursings.read'], permissionIds['bookings.manage']],
        },
      })
    ).body.data as RoleOut;
    const roleEditor = await testKey(own.companyId, { permissions: ['roles.read', 'roles.update', 'coursings.read'] });
    for (const body of [{ name: 'Mine now' }, { permissionIds: [permissionIds['coursings.read']] }]) {
      const out = await call('PUT', `/api/v1/roles/${strong.id}`, { key: roleEditor, body });
      expect(out.status).toBe(403);
      expect(out.body.error.details).toEqual([
        { path: '/permissionIds', message: 'holds bookings.manage, which this credential does not hold' },
      ]);
    }
    expect((await roles()).find((r) => r.id === strong.id)).toEqual(strong);
    const weakRole = (
      await call('POST', '/api/v1/roles', {
        key: admin(),
        body: { name: 'Menu reader', permissionIds: [permissionIds['coursings.read']] },
      })
    ).body.data as RoleOut;
    expect(
      (await call('PUT', `/api/v1/roles/${weakRole.id}`, { key: roleEditor, body: { name: 'Menu viewer' } })).status,
    ).toBe(200);
  });
});

describe('the platform-operator role is an unknown role to the company (item 9)', () => {
  const unknownRole = 987_654_321;
  /** The error of an answer with the role id it names replaced, and the status: what a caller can tell apart. */
  const seen = (a: Answer, id: number) => ({
    status: a.status,
    error: JSON.parse(JSON.stringify(a.body?.error ?? null).replaceAll(String(id), '<id>')),
  });

  it.each([
    ['GET /api/v1/roles/{id}', 'GET', undefined],
    ['PUT /api/v1/roles/{id}', 'PUT', { name: 'Mine' }],
    ['PUT /api/v1/roles/{id} naming an unknown permission', 'PUT', { permissionIds: [987_654_322] }],
    ['DELETE /api/v1/roles/{id}', 'DELETE', undefined],
  ] as const)('%s answers its id exactly as an unknown id', async (_name, method, body) => {
    const hidden = await call(method, `/api/v1/roles/${platformOperatorRole}`, { key: admin(), body });
    const unknown = await call(method, `/api/v1/roles/${unknownRole}`, { key: admin(), body });
    expect(seen(hidden, platformOperatorRole)).toEqual(seen(unknown, unknownRole));
    expect([404, 405]).toContain(hidden.status); // GET and DELETE of one role are no operations of this API
  });

  it('answers a key given it, on creation and on change, exactly as a key given an unknown role', async () => {
    const target = await keyOf({ permissions: ['coursings.read'] });
    const create = (roleId: number) =>
      call('POST', '/api/v1/api-keys', { key: admin(), body: { name: 'Operator', tier: 'standard', roleId } });
    const change = (roleId: number) =>
      call('PATCH', `/api/v1/api-keys/${target.id}`, { key: admin(), body: { roleId } });
    for (const attempt of [create, change]) {
      const hidden = await attempt(platformOperatorRole);
      expect(hidden.status).toBe(404);
      expect(seen(hidden, platformOperatorRole)).toEqual(seen(await attempt(unknownRole), unknownRole));
    }
    expect(await readKey(target.id)).toMatchObject({ roleId: null, version: 1 });
    const keys = (await call('GET', '/api/v1/api-keys?limit=100', { key: admin() })).body.data as KeyOut[];
    expect(keys.map((k) => k.roleId)).not.toContain(platformOperatorRole);
  });

  it('stays hidden from the role list; internal operators still see it as a role they cannot change', async () => {
    expect((await roles()).map((r) => r.id)).not.toContain(platformOperatorRole);
    // An operator of the platform, acting in its own company (1), on company 1's hidden role.
    const operatorsOwn = await platformOperatorRoleId(1);
    expect(
      (await call('PUT', `/api/v1/roles/${operatorsOwn}`, { token: operator(), body: { name: 'Mine' } })).status,
    ).toBe(403);
  });
});

describe('the admin role holds every permission, including ones the platform adds later (item 10)', () => {
  it('lets admin keys grant a permission an operator made a moment ago, and lists it under the admin role', async () => {
    const word = Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
    const made = await call('POST', '/api/v1/permissions', {
      token: operator(),
      body: { key: `${word}.manage`, name: 'Manage loyalty tiers' },
    });
    expect(made.status).toBe(200);
    const permission = made.body.data as { id: number; key: string };

    // At once, with the admin key already verified and cached before the permission existed.
    const role = await call('POST', '/api/v1/roles', {
      key: admin(),
      body: { name: 'Loyalty desk', permissionIds: [permission.id, permissionIds['coursings.read']] },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    const key = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Loyalty sync', tier: 'standard', permissions: [permission.key] },
    });
    expect(key.status, JSON.stringify(key.body)).toBe(200);

    // A key holding every built-in permission, but not the admin role, holds only what it was given.
    const everyBuiltIn = await testKey(own.companyId, { permissions: [...builtInPermissions] });
    const escalation = await call('POST', '/api/v1/roles', {
      key: everyBuiltIn,
      body: { name: 'Not mine to give', permissionIds: [permission.id] },
    });
    expect(escalation.status).toBe(403);
    expect(escalation.body.error.details).toEqual([
      { path: '/permissionIds/0', message: `grants ${permission.key}, which this credential does not hold` },
    ]);
    // Nor may it hand out the admin role, which holds the new permission too.
    expect(
      (
        await call('POST', '/api/v1/api-keys', {
          key: everyBuiltIn,
          body: { name: 'Admin by the back door', tier: 'standard', roleId: roleIds.admin },
        })
      ).status,
    ).toBe(403);

    const listed = (await roles()).find((r) => r.name === 'admin')!;
    expect(listed.permissionIds).toEqual(
      expect.arrayContaining([permission.id, ...builtInPermissions.map((k) => permissionIds[k])]),
    );
    expect(listed.permissionIds).toEqual([...listed.permissionIds].sort((a, b) => a - b));
    // Other system roles keep exactly what they were seeded with.
    expect((await roles()).find((r) => r.name === 'manager')!.permissionIds).not.toContain(permission.id);
  });
});

describe("no grant of the platform's permissions by a company", () => {
  const platform = ['companies.read', 'companies.create', 'companies.manage', 'permissions.create'];
  const refusedNaming = (out: Answer, keys: string[]) => {
    expect(out.status, JSON.stringify(out.body)).toBe(403);
    expect(out.body.error.code).toBe('FORBIDDEN');
    for (const key of keys) expect(out.body.error.message).toContain(key);
    expect(out.body.error.details.map((d: { message: string }) => d.message)).toEqual(
      keys.map((key) => `${key} is granted only by the platform`),
    );
  };
  const keyCount = async () => {
    const out = await call('GET', '/api/v1/api-keys?limit=1', { key: admin() });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    return out.body.meta.pagination.total as number;
  };

  it('refuses them in a new role or a role update (403 naming them), nothing written', async () => {
    const before = await roles();
    for (const keys of [platform, ['permissions.update', 'permissions.delete']]) {
      const out = await call('POST', '/api/v1/roles', {
        key: admin(),
        body: {
          name: 'Shadow operator',
          permissionIds: [permissionIds['coursings.read'], ...keys.map((k) => permissionIds[k])],
        },
      });
      refusedNaming(out, keys);
      expect(out.body.error.details.map((d: { path: string }) => d.path)).toEqual(
        keys.map((_, i) => `/permissionIds/${i + 1}`),
      );
    }
    expect(await roles()).toEqual(before);

    const mine = (
      await call('POST', '/api/v1/roles', {
        key: admin(),
        body: { name: 'Front desk', permissionIds: [permissionIds['coursings.read']] },
      })
    ).body.data as RoleOut;
    const out = await call('PUT', `/api/v1/roles/${mine.id}`, {
      key: admin(),
      body: { name: 'Escalated', permissionIds: [permissionIds['coursings.read'], permissionIds['companies.create']] },
    });
    refusedNaming(out, ['companies.create']);
    expect((await roles()).find((r) => r.id === mine.id)).toEqual(mine);
  });

  it('refuses them in a new API key or a key update (403 naming them), nothing written', async () => {
    const before = await keyCount();
    const created = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Shadow operator', tier: 'standard', permissions: ['coursings.read', ...platform] },
    });
    refusedNaming(created, platform);
    expect(await keyCount()).toBe(before);

    const target = await keyOf({ permissions: ['coursings.read'] });
    const changed = await call('PATCH', `/api/v1/api-keys/${target.id}`, {
      key: admin(),
      body: { permissions: ['coursings.read', 'permissions.delete', 'companies.manage'] },
    });
    refusedNaming(changed, ['permissions.delete', 'companies.manage']);
    const { key: _secret, ...shown } = target;
    expect(await readKey(target.id)).toEqual(expect.objectContaining({ ...shown, permissions: ['coursings.read'] }));
  });

  it('still gives a key the admin role, which holds every permission by design', async () => {
    const out = await call('POST', '/api/v1/api-keys', {
      key: admin(),
      body: { name: 'Second admin', tier: 'standard', roleId: roleIds.admin },
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
  });

  it('a key listing companies.read (made before the grant was refused) subscribes to no platform event', async () => {
    const listed = await testKey(own.companyId, {
      permissions: ['webhooks.manage', 'coursings.read', 'companies.read'],
    });
    const named = await call('POST', '/api/v1/webhooks/subscriptions', {
      key: listed,
      body: { url: 'http://127.0.0.1:9/hook', events: ['company.created'] },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(403);
    expect(named.body.error.details).toEqual([{ path: '/events/0', message: 'needs companies.read' }]);
    const every = await call('POST', '/api/v1/webhooks/subscriptions', {
      key: listed,
      body: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(every.status, JSON.stringify(every.body)).toBe(200);
    expect(every.body.data.events).not.toContain('company.created');
    expect(every.body.data.events).toContain('coursing.created');
  });
});
