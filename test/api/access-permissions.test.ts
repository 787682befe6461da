/** The permission catalog over HTTP (docs/access.md): who may read and change it, bounds, refusals. */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, company, devKeys } from '../support/http';
import { testKey, userToken } from '../support/stage-data';
import type { Schemas } from '../support/client';

const operator = () => devKeys().operatorToken;
const admin = () => company(1).keys.admin;
const word = () => Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
const newKey = () => `${word()}.read`;

const create = (body: Record<string, unknown>, auth: { token?: string; key?: string } = { token: operator() }) =>
  call('POST', '/api/v1/permissions', { ...auth, body });
/** Every permission of the catalog with this key (the list filtered by search). */
const find = async (key: string) =>
  (await call('GET', `/api/v1/permissions?search=${key}&limit=1000`, { key: admin() })).body.data.filter(
    (p: { key: string }) => p.key === key,
  );

let user: string;
beforeAll(async () => {
  // A user of company 1 with every catalog permission, who is not an internal operator.
  user = await userToken(1, ['permissions.read', 'permissions.create', 'permissions.update', 'permissions.delete']);
});

describe('GET /api/v1/permissions', () => {
  it('lists the whole catalog, built-ins with their ids, for either company', async () => {
    const out = await call('GET', '/api/v1/permissions?limit=1000', { key: admin() });
    expect(out.status).toBe(200);
    expect(out.body.data.find((p: { key: string }) => p.key === 'coursings.read')).toEqual({
      id: expect.any(Number),
      key: 'coursings.read',
      name: 'Read coursings',
      description: null,
      category: 'coursings',
      builtIn: true,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(out.body.meta.pagination).toMatchObject({
      page: 1,
      limit: 1000,
      total: out.body.data.length,
      nextCursor: null,
    });
    // The same platform-wide catalog for another company (other files add custom permissions meanwhile: the built-ins are compared).
    const theirs = await call('GET', '/api/v1/permissions?limit=1000', { key: company(2).keys.readonly });
    const builtInIds = (answer: typeof out) =>
      answer.body.data.filter((p: { builtIn: boolean }) => p.builtIn).map((p: { id: number }) => p.id);
    expect(builtInIds(theirs)).toEqual(builtInIds(out));
    expect(builtInIds(out).length).toBeGreaterThan(0);
  });

  it('filters by exact category and searches key, name and description ignoring case; pages by 50', async () => {
    const key = `${word()}.manage`;
    await create({
      key,
      name: 'Manage loyalty tiers',
      description: 'Gold and SILVER members',
      category: `cat${word()}`,
    });
    const [made] = await find(key);
    expect((await call('GET', `/api/v1/permissions?category=${made.category}`, { key: admin() })).body.data).toEqual([
      made,
    ]);
    expect(
      (await call('GET', '/api/v1/permissions?category=coursings', { key: admin() })).body.data.map(
        (p: { key: string }) => p.key,
      ),
    ).toEqual(['coursings.create', 'coursings.read', 'coursings.update']);
    for (const search of [key.toUpperCase(), 'loyalty TIERS', 'silver members']) {
      expect(
        (await call('GET', `/api/v1/permissions?search=${encodeURIComponent(search)}`, { key: admin() })).body.data.map(
          (p: { key: string }) => p.key,
        ),
      ).toContain(key);
    }
    const first = await call('GET', '/api/v1/permissions', { key: admin() });
    expect(first.body.meta.pagination).toMatchObject({ page: 1, limit: 50 });
    expect(first.body.data).toHaveLength(50);
    const second = await call('GET', '/api/v1/permissions?page=2&limit=50', { key: admin() });
    expect(second.body.data[0].key > first.body.data[49].key).toBe(true);
  });

  it('accepts cursor like every other list: nextCursor leads on after the last key listed, filters from the query', async () => {
    const builtIns = (await call('GET', '/api/v1/permissions?limit=1000', { key: admin() })).body.data
      .filter((p: { builtIn: boolean }) => p.builtIn)
      .map((p: { key: string }) => p.key);
    const keys: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const out: Answer<{ data: Schemas['Permission'][]; meta: Schemas['PagedMeta'] }> = await call(
        'GET',
        `/api/v1/permissions?limit=20${cursor ? `&cursor=${cursor}` : ''}`,
        { key: admin() },
      );
      expect(out.status).toBe(200);
      expect(out.body.meta.pagination.page).toBe(++pages);
      keys.push(...out.body.data.map((p) => p.key));
      cursor = out.body.meta.pagination.nextCursor;
    } while (cursor);
    // Other files add and delete custom permissions meanwhile; the built-ins are listed, each once, in key order.
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(builtIns));
    const coursings = await call('GET', '/api/v1/permissions?category=coursings&limit=2', { key: admin() });
    const rest = await call(
      'GET',
      `/api/v1/permissions?category=coursings&limit=2&cursor=${coursings.body.meta.pagination.nextCursor}`,
      { key: admin() },
    );
    expect(rest.body.data.map((p: { key: string }) => p.key)).toEqual(['coursings.update']);
    expect(rest.body.meta.pagination).toMatchObject({ page: 2, nextCursor: null });
  });

  it.each([
    ['page 0', 'page=0', '/page'],
    ['limit 0', 'limit=0', '/limit'],
    ['limit 1001', 'limit=1001', '/limit'],
    ['empty search', 'search=', '/search'],
    ['empty category', 'category=', '/category'],
    [
      'a cursor of another list',
      `cursor=${Buffer.from(JSON.stringify({ p: 2, k: { pk: 'C#1', sk: 'ROLE#1' } })).toString('base64url')}`,
      '/cursor',
    ],
    ['a cursor that is not one', 'cursor=garbage', '/cursor'],
    ['a page past page × limit 1000', 'page=2&limit=600', '/page'],
  ])('answers 400 for %s', async (_name, query, path) => {
    const out = await call('GET', `/api/v1/permissions?${query}`, { key: admin() });
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('answers 403 without permissions.read', async () => {
    const key = await testKey(1, { permissions: ['roles.read'] });
    expect((await call('GET', '/api/v1/permissions', { key })).status).toBe(403);
  });
});

describe('POST /api/v1/permissions', () => {
  it('lets an internal operator add a permission, with snake_case parts', async () => {
    const key = `${word()}_${word()}.bulk_${word()}`;
    const out = await create({ key, name: 'Bulk loyalty', description: null, category: 'loyalty' });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({
      id: expect.any(Number),
      key,
      name: 'Bulk loyalty',
      description: null,
      category: 'loyalty',
      builtIn: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await find(key)).toEqual([out.body.data]);
  });

  it.each([
    ['a key without a dot', { key: 'loyalty', name: 'x' }, '/key'],
    ['a key with capitals', { key: 'Loyalty.read', name: 'x' }, '/key'],
    ['a key with three parts', { key: 'a.b.c', name: 'x' }, '/key'],
    ['a key with a digit', { key: 'loyalty2.read', name: 'x' }, '/key'],
    ['a key of 101 characters', { key: `${'a'.repeat(96)}.read`, name: 'x' }, '/key'],
    ['no key', { name: 'x' }, '/key'],
    ['no name', { key: 'loyalty.read' }, '/name'],
    ['an empty name', { key: 'loyalty.read', name: '' }, '/name'],
    ['a name of 101 characters', { key: 'loyalty.read', name: 'n'.repeat(101) }, '/name'],
    [
      'a description of 1001 characters',
      { key: 'loyalty.read', name: 'x', description: 'd'.repeat(1001) },
      '/description',
    ],
    ['an empty category', { key: 'loyalty.read', name: 'x', category: '' }, '/category'],
    ['a category of 101 characters', { key: 'loyalty.read', name: 'x', category: 'c'.repeat(101) }, '/category'],
    ['an unknown field', { key: 'loyalty.read', name: 'x', builtIn: true }, '/builtIn'],
  ])('answers 400 for %s', async (_name, body, path) => {
    const out = await create(body);
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts the bounds: 100-character name, 1000-character description', async () => {
    expect(
      (await create({ key: newKey(), name: 'n'.repeat(100), description: 'd'.repeat(1000), category: 'c'.repeat(100) }))
        .status,
    ).toBe(200);
  });

  it('refuses API keys, users who are not internal operators, and operators lacking the permission (403), adding nothing', async () => {
    const key = newKey();
    const byKey = await create({ key, name: 'x' }, { key: admin() });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('FORBIDDEN');
    expect((await create({ key, name: 'x' }, { token: user })).status).toBe(403);
    const operatorWithout = await userToken(1, ['permissions.read'], '1');
    expect((await create({ key, name: 'x' }, { token: operatorWithout })).status).toBe(403);
    expect(await find(key)).toEqual([]);
  });

  it('answers 409 CONFLICT for a key that exists, built-in or custom', async () => {
    const dup = await create({ key: 'coursings.read', name: 'Again' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    const key = newKey();
    await create({ key, name: 'First' });
    expect((await create({ key, name: 'Second' })).status).toBe(409);
    expect((await find(key)).map((p: { name: string }) => p.name)).toEqual(['First']);
  });

  it('lets exactly one of two concurrent creates of one key succeed; the other gets 409', async () => {
    const key = newKey();
    const answers = await Promise.all([create({ key, name: 'A' }), create({ key, name: 'B' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await find(key)).toHaveLength(1);
  });
});

describe('PUT /api/v1/permissions/{id}', () => {
  const update = (id: unknown, body: unknown, auth: { token?: string; key?: string } = { token: operator() }) =>
    call('PUT', `/api/v1/permissions/${id}`, { ...auth, body });

  it('changes name, description and category; the key stays', async () => {
    const made = (await create({ key: newKey(), name: 'Before' })).body.data;
    const out = await update(made.id, { name: 'After', description: 'Why', category: 'loyalty' });
    expect(out.status).toBe(200);
    expect(out.body.data).toMatchObject({
      id: made.id,
      key: made.key,
      name: 'After',
      description: 'Why',
      category: 'loyalty',
      createdAt: made.createdAt,
    });
    expect(await find(made.key)).toEqual([out.body.data]);
    expect((await update(made.id, { description: null })).body.data).toMatchObject({
      name: 'After',
      description: null,
    });
  });

  it.each([
    ['a new key', { key: 'other.read' }, '/key'],
    ['an empty body', {}, '/'],
    ['an empty name', { name: '' }, '/name'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, '/name'],
    ['a description of 1001 characters', { description: 'd'.repeat(1001) }, '/description'],
    ['an empty category', { category: '' }, '/category'],
  ])('answers 400 for %s, changing nothing', async (_name, body, path) => {
    const made = (await create({ key: newKey(), name: 'Kept' })).body.data;
    const out = await update(made.id, body);
    expect(out.status).toBe(400);
    expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await find(made.key)).toEqual([made]);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await update('abc', { name: 'x' })).status).toBe(400);
    expect((await update(0, { name: 'x' })).status).toBe(400);
    const missing = await update(987_654_321, { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses API keys and users who are not internal operators (403), changing nothing', async () => {
    const made = (await create({ key: newKey(), name: 'Kept' })).body.data;
    expect((await update(made.id, { name: 'x' }, { key: admin() })).status).toBe(403);
    expect((await update(made.id, { name: 'x' }, { token: user })).status).toBe(403);
    expect(await find(made.key)).toEqual([made]);
  });
});

describe('DELETE /api/v1/permissions/{id}', () => {
  const remove = (id: unknown, auth: { token?: string; key?: string } = { token: operator() }) =>
    call('DELETE', `/api/v1/permissions/${id}`, auth);

  it('deletes a permission nobody uses', async () => {
    const made = (await create({ key: newKey(), name: 'Short-lived' })).body.data;
    const out = await remove(made.id);
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual(made);
    expect(await find(made.key)).toEqual([]);
    expect((await remove(made.id)).status).toBe(404);
  });

  it('answers 409 while a role uses it, and deletes it once the role no longer does', async () => {
    const made = (await create({ key: newKey(), name: 'Used by a role' })).body.data;
    const role = await call('POST', '/api/v1/roles', {
      token: operator(),
      body: { name: 'Uses it', permissionIds: [made.id] },
    });
    expect(role.status).toBe(200);
    const refused = await remove(made.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(await find(made.key)).toEqual([made]);
    expect(
      (await call('PUT', `/api/v1/roles/${role.body.data.id}`, { token: operator(), body: { permissionIds: [] } }))
        .status,
    ).toBe(200);
    expect((await remove(made.id)).status).toBe(200);
  });

  it('answers 409 while an API key uses it, and deletes it once the key is revoked', async () => {
    const made = (await create({ key: newKey(), name: 'Used by a key' })).body.data;
    const apiKey = await call('POST', '/api/v1/api-keys', {
      token: operator(),
      body: { name: 'Uses it', tier: 'standard', permissions: [made.key] },
    });
    expect(apiKey.status).toBe(200);
    expect((await remove(made.id)).status).toBe(409);
    expect((await call('POST', `/api/v1/api-keys/${apiKey.body.data.id}/revoke`, { token: operator() })).status).toBe(
      200,
    );
    expect((await remove(made.id)).status).toBe(200);
  });

  it("answers 409 for a built-in permission: the API's operations require it", async () => {
    const [builtIn] = await find('tabs.read');
    expect((await remove(builtIn.id)).status).toBe(409);
    expect(await find('tabs.read')).toEqual([builtIn]);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await remove('x1')).status).toBe(400);
    expect((await remove(987_654_321)).status).toBe(404);
  });

  it('refuses API keys and users who are not internal operators (403), deleting nothing', async () => {
    const made = (await create({ key: newKey(), name: 'Kept' })).body.data;
    expect((await remove(made.id, { key: admin() })).status).toBe(403);
    expect((await remove(made.id, { token: user })).status).toBe(403);
    expect(await find(made.key)).toEqual([made]);
  });
});
