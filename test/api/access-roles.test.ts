/** Roles over HTTP (docs/access.md): listing without the hidden role, creation, updates and their refusals. */
import { beforeAll, describe, expect, it } from 'vitest';
import { readPermissions } from '../../shared/auth/catalog';
import { call, company, devKeys } from '../support/http';
import { platformOperatorRoleId, testKey } from '../support/stage-data';

const admin = () => company(1).keys.admin;
const operator = () => devKeys().operatorToken;

interface RoleOut {
  id: number;
  name: string;
  description: string | null;
  permissionIds: number[];
  isSystem: boolean;
  version: number;
}

const list = async (key = admin()) => (await call('GET', '/api/v1/roles?limit=1000', { key })).body.data as RoleOut[];
const listed = async (id: number, key = admin()) => (await list(key)).find((r) => r.id === id);
const create = (body: Record<string, unknown>, key = admin()) => call('POST', '/api/v1/roles', { key, body });
const update = (id: unknown, body: unknown, key = admin()) => call('PUT', `/api/v1/roles/${id}`, { key, body });

/** Permission ids by key, from the catalog, and the built-in reads in key order. */
let ids: Record<string, number>;
let builtInReads: number[];
/** The hidden role of company 1, found in the table: no API shows it. */
let platformOperatorRole: number;

beforeAll(async () => {
  const catalog = (await call('GET', '/api/v1/permissions?limit=1000', { key: admin() })).body.data as {
    id: number;
    key: string;
    builtIn: boolean;
  }[];
  ids = Object.fromEntries(catalog.map((p) => [p.key, p.id]));
  // Every built-in read a company's credentials may hold: not the platform's companies.read (docs/onboarding.md).
  builtInReads = catalog.filter((p) => p.builtIn && readPermissions().includes(p.key)).map((p) => p.id);
  platformOperatorRole = await platformOperatorRoleId(1);
});

describe('GET /api/v1/roles', () => {
  it("lists the company's system roles and its own, never the platform-operator role", async () => {
    const out = await call('GET', '/api/v1/roles?limit=1000', { key: admin() });
    expect(out.status).toBe(200);
    const names = (out.body.data as RoleOut[]).map((r) => r.name);
    expect(names.slice(0, 4)).toEqual(['admin', 'manager', 'staff', 'readonly']);
    expect(names).not.toContain('platform-operator');
    expect((out.body.data as RoleOut[]).map((r) => r.id)).not.toContain(platformOperatorRole);
    expect(out.body.meta.pagination).toMatchObject({ page: 1, limit: 1000, total: out.body.data.length });
    const readonly = (out.body.data as RoleOut[]).find((r) => r.name === 'readonly')!;
    expect(readonly).toEqual({
      id: expect.any(Number),
      name: 'readonly',
      description: null,
      permissionIds: builtInReads,
      isSystem: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
  });

  it('pages by 50 by default, and by cursor', async () => {
    const first = await call('GET', '/api/v1/roles?limit=2', { key: admin() });
    expect(first.body.data.map((r: RoleOut) => r.name)).toEqual(['admin', 'manager']);
    const next = await call('GET', `/api/v1/roles?limit=2&cursor=${first.body.meta.pagination.nextCursor}`, {
      key: admin(),
    });
    expect(next.body.data.map((r: RoleOut) => r.name)).toEqual(['staff', 'readonly']);
    expect((await call('GET', '/api/v1/roles', { key: admin() })).body.meta.pagination.limit).toBe(50);
  });

  it.each([
    ['page 0', 'page=0', '/page'],
    ['limit 0', 'limit=0', '/limit'],
    ['limit 1001', 'limit=1001', '/limit'],
  ])('answers 400 for %s', async (_name, query, path) => {
    const out = await call('GET', `/api/v1/roles?${query}`, { key: admin() });
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('answers 403 without roles.read', async () => {
    expect(
      (await call('GET', '/api/v1/roles', { key: await testKey(1, { permissions: ['coursings.read'] }) })).status,
    ).toBe(403);
  });

  it('shows each company only its own roles', async () => {
    const theirs = (await create({ name: 'Harbour only', permissionIds: [] }, company(2).keys.admin)).body
      .data as RoleOut;
    expect((await list()).map((r) => r.id)).not.toContain(theirs.id);
    expect((await list(company(2).keys.admin)).map((r) => r.id)).toContain(theirs.id);
  });
});

describe('POST /api/v1/roles', () => {
  it('creates a role of the company with the permissions named', async () => {
    const out = await create({
      name: 'Host',
      description: 'Front desk',
      permissionIds: [ids['bookings.read']!, ids['bookings.create']!],
    });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({
      id: expect.any(Number),
      name: 'Host',
      description: 'Front desk',
      permissionIds: [ids['bookings.read'], ids['bookings.create']],
      isSystem: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    expect(await listed(out.body.data.id)).toEqual(out.body.data);
  });

  it.each([
    ['no name', { permissionIds: [] }, '/name'],
    ['an empty name', { name: '', permissionIds: [] }, '/name'],
    ['a name of 101 characters', { name: 'n'.repeat(101), permissionIds: [] }, '/name'],
    ['no permissionIds', { name: 'x' }, '/permissionIds'],
    ['a permission id that is not a number', { name: 'x', permissionIds: ['coursings.read'] }, '/permissionIds/0'],
    ['a permission id of 0', { name: 'x', permissionIds: [0] }, '/permissionIds/0'],
    ['a repeated permission id', { name: 'x', permissionIds: [1, 1] }, '/permissionIds'],
    ['91 permission ids', { name: 'x', permissionIds: Array.from({ length: 91 }, (_, i) => i + 1) }, '/permissionIds'],
    [
      'a description of 1001 characters',
      { name: 'x', permissionIds: [], description: 'd'.repeat(1001) },
      '/description',
    ],
    ['an unknown field', { name: 'x', permissionIds: [], isSystem: true }, '/isSystem'],
  ])('answers 400 for %s', async (_name, body, path) => {
    const out = await create(body);
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts a 100-character name', async () => {
    expect((await create({ name: 'n'.repeat(100), permissionIds: [] })).status).toBe(200);
  });

  it('answers 404 naming each unknown permission id by its index, creating nothing', async () => {
    const out = await create({
      name: 'Ghost',
      permissionIds: [ids['tabs.read']!, 987_654_321, ids['tabs.update']!, 987_654_322],
    });
    expect(out.status).toBe(404);
    expect(out.body.error).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/permissionIds/1' }, { path: '/permissionIds/3' }],
    });
    expect((await list()).map((r) => r.name)).not.toContain('Ghost');
  });

  it('answers 403 without roles.create, and for permissions the caller does not hold', async () => {
    const without = await testKey(1, { permissions: ['roles.read'] });
    expect((await create({ name: 'x', permissionIds: [] }, without)).status).toBe(403);
    const limited = await testKey(1, { permissions: ['roles.read', 'roles.create', 'tabs.read'] });
    const escalation = await create(
      { name: 'Escalation', permissionIds: [ids['tabs.read']!, ids['api_keys.manage']!] },
      limited,
    );
    expect(escalation.status).toBe(403);
    expect(escalation.body.error.details).toEqual([
      { path: '/permissionIds/1', message: expect.stringContaining('api_keys.manage') },
    ]);
    expect((await list()).map((r) => r.name)).not.toContain('Escalation');
  });
});

describe('PUT /api/v1/roles/{id}', () => {
  let role: RoleOut;
  beforeAll(async () => {
    role = (await create({ name: 'Sommelier', permissionIds: [ids['items.read']!] })).body.data;
  });

  it('changes name, description and permissions, one version up each time', async () => {
    const out = await update(role.id, {
      name: 'Head sommelier',
      description: 'Wine list',
      permissionIds: [ids['items.read']!, ids['items.manage']!],
    });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      id: role.id,
      name: 'Head sommelier',
      description: 'Wine list',
      permissionIds: [ids['items.read'], ids['items.manage']],
      isSystem: false,
      version: role.version + 1,
    });
    expect(await listed(role.id)).toEqual(out.body.data);
    role = out.body.data;
    expect((await update(role.id, { name: role.name })).body.data).toEqual(role); // nothing changed, nothing written
  });

  it.each([
    ['an empty body', {}, '/'],
    ['an empty name', { name: '' }, '/name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, '/name'],
    ['91 permission ids', { permissionIds: Array.from({ length: 91 }, (_, i) => i + 1) }, '/permissionIds'],
    ['isSystem', { isSystem: true }, '/isSystem'],
  ])('answers 400 for %s, changing nothing', async (_name, body, path) => {
    const out = await update(role.id, body);
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await listed(role.id)).toEqual(role);
  });

  it("answers 400 for a malformed id, 404 for an unknown one and for another company's role", async () => {
    expect((await update('abc', { name: 'x' })).status).toBe(400);
    expect((await update(987_654_321, { name: 'x' })).status).toBe(404);
    const theirs = (await create({ name: 'Theirs', permissionIds: [] }, company(2).keys.admin)).body.data as RoleOut;
    const out = await update(theirs.id, { name: 'Mine now' });
    expect(out.status).toBe(404);
    expect(out.body.error.code).toBe('NOT_FOUND');
    expect(await listed(theirs.id, company(2).keys.admin)).toEqual(theirs);
  });

  it('answers 404 naming each unknown permission id, changing nothing', async () => {
    const out = await update(role.id, { permissionIds: [987_654_321] });
    expect(out.status).toBe(404);
    expect(out.body.error.details).toEqual([{ path: '/permissionIds/0', message: expect.any(String) }]);
    expect(await listed(role.id)).toEqual(role);
  });

  it('answers 403 FORBIDDEN for a system role, and for the platform-operator role to internal operators, changing nothing', async () => {
    const adminRole = (await list()).find((r) => r.name === 'admin')!;
    const system = await update(adminRole.id, { name: 'Boss' });
    expect(system.status).toBe(403);
    expect(system.body.error.code).toBe('FORBIDDEN');
    // The admin role lists every permission of the platform-wide catalog, which other files add to
    // while this one runs: what must not change is the role itself.
    const { permissionIds: _before, ...unchanged } = adminRole;
    const { permissionIds: _after, ...now } = (await listed(adminRole.id))!;
    expect(now).toEqual(unchanged);
    // To the company's own callers the platform-operator role is an unknown id (access-privileges.test.ts).
    expect((await update(platformOperatorRole, { name: 'Mine' }, admin())).status).toBe(404);
    expect(
      (await call('PUT', `/api/v1/roles/${platformOperatorRole}`, { token: operator(), body: { name: 'Mine' } }))
        .status,
    ).toBe(403);
  });

  it('answers 403 without roles.update, and for permissions the caller does not hold', async () => {
    expect((await update(role.id, { name: 'x' }, await testKey(1, { permissions: ['roles.read'] }))).status).toBe(403);
    const limited = await testKey(1, { permissions: ['roles.update', 'items.read'] });
    expect(
      (await update(role.id, { permissionIds: [ids['items.read']!, ids['webhooks.manage']!] }, limited)).status,
    ).toBe(403);
    expect(await listed(role.id)).toEqual(role);
  });
});
