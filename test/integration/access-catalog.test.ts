/** The permission catalog and roles against DynamoDB Local: unique keys, usage counts, versions, the hidden role. */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtInPermissions, describeBuiltIn, tenantPermissions } from '../../shared/auth/catalog';
import type { Principal } from '../../shared/auth/principal';
import { db, tableName } from '../../shared/data/client';
import { permissions, transactNaming, type Permission } from '../../shared/data/permissions';
import { roles, type StoredRole } from '../../shared/data/roles';
import {
  createPermission,
  deletePermission,
  isCustomPermission,
  syncBuiltInPermissions,
} from '../../shared/domain/permissions';
import { createRole, seedSystemRoles, updateRole } from '../../shared/domain/roles';
import { AppError } from '../../shared/errors';
import { newEvent } from '../../shared/events/catalog';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

/** Each test file works in its own companies and its own permission keys, so files can share the table. */
const ids = idBlock(import.meta.url);
const companyId = ids.next();
const word = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
const operator: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'standard',
  locationIds: null,
  rateSubject: 'user:1',
  internalOperator: true,
  userId: '1',
};

const newPermission = (key = `${word()}.read`) => createPermission(operator, { key, name: `Custom ${key}` });

async function usage(key: string): Promise<number | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'PERMISSIONS', sk: `KEY#${key}` } }));
  return out.Item?.usage as number | undefined;
}

async function events(company: number) {
  const out = await companyEvents(company);
  return (out.Items ?? []).map(
    (i) => i.payload as { event: string; resourceId: string; data: Record<string, unknown> },
  );
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as AppError,
  );

beforeAll(async () => {
  // The suite's setup seeded the built-ins (test/support/dynamodb-setup.ts); this run finds them all.
  await syncBuiltInPermissions();
});

describe('permission catalog', () => {
  it('stores the permission, its unique key (usage 0) and its event in one transaction', async () => {
    const p = await newPermission();
    expect((await permissions.get(p.id))?.permission).toEqual(p);
    expect(await usage(p.key)).toBe(0);
    expect((await permissions.list()).map((x) => x.key)).toContain(p.key);
    expect(
      (await events(companyId)).filter((e) => e.event === 'permission.created' && e.resourceId === String(p.id)),
    ).toEqual([expect.objectContaining({ data: p })]);
  });

  it('refuses a second permission with the same key (409), writing nothing', async () => {
    const p = await newPermission();
    const err = await failure(newPermission(p.key));
    expect(err).toMatchObject({ code: 'CONFLICT' });
    // The catalog is platform-wide and other files add to it: only this key's entries are checked.
    expect((await permissions.list()).filter((x) => x.key === p.key).map((x) => x.id)).toEqual([p.id]);
    expect(
      (await events(companyId)).filter((e) => e.event === 'permission.created' && e.data.key === p.key),
    ).toHaveLength(1);
  });

  it('lets exactly one of two concurrent creates of a key win', async () => {
    const key = `${word()}.manage`;
    const results = await Promise.allSettled([newPermission(key), newPermission(key)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(
      ['CONFLICT'],
    );
    expect((await permissions.list()).filter((p) => p.key === key)).toHaveLength(1);
  });

  it('updates only from the version it read', async () => {
    const p = await newPermission();
    const renamed: Permission = { ...p, name: 'Renamed' };
    await permissions.update(
      renamed,
      1,
      newEvent(companyId, 'permission.updated', String(p.id), { ...renamed }, { name: 'Renamed' }),
    );
    expect(
      await failure(
        permissions.update(
          { ...p, name: 'Stale' },
          1,
          newEvent(companyId, 'permission.updated', String(p.id), { ...p }),
        ),
      ),
    ).toMatchObject({ code: 'CONFLICT' });
    expect(await permissions.get(p.id)).toEqual({ permission: renamed, version: 2 });
  });

  it('gives every built-in an id in key order, and seeding again adds nothing', async () => {
    const before = (await permissions.list()).filter((p) => p.builtIn);
    await syncBuiltInPermissions();
    const builtIns = (await permissions.list()).filter((p) => p.builtIn);
    expect(builtIns.map((p) => p.key).sort()).toEqual([...builtInPermissions]);
    expect([...builtIns].sort((a, b) => a.id - b.id).map((p) => p.key)).toEqual([...builtInPermissions]);
    // Other files add custom permissions meanwhile; the built-ins are what seeding could have added to.
    expect(builtIns).toEqual(before);
  });
});

describe('seeding the built-ins at deploy (functions/catalog/seed.ts)', () => {
  /** The stored items of these keys: each permission and its key item, exactly as in the table. */
  async function itemsOf(keys: readonly string[]) {
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'PERMISSIONS' },
        ConsistentRead: true,
      }),
    );
    const wanted = new Set(keys);
    return (out.Items ?? [])
      .filter((i) => wanted.has(String(i.key)))
      .sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
  }

  it("a second run writes nothing: every built-in's items and an operator's permission stay exactly as they were", async () => {
    const custom = await newPermission();
    await syncBuiltInPermissions();
    const keys = [...builtInPermissions, custom.key];
    const before = await itemsOf(keys);
    expect(before).toHaveLength(2 * keys.length);
    expect(await syncBuiltInPermissions()).toEqual({ added: [], updated: [] });
    expect(await itemsOf(keys)).toEqual(before);
  });

  it("gives a changed built-in the code's name, category and built-in mark, keeps its description, and leaves operators' permissions alone", async () => {
    const custom = await newPermission();
    const target = (await permissions.list()).find((p) => p.key === 'coursings.read')!;
    const current = (await permissions.get(target.id))!;
    const drifted: Permission = {
      ...current.permission,
      name: 'Old name',
      category: 'legacy',
      builtIn: false,
      description: 'Kept by the seed',
    };
    await permissions.update(drifted, current.version, null);
    const customBefore = await itemsOf([custom.key]);

    expect(await syncBuiltInPermissions()).toEqual({ added: [], updated: ['coursings.read'] });
    expect(await permissions.get(target.id)).toEqual({
      permission: { ...drifted, ...describeBuiltIn('coursings.read'), builtIn: true, updatedAt: expect.any(String) },
      version: current.version + 2,
    });
    expect((await permissions.get(target.id))!.permission.name).toBe('Read coursings');
    expect(await itemsOf([custom.key])).toEqual(customBefore);
    expect(await syncBuiltInPermissions()).toEqual({ added: [], updated: [] });
  });
});

describe('usage of a permission by roles', () => {
  it('counts each role that names a custom permission; the permission is deleted only when none does', async () => {
    const p = await newPermission();
    const builtIn = (await permissions.list()).find((x) => x.key === 'coursings.read')!;
    const role = await createRole(operator, { name: 'Uses it', permissionIds: [p.id, builtIn.id] });
    await createRole(operator, { name: 'Uses it too', permissionIds: [p.id] });
    expect(await usage(p.key)).toBe(2);
    expect(await usage('coursings.read')).toBe(0); // built-ins are never counted

    expect(await failure(deletePermission(operator, p.id))).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((await permissions.get(p.id))?.permission).toEqual(p);

    await updateRole(operator, role.id, { permissionIds: [builtIn.id] });
    expect(await usage(p.key)).toBe(1);
    const other = (await roles.list(companyId, { page: 1, limit: 1000 })).items
      .map((r) => r.role)
      .find((r) => r.name === 'Uses it too')!;
    await updateRole(operator, other.id, { permissionIds: [] });
    expect(await usage(p.key)).toBe(0);

    expect(await deletePermission(operator, p.id)).toEqual(p);
    expect(await permissions.get(p.id)).toBeUndefined();
    expect(await usage(p.key)).toBeUndefined();
    expect((await events(companyId)).map((e) => e.event)).toContain('permission.deleted');
  });

  it('refuses to delete a built-in permission (409)', async () => {
    const builtIn = (await permissions.list()).find((x) => x.key === 'bookings.read')!;
    expect(await failure(deletePermission(operator, builtIn.id))).toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses a role naming a permission deleted since this process learned of it (404 at its index), writing nothing', async () => {
    const p = await newPermission();
    const builtIn = (await permissions.list()).find((x) => x.key === 'tabs.read')!;
    await permissions.keysOf([p.id]); // remembered by this process
    await permissions.remove(p, 1, newEvent(companyId, 'permission.deleted', String(p.id), { ...p }));
    const stored: StoredRole = {
      role: {
        id: 990_000 + Math.floor(Math.random() * 9999),
        name: 'Stale',
        description: null,
        permissionIds: [builtIn.id, p.id],
        isSystem: false,
        createdAt: 'x',
        updatedAt: 'x',
        version: 1,
      },
      permissionKeys: [builtIn.key, p.key],
      platformOperator: false,
    };
    const before = (await roles.list(companyId, { page: 1, limit: 1000 })).pagination.total;
    const err = await failure(
      roles.create(
        companyId,
        stored,
        isCustomPermission,
        newEvent(companyId, 'role.created', String(stored.role.id), { ...stored.role }),
      ),
    );
    expect(err).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/permissionIds/1', message: expect.any(String) }],
    });
    expect(await roles.get(companyId, stored.role.id)).toBeUndefined();
    expect((await roles.list(companyId, { page: 1, limit: 1000 })).pagination.total).toBe(before);
    // Forgotten: the next request reads the catalog and names the bad id.
    expect(await failure(createRole(operator, { name: 'x', permissionIds: [p.id] }))).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/permissionIds/0' }],
    });
  });

  it('refuses a write of more than 100 items (422) before sending it', async () => {
    const step = {
      item: {
        ConditionCheck: {
          TableName: tableName(),
          Key: { pk: 'X', sk: 'X' },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    };
    expect(await failure(transactNaming(Array.from({ length: 101 }, () => step)))).toMatchObject({
      code: 'UNPROCESSABLE',
    });
  });
});

describe('roles', () => {
  const seededCompany = ids.next();

  beforeAll(async () => {
    await seedSystemRoles(seededCompany);
  });

  it('seeds admin, manager, staff and readonly as system roles; the platform-operator role is neither listed nor counted', async () => {
    const page = await roles.list(seededCompany, { page: 1, limit: 1000 });
    expect(page.items.map((r) => r.role.name)).toEqual(['admin', 'manager', 'staff', 'readonly']);
    expect(page.items.every((r) => r.role.isSystem)).toBe(true);
    // Only admin holds every permission, whatever the catalog gains later.
    expect(page.items.map((r) => r.allPermissions === true)).toEqual([true, false, false, false]);
    expect(page.pagination.total).toBe(4);
    const all = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
        ExpressionAttributeValues: { ':pk': `C#${seededCompany}`, ':r': 'ROLE#' },
      }),
    );
    const hidden = (all.Items ?? []).filter((i) => i.platformOperator === true);
    expect(hidden.map((i) => i.name)).toEqual(['platform-operator']);
    // Nobody learns of it through the event log either.
    expect((await events(seededCompany)).map((e) => e.data.name)).toEqual(['admin', 'manager', 'staff', 'readonly']);
  });

  it("stores the keys of a role's permissions beside their ids, for authentication", async () => {
    const [admin, manager] = (await roles.list(seededCompany, { page: 1, limit: 2 })).items.map((r) => r.role);
    expect(await roles.grantOf(seededCompany, admin!.id)).toEqual({
      permissionKeys: [...tenantPermissions],
      allPermissions: true,
    });
    expect(await roles.grantOf(seededCompany, manager!.id)).toEqual({
      permissionKeys: expect.not.arrayContaining(['roles.update']),
      allPermissions: false,
    });
    expect(await roles.grantOf(seededCompany + 1, admin!.id)).toBeUndefined();
  });

  it('updates only from the version it read', async () => {
    const role = await createRole(operator, { name: 'Versioned', permissionIds: [] });
    const current = (await roles.get(companyId, role.id))!;
    const next = { ...current, role: { ...current.role, name: 'First', version: 2 } };
    await roles.update(
      companyId,
      next,
      current,
      isCustomPermission,
      newEvent(companyId, 'role.updated', String(role.id), next.role, { name: 'First' }),
    );
    const stale = { ...current, role: { ...current.role, name: 'Stale', version: 2 } };
    expect(
      await failure(
        roles.update(
          companyId,
          stale,
          current,
          isCustomPermission,
          newEvent(companyId, 'role.updated', String(role.id), stale.role),
        ),
      ),
    ).toMatchObject({ code: 'CONFLICT' });
    expect((await roles.get(companyId, role.id))?.role).toMatchObject({ name: 'First', version: 2 });
  });
});
