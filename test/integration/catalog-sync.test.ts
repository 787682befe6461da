/**
 * The deploy-time sync of the built-in permission catalog (functions/catalog/seed.ts), run as the
 * catalog-seed function (`asFunction`, so the suite's IAM check asks each of its calls of that
 * function's role): a first deploy on an empty table, then a deploy whose code changed a
 * built-in's name, which reads that permission again by id before putting it back.
 * In a table of its own: the suite's table has its catalog seeded already.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../bin/local/dynamodb';
import { handler } from '../../functions/catalog/seed';
import { builtInPermissions, describeBuiltIn } from '../../shared/auth/catalog';
import { resetConfig } from '../../shared/config';
import { permissions } from '../../shared/data/permissions';
import { asFunction } from '../support/aws-call-log';

const seed = () => asFunction('catalog-seed', () => handler({}));

beforeAll(async () => {
  const tableName = `brigade-catalog-sync-${randomUUID().slice(0, 8)}`;
  await ensureTable(inject('dynamoEndpoint'), tableName);
  process.env.TABLE_NAME = tableName;
  resetConfig();
});

describe('the catalog sync at deploy', () => {
  it('adds every built-in to an empty catalog, then puts back the name of a built-in that differs from the code', async () => {
    const first = await seed();
    expect(first.added).toEqual([...builtInPermissions]);
    expect(first.updated).toEqual([]);

    // A later deploy whose code names a built-in differently: the stored one has the old name.
    const key = builtInPermissions[0]!;
    const stored = (await permissions.list()).find((p) => p.key === key)!;
    const current = (await permissions.get(stored.id))!;
    await permissions.update(
      { ...current.permission, name: `${current.permission.name} (old name)` },
      current.version,
      null,
    );

    const second = await seed();
    expect(second).toEqual({ added: [], updated: [key] });
    expect((await permissions.get(stored.id))?.permission.name).toBe(describeBuiltIn(key).name);
  });
});
