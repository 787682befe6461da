/** Tables over HTTP against the local stage: every operation, its bounds, its refusals. */
import { describe, expect, it } from 'vitest';
import { call, company } from '../support/http';
import {
  admin,
  expectRefused,
  keyWith,
  newLocation,
  newTable,
  seededLocation,
  theirAdmin,
  theirLocation,
  unknownUuid,
} from './setup-helpers';

const tablesAt = (locationId: number) => `/api/v1/locations/${locationId}/tables`;
const tableAt = (locationId: number, id: string) => `${tablesAt(locationId)}/${id}`;
const read = async (locationId: number, id: string) =>
  (await call('GET', tableAt(locationId, id), { key: admin() })).body.data;
const total = async (locationId: number) =>
  (await call('GET', `${tablesAt(locationId)}?limit=1`, { key: admin() })).body.meta.pagination.total as number;
/** A location this file alone writes to, for the checks that count its tables (other files add tables to the seeded ones). */
let bounds: Promise<number> | undefined;
const boundsLocation = () => (bounds ??= newLocation('Bounds').then((l) => l.id));

describe('tables: the happy path', () => {
  it('creates, reads, lists, updates and deletes a table, keeping partners in step', async () => {
    const { id: locationId } = await newLocation();
    const partner = await newTable(locationId, { name: 'T2' });
    const created = await call('POST', tablesAt(locationId), {
      key: admin(),
      body: { name: 'T10', minCapacity: 2, maxCapacity: 6, combinableWith: [partner.id] },
    });
    expect(created.status).toBe(200);
    const table = created.body.data;
    expect(table).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      locationId,
      name: 'T10',
      minCapacity: 2,
      maxCapacity: 6,
      combinableWith: [partner.id],
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: table.createdAt,
    });
    expect(await read(locationId, table.id)).toEqual(table);
    expect(await read(locationId, partner.id)).toMatchObject({ combinableWith: [table.id], version: 2 });

    const listed = await call('GET', tablesAt(locationId), { key: admin() });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(['T2', 'T10']);
    expect(listed.body.meta.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1, nextCursor: null });

    const updated = await call('PATCH', tableAt(locationId, table.id), {
      key: admin(),
      body: { name: 'Window', maxCapacity: 8, combinableWith: [] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'Window',
      minCapacity: 2,
      maxCapacity: 8,
      combinableWith: [],
      version: 2,
    });
    expect(await read(locationId, table.id)).toEqual(updated.body.data);
    expect((await read(locationId, partner.id)).combinableWith).toEqual([]);

    const deleted = await call('DELETE', tableAt(locationId, table.id), { key: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expectRefused(await call('GET', tableAt(locationId, table.id), { key: admin() }), 404, 'NOT_FOUND');
    expect(await total(locationId)).toBe(1);
  });

  it('lists the seeded floor plan in name order with its combinable pairs', async () => {
    const seeded = seededLocation(0);
    const listed = await call('GET', `${tablesAt(seeded.locationId)}?limit=100`, { key: company(1).keys.readonly });
    expect(listed.status).toBe(200);
    const names = listed.body.data.map((t: { name: string }) => t.name);
    expect(names.slice(0, 3)).toEqual(['T1', 'T2', 'T3']);
    const byName = new Map(
      listed.body.data.map((t: { name: string; id: string; combinableWith: string[] }) => [t.name, t]),
    );
    const t1 = byName.get('T1') as { id: string; combinableWith: string[] };
    const t2 = byName.get('T2') as { id: string; combinableWith: string[] };
    expect(t1.combinableWith).toEqual([t2.id]);
    expect(t2.combinableWith).toEqual([t1.id]);
  });

  it('lists an empty location as an empty page, and pages by cursor', async () => {
    const { id: locationId } = await newLocation();
    const empty = await call('GET', tablesAt(locationId), { key: admin() });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ data: [], meta: { pagination: { total: 0, nextCursor: null } } });
    for (const name of ['A', 'B', 'C']) await newTable(locationId, { name });
    const first = await call('GET', `${tablesAt(locationId)}?limit=2`, { key: admin() });
    const second = await call(
      'GET',
      `${tablesAt(locationId)}?limit=2&cursor=${first.body.meta.pagination.nextCursor}`,
      { key: admin() },
    );
    expect(second.body.data.map((t: { name: string }) => t.name)).toEqual(['C']);
    // A cursor belongs to its location's list.
    expectRefused(
      await call('GET', `${tablesAt(seededLocation(0).locationId)}?cursor=${first.body.meta.pagination.nextCursor}`, {
        key: admin(),
      }),
      400,
      'VALIDATION_FAILED',
      '/cursor',
    );
  });
});

describe('tables: validation, one case per bound', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['empty name', { name: '' }, '/name'],
    ['name over 50 characters', { name: 'x'.repeat(51) }, '/name'],
    ['minCapacity 0', { minCapacity: 0 }, '/minCapacity'],
    ['minCapacity 101', { minCapacity: 101, maxCapacity: 100 }, '/minCapacity'],
    ['maxCapacity 0', { maxCapacity: 0 }, '/maxCapacity'],
    ['maxCapacity 101', { maxCapacity: 101 }, '/maxCapacity'],
    ['fractional capacity', { minCapacity: 1.5 }, '/minCapacity'],
    ['maxCapacity below minCapacity', { minCapacity: 6, maxCapacity: 4 }, '/maxCapacity'],
    ['combinableWith not UUIDs', { combinableWith: ['T1'] }, '/combinableWith/0'],
    ['combinableWith repeating an id', { combinableWith: [unknownUuid, unknownUuid] }, '/combinableWith'],
    [
      'combinableWith over 20 tables',
      {
        combinableWith: Array.from({ length: 21 }, (_, i) => `6f1c2d3e-4b5a-4c6d-8e7f-${String(i).padStart(12, '0')}`),
      },
      '/combinableWith',
    ],
    ['unknown field', { seats: 4 }, '/seats'],
  ];

  it.each(cases)('refuses a create with %s (400, details), creating nothing', async (_, change, path) => {
    const locationId = await boundsLocation();
    const before = await total(locationId);
    expectRefused(
      await call('POST', tablesAt(locationId), {
        key: admin(),
        body: { name: 'Bounds', minCapacity: 2, maxCapacity: 4, ...change },
      }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect(await total(locationId)).toBe(before);
  });

  it.each(cases)('refuses an update with %s (400, details), changing nothing', async (_, change, path) => {
    const { id: locationId } = await newLocation();
    const table = await newTable(locationId, { name: 'Bounds' });
    expectRefused(
      await call('PATCH', tableAt(locationId, table.id), { key: admin(), body: change }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect(await read(locationId, table.id)).toEqual(table);
  });

  it('checks min ≤ max against the stored value on update, naming the field sent', async () => {
    const { id: locationId } = await newLocation();
    const table = await newTable(locationId, { name: 'T1', minCapacity: 2, maxCapacity: 4 });
    expectRefused(
      await call('PATCH', tableAt(locationId, table.id), { key: admin(), body: { minCapacity: 5 } }),
      400,
      'VALIDATION_FAILED',
      '/minCapacity',
    );
    expectRefused(
      await call('PATCH', tableAt(locationId, table.id), { key: admin(), body: { maxCapacity: 1 } }),
      400,
      'VALIDATION_FAILED',
      '/maxCapacity',
    );
    expect(await read(locationId, table.id)).toEqual(table);
  });

  it('refuses a table combined with itself (400) and unknown partners (404, naming each place), changing nothing', async () => {
    const { id: locationId } = await newLocation();
    const other = await newLocation('Elsewhere');
    const elsewhere = await newTable(other.id, { name: 'X' });
    const table = await newTable(locationId, { name: 'T1' });
    const partner = await newTable(locationId, { name: 'T2' });
    expectRefused(
      await call('PATCH', tableAt(locationId, table.id), { key: admin(), body: { combinableWith: [table.id] } }),
      400,
      'VALIDATION_FAILED',
      '/combinableWith/0',
    );
    const unknown = await call('PATCH', tableAt(locationId, table.id), {
      key: admin(),
      body: { combinableWith: [partner.id, unknownUuid, elsewhere.id] },
    });
    expectRefused(unknown, 404, 'NOT_FOUND');
    expect(unknown.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      '/combinableWith/1',
      '/combinableWith/2',
    ]);
    expect(await read(locationId, table.id)).toEqual(table);
    expect(await read(locationId, partner.id)).toEqual(partner);
    const before = await total(locationId);
    expectRefused(
      await call('POST', tablesAt(locationId), {
        key: admin(),
        body: { name: 'T3', minCapacity: 1, maxCapacity: 2, combinableWith: [unknownUuid] },
      }),
      404,
      'NOT_FOUND',
      '/combinableWith/0',
    );
    expect(await total(locationId)).toBe(before);
  });

  it('refuses malformed ids and list bounds', async () => {
    const { locationId } = seededLocation(0);
    expectRefused(await call('GET', tableAt(locationId, 'T1'), { key: admin() }), 400, 'VALIDATION_FAILED', '/id');
    expectRefused(await call('GET', tablesAt(0), { key: admin() }), 400, 'VALIDATION_FAILED', '/locationId');
    expectRefused(
      await call('GET', `${tablesAt(locationId)}?limit=101`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expectRefused(
      await call('GET', `${tablesAt(locationId)}?page=0`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/page',
    );
    expectRefused(
      await call('PATCH', tableAt(locationId, unknownUuid), { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('tables: refusals', () => {
  it('refuses a duplicate name at the location (409), ignoring case, creating and changing nothing', async () => {
    const { id: locationId } = await newLocation();
    const first = await newTable(locationId, { name: 'Window 1' });
    const second = await newTable(locationId, { name: 'Window 2' });
    expectRefused(
      await call('POST', tablesAt(locationId), {
        key: admin(),
        body: { name: 'window 1', minCapacity: 1, maxCapacity: 2 },
      }),
      409,
      'CONFLICT',
      '/name',
    );
    expect(await total(locationId)).toBe(2);
    expectRefused(
      await call('PATCH', tableAt(locationId, second.id), { key: admin(), body: { name: 'WINDOW 1' } }),
      409,
      'CONFLICT',
      '/name',
    );
    expect(await read(locationId, second.id)).toEqual(second);
    expect(await read(locationId, first.id)).toEqual(first);
    // Another location may use the name.
    const elsewhere = await newLocation('Elsewhere');
    expect(
      (
        await call('POST', tablesAt(elsewhere.id), {
          key: admin(),
          body: { name: 'Window 1', minCapacity: 1, maxCapacity: 2 },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses to delete a table a booking group includes (409), and deletes it once the group lets go', async () => {
    const { id: locationId } = await newLocation();
    const table = await newTable(locationId, { name: 'T1' });
    const spare = await newTable(locationId, { name: 'T2' });
    const group = await call('POST', `/api/v1/locations/${locationId}/booking-groups`, {
      key: admin(),
      body: { name: 'Terrace', tableIds: [table.id, spare.id] },
    });
    expect(group.status).toBe(200);
    expectRefused(await call('DELETE', tableAt(locationId, table.id), { key: admin() }), 409, 'CONFLICT');
    expect(await read(locationId, table.id)).toEqual(table);
    expect(
      (
        await call('PATCH', `/api/v1/locations/${locationId}/booking-groups/${group.body.data.id}`, {
          key: admin(),
          body: { tableIds: [spare.id] },
        })
      ).status,
    ).toBe(200);
    expect((await call('DELETE', tableAt(locationId, table.id), { key: admin() })).status).toBe(200);
  });

  it('answers 404 for an unknown table and for a table of another location of the company', async () => {
    const [here, there] = [seededLocation(0), seededLocation(1)];
    expectRefused(await call('GET', tableAt(here.locationId, unknownUuid), { key: admin() }), 404, 'NOT_FOUND');
    const theirTable = there.tables[0]!.id;
    expectRefused(await call('GET', tableAt(here.locationId, theirTable), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', tableAt(here.locationId, theirTable), { key: admin(), body: { name: 'Moved' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', tableAt(here.locationId, theirTable), { key: admin() }), 404, 'NOT_FOUND');
    expect((await read(there.locationId, theirTable)).name).toBe(there.tables[0]!.name);
  });
});

describe('tables: permissions, tenancy and location-limited keys', () => {
  it('answers 403 without tables.read or tables.manage, changing nothing', async () => {
    const { locationId, tables } = seededLocation(0);
    const table = tables[4]!;
    const reader = await keyWith(['tables.read']);
    const none = await keyWith(['locations.read']);
    const before = await read(locationId, table.id);
    expectRefused(await call('GET', tablesAt(locationId), { key: none }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', tableAt(locationId, table.id), { key: none }), 403, 'FORBIDDEN');
    expect((await call('GET', tableAt(locationId, table.id), { key: reader })).status).toBe(200);
    expectRefused(
      await call('POST', tablesAt(locationId), { key: reader, body: { name: 'x', minCapacity: 1, maxCapacity: 2 } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call('PATCH', tableAt(locationId, table.id), { key: reader, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('DELETE', tableAt(locationId, table.id), { key: reader }), 403, 'FORBIDDEN');
    expect(await read(locationId, table.id)).toEqual(before);
  });

  it("hides another company's location and tables behind 404 on every operation", async () => {
    const theirs = theirLocation();
    const theirTable = company(2).locations[0]!.tables[0]!;
    const before = (await call('GET', tableAt(theirs, theirTable.id), { key: theirAdmin() })).body.data;
    expectRefused(await call('GET', tablesAt(theirs), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', tablesAt(theirs), {
        key: admin(),
        body: { name: 'Intruder', minCapacity: 1, maxCapacity: 2 },
      }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('GET', tableAt(theirs, theirTable.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', tableAt(theirs, theirTable.id), { key: admin(), body: { name: 'Mine now' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', tableAt(theirs, theirTable.id), { key: admin() }), 404, 'NOT_FOUND');
    // Their table id under one of our locations, and as a partner of ours.
    const { locationId } = seededLocation(0);
    expectRefused(await call('GET', tableAt(locationId, theirTable.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', tablesAt(locationId), {
        key: admin(),
        body: { name: 'Bridge', minCapacity: 1, maxCapacity: 2, combinableWith: [theirTable.id] },
      }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('GET', tablesAt(999_999), { key: admin() }), 404, 'NOT_FOUND');
    expect((await call('GET', tableAt(theirs, theirTable.id), { key: theirAdmin() })).body.data).toEqual(before);
    const theirList = await call('GET', `${tablesAt(theirs)}?limit=100`, { key: theirAdmin() });
    expect(theirList.body.data.map((t: { name: string }) => t.name)).not.toContain('Intruder');
  });

  it('lets a location-limited key work at its location only', async () => {
    const made = async (name: string) => {
      const { id: locationId } = await newLocation(name);
      return { locationId, tables: [await newTable(locationId, { name: 'T1' })] };
    };
    const [mine, other] = [await made('Mine'), await made('Not mine')];
    const key = await keyWith(['tables.read', 'tables.manage'], [mine.locationId]);
    expect((await call('GET', tablesAt(mine.locationId), { key })).status).toBe(200);
    expect((await call('GET', tableAt(mine.locationId, mine.tables[0]!.id), { key })).status).toBe(200);
    const before = await total(other.locationId);
    expectRefused(await call('GET', tablesAt(other.locationId), { key }), 403, 'FORBIDDEN');
    expectRefused(
      await call('POST', tablesAt(other.locationId), { key, body: { name: 'x', minCapacity: 1, maxCapacity: 2 } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('GET', tableAt(other.locationId, other.tables[0]!.id), { key }), 403, 'FORBIDDEN');
    expectRefused(
      await call('PATCH', tableAt(other.locationId, other.tables[0]!.id), { key, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('DELETE', tableAt(other.locationId, other.tables[0]!.id), { key }), 403, 'FORBIDDEN');
    expect(await total(other.locationId)).toBe(before);
  });
});
