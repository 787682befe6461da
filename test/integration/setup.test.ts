/**
 * Locations, tables and booking groups against DynamoDB Local: what each transaction writes
 * together (counters, name reservations, partner lists, memberships, events), and what a refused
 * or stale write leaves behind (nothing).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { bookingGroups } from '../../shared/data/bookingGroups';
import { db, tableName } from '../../shared/data/client';
import { coursings } from '../../shared/data/coursings';
import { locations } from '../../shared/data/locations';
import { diningTables } from '../../shared/data/tables';
import { createBookingGroup, deleteBookingGroup, updateBookingGroup } from '../../shared/domain/bookingGroups';
import { createCoursing } from '../../shared/domain/coursings';
import { createLocation, deleteLocation, updateLocation } from '../../shared/domain/locations';
import { createTable, deleteTable, getTable, updateTable } from '../../shared/domain/tables';
import { newEvent } from '../../shared/events/catalog';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

/** Each test works in its own company, so tests and files can share the table. */
const ids = idBlock(import.meta.url);
const admin = (): Principal => ({
  kind: 'user',
  companyId: ids.next(),
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: 'test',
  internalOperator: false,
});

const hours = { monday: [{ open: '11:00', close: '22:00' }] };
const newLocation = (p: Principal, name = 'Bistro') =>
  createLocation(p, { name, timezone: 'Europe/Stockholm', operatingHours: hours });
const newTable = (p: Principal, locationId: number, name: string, combinableWith: string[] = []) =>
  createTable(p, locationId, { name, minCapacity: 2, maxCapacity: 4, combinableWith });

async function events(companyId: number) {
  const out = await companyEvents(companyId);
  return (out.Items ?? []).map(
    (i) =>
      i.payload as {
        event: string;
        resourceId: string;
        data: Record<string, unknown>;
        changes: Record<string, unknown> | null;
      },
  );
}

async function item(companyId: number, sk: string) {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk } }))).Item;
}

const pad = (n: number) => String(n).padStart(12, '0');

describe('locations repository', () => {
  it('creates a location with its counter and event; lists it with the total', async () => {
    const p = admin();
    const a = await newLocation(p, 'A');
    const b = await newLocation(p, 'B');
    expect(await locations.get(p.companyId, a.id)).toEqual(a);
    expect(a.operatingHours.tuesday).toEqual([]);
    const page = await locations.list(p.companyId, { page: 1, limit: 1 });
    expect(page.items).toEqual([a]);
    expect(page.pagination).toMatchObject({ total: 2, totalPages: 2, nextCursor: expect.any(String) });
    const next = await locations.list(p.companyId, { page: 1, limit: 1, cursor: page.pagination.nextCursor! });
    expect(next.items).toEqual([b]);
    expect((await events(p.companyId)).map((e) => e.event)).toEqual(['location.created', 'location.created']);
  });

  it('lists chosen ids by id, paged in memory, skipping ids the company does not have', async () => {
    const p = admin();
    const [a, b, c] = [await newLocation(p, 'A'), await newLocation(p, 'B'), await newLocation(p, 'C')];
    const ids = [c.id, a.id, 999_999_999, b.id];
    const first = await locations.listByIds(p.companyId, ids, { page: 1, limit: 2 });
    expect(first.items.map((l) => l.id)).toEqual([a.id, b.id]);
    expect(first.pagination).toMatchObject({ page: 1, total: 3, totalPages: 2, nextCursor: expect.any(String) });
    const second = await locations.listByIds(p.companyId, ids, {
      page: 1,
      limit: 2,
      cursor: first.pagination.nextCursor!,
    });
    expect(second.items.map((l) => l.id)).toEqual([c.id]);
    expect(second.pagination).toMatchObject({ page: 2, nextCursor: null });
    // The two kinds of cursor are not interchangeable.
    const companyCursor = (await locations.list(p.companyId, { page: 1, limit: 1 })).pagination.nextCursor!;
    await expect(
      locations.listByIds(p.companyId, ids, { page: 1, limit: 2, cursor: companyCursor }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      locations.list(p.companyId, { page: 1, limit: 2, cursor: first.pagination.nextCursor! }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('writes location.updated and location.hours.updated together when the hours change', async () => {
    const p = admin();
    const l = await newLocation(p);
    await updateLocation(p, l.id, { name: 'Renamed' });
    await updateLocation(p, l.id, { operatingHours: { sunday: [{ open: '12:00', close: '20:00' }] } });
    const log = await events(p.companyId);
    // Events of one transaction share a timestamp: their order in the log is not defined.
    expect(
      log
        .slice(2)
        .map((e) => e.event)
        .sort(),
    ).toEqual(['location.hours.updated', 'location.updated']);
    expect(log.find((e) => e.event === 'location.hours.updated')).toMatchObject({
      resourceId: String(l.id),
      data: {
        id: l.id,
        timezone: 'Europe/Stockholm',
        operatingHours: { sunday: [{ open: '12:00', close: '20:00' }], monday: [] },
      },
    });
    expect(log[1]).toMatchObject({ event: 'location.updated', changes: { name: 'Renamed' } });
  });

  it('refuses a stale update with 409 and keeps the newer state', async () => {
    const p = admin();
    const l = await newLocation(p);
    await locations.update(p.companyId, { ...l, name: 'First', version: 2 }, 1, [
      newEvent(p.companyId, 'location.updated', String(l.id), {}),
    ]);
    await expect(
      locations.update(p.companyId, { ...l, name: 'Stale', version: 2 }, 1, [
        newEvent(p.companyId, 'location.updated', String(l.id), {}),
      ]),
    ).rejects.toMatchObject({ status: 409 });
    expect((await locations.get(p.companyId, l.id))?.name).toBe('First');
    expect((await events(p.companyId)).filter((e) => e.event === 'location.updated')).toHaveLength(1);
  });

  it('refuses to delete a location that has tables, booking groups or coursings; deletes an empty one with its counters', async () => {
    const p = admin();
    const l = await newLocation(p);
    const t = await newTable(p, l.id, 'T1');
    await expect(deleteLocation(p, l.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('tables'),
    });
    const g = await createBookingGroup(p, l.id, { name: 'Terrace', tableIds: [t.id] });
    await deleteBookingGroup(p, l.id, g.id);
    await deleteTable(p, l.id, t.id);
    const c = await createCoursing(p, { locationId: l.id, title: 'Starters', order: 1 });
    await expect(deleteLocation(p, l.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining('coursings'),
    });
    expect(await locations.get(p.companyId, l.id)).toEqual(l);
    expect(await coursings.get(p.companyId, c.id)).toBeDefined();

    const other = await newLocation(p, 'Empty');
    const before = (await events(p.companyId)).length;
    expect(await deleteLocation(p, other.id)).toEqual(other);
    expect(await locations.get(p.companyId, other.id)).toBeUndefined();
    expect(await item(p.companyId, `COUNT#TABLE#L#${pad(other.id)}`)).toBeUndefined();
    expect((await item(p.companyId, 'COUNT#LOCATION'))?.n).toBe(1);
    const log = await events(p.companyId);
    expect(log).toHaveLength(before + 1);
    expect(log.at(-1)).toMatchObject({ event: 'location.deleted', data: other });
  });

  it('refuses to delete a location whose booking groups remain, on the group counter alone', async () => {
    const p = admin();
    const l = await newLocation(p);
    const t = await newTable(p, l.id, 'T1');
    await createBookingGroup(p, l.id, { name: 'Bar', tableIds: [t.id] });
    // A group needs tables, so the table guard would answer first; zero the table counter to test the group guard alone.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `C#${p.companyId}`, sk: `COUNT#TABLE#L#${pad(l.id)}` },
        UpdateExpression: 'SET n = :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    await expect(
      locations.remove(p.companyId, l, newEvent(p.companyId, 'location.deleted', String(l.id), {})),
    ).rejects.toMatchObject({ status: 409, message: expect.stringContaining('booking groups') });
    expect(await locations.get(p.companyId, l.id)).toEqual(l);
  });
});

describe('tables repository', () => {
  it('reserves names per location, ignoring case: a duplicate is 409 and writes nothing', async () => {
    const p = admin();
    const l = await newLocation(p);
    const other = await newLocation(p, 'Other');
    await newTable(p, l.id, 'Window 1');
    const before = {
      events: (await events(p.companyId)).length,
      n: (await item(p.companyId, `COUNT#TABLE#L#${pad(l.id)}`))?.n,
    };
    await expect(newTable(p, l.id, 'WINDOW 1')).rejects.toMatchObject({
      status: 409,
      details: [{ path: '/name', message: expect.any(String) }],
    });
    expect((await diningTables.list(p.companyId, l.id, { page: 1, limit: 10 })).items).toHaveLength(1);
    expect((await events(p.companyId)).length).toBe(before.events);
    expect((await item(p.companyId, `COUNT#TABLE#L#${pad(l.id)}`))?.n).toBe(before.n);
    // Another location may use the name.
    await expect(newTable(p, other.id, 'Window 1')).resolves.toMatchObject({ name: 'Window 1' });
  });

  it('releases the old name on rename and on delete', async () => {
    const p = admin();
    const l = await newLocation(p);
    const t = await newTable(p, l.id, 'A1');
    await updateTable(p, l.id, t.id, { name: 'B1' });
    await expect(newTable(p, l.id, 'A1')).resolves.toBeDefined();
    await expect(newTable(p, l.id, 'b1')).rejects.toMatchObject({ status: 409 });
    await deleteTable(p, l.id, t.id);
    await expect(newTable(p, l.id, 'B1')).resolves.toBeDefined();
  });

  it('lists by name with numbers in order, with the total from the counter', async () => {
    const p = admin();
    const l = await newLocation(p);
    for (const name of ['T10', 'T2', 'T1']) await newTable(p, l.id, name);
    const page = await diningTables.list(p.companyId, l.id, { page: 1, limit: 10 });
    expect(page.items.map((t) => t.name)).toEqual(['T1', 'T2', 'T10']);
    expect(page.pagination.total).toBe(3);
  });

  it('keeps combinableWith symmetric on create, update and delete, with an event per changed table', async () => {
    const p = admin();
    const l = await newLocation(p);
    const a = await newTable(p, l.id, 'A');
    const b = await newTable(p, l.id, 'B');
    const c = await newTable(p, l.id, 'C', [a.id, b.id]);
    expect((await getTable(p, l.id, a.id)).combinableWith).toEqual([c.id]);
    expect((await getTable(p, l.id, b.id)).combinableWith).toEqual([c.id]);
    expect((await getTable(p, l.id, a.id)).version).toBe(2);

    await updateTable(p, l.id, c.id, { combinableWith: [b.id] });
    expect((await getTable(p, l.id, a.id)).combinableWith).toEqual([]);
    expect((await getTable(p, l.id, b.id)).combinableWith).toEqual([c.id]);

    const before = (await events(p.companyId)).length;
    await deleteTable(p, l.id, c.id);
    expect((await getTable(p, l.id, b.id)).combinableWith).toEqual([]);
    const log = (await events(p.companyId)).slice(before);
    expect(log.map((e) => [e.event, e.resourceId]).sort()).toEqual(
      [
        ['table.deleted', c.id],
        ['table.updated', b.id],
      ].sort(),
    );
    expect(log.find((e) => e.resourceId === b.id)).toMatchObject({
      data: { id: b.id, combinableWith: [] },
      changes: { combinableWith: [] },
    });
  });

  it('refuses unknown partners with 404 naming their places in the request, and tables of another location', async () => {
    const p = admin();
    const l = await newLocation(p);
    const elsewhere = await newTable(p, (await newLocation(p, 'Other')).id, 'X');
    const a = await newTable(p, l.id, 'A');
    const unknown = '0b6f3f8e-8c1e-4d0b-9d2a-3c4e5f6a7b8c';
    await expect(newTable(p, l.id, 'B', [a.id, unknown, elsewhere.id])).rejects.toMatchObject({
      status: 404,
      details: [{ path: '/combinableWith/1' }, { path: '/combinableWith/2' }].map((d) => ({
        ...d,
        message: expect.any(String),
      })),
    });
    expect((await getTable(p, l.id, a.id)).combinableWith).toEqual([]);
    expect((await diningTables.list(p.companyId, l.id, { page: 1, limit: 10 })).items.map((t) => t.name)).toEqual([
      'A',
    ]);
  });

  it('refuses to give a table a 21st partner (422), writing nothing', async () => {
    const p = admin();
    const l = await newLocation(p);
    const spokes: string[] = [];
    for (let i = 0; i < 20; i++) spokes.push((await newTable(p, l.id, `S${i}`)).id);
    const hub = await newTable(p, l.id, 'Hub', spokes);
    expect(hub.combinableWith).toHaveLength(20);
    const before = (await events(p.companyId)).length;
    await expect(newTable(p, l.id, 'Extra', [spokes[0]!, hub.id])).rejects.toMatchObject({
      status: 422,
      details: [{ path: '/combinableWith/1', message: expect.any(String) }],
    });
    expect(await getTable(p, l.id, hub.id)).toEqual(hub);
    expect(await events(p.companyId)).toHaveLength(before);
  });

  it('fails a partner write made from a stale read with 409, changing nothing', async () => {
    const p = admin();
    const l = await newLocation(p);
    const a = await newTable(p, l.id, 'A');
    const b = await newTable(p, l.id, 'B');
    await updateTable(p, l.id, a.id, { maxCapacity: 6 }); // a is now at version 2
    const next = { ...b, combinableWith: [a.id], version: 2 };
    const staleA = { next: { ...a, combinableWith: [b.id], version: 2 }, expectedVersion: 1 };
    await expect(diningTables.update(p.companyId, b, next, [staleA], [])).rejects.toMatchObject({ status: 409 });
    expect((await getTable(p, l.id, b.id)).combinableWith).toEqual([]);
    expect(await getTable(p, l.id, a.id)).toMatchObject({ combinableWith: [], maxCapacity: 6 });
  });
});

describe('booking groups repository', () => {
  it('records membership on its tables: a member table cannot be deleted, even by a write made before it joined', async () => {
    const p = admin();
    const l = await newLocation(p);
    const [t1, t2] = [await newTable(p, l.id, 'T1'), await newTable(p, l.id, 'T2')];
    const g = await createBookingGroup(p, l.id, { name: 'Terrace', tableIds: [t1.id, t2.id] });
    expect(await bookingGroups.get(p.companyId, l.id, g.id)).toEqual(g);
    expect((await diningTables.get(p.companyId, l.id, t1.id))?.groupIds).toEqual([g.id]);
    await expect(deleteTable(p, l.id, t1.id)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(g.id),
    });
    await expect(diningTables.remove(p.companyId, t1, [], [])).rejects.toMatchObject({ status: 409 });
    expect(await getTable(p, l.id, t1.id)).toEqual(t1);

    await updateBookingGroup(p, l.id, g.id, { tableIds: [t2.id] });
    expect((await diningTables.get(p.companyId, l.id, t1.id))?.groupIds).toEqual([]);
    await expect(deleteTable(p, l.id, t1.id)).resolves.toEqual(t1);
    await deleteBookingGroup(p, l.id, g.id);
    expect((await diningTables.get(p.companyId, l.id, t2.id))?.groupIds).toEqual([]);
    expect(await bookingGroups.get(p.companyId, l.id, g.id)).toBeUndefined();
  });

  it('refuses a group naming a table the location does not have: 404 with its place, nothing written', async () => {
    const p = admin();
    const l = await newLocation(p);
    const t = await newTable(p, l.id, 'T1');
    const unknown = '5d7c9e1a-2b3c-4d5e-8f9a-0b1c2d3e4f5a';
    const before = (await events(p.companyId)).length;
    await expect(createBookingGroup(p, l.id, { name: 'Bar', tableIds: [t.id, unknown] })).rejects.toMatchObject({
      status: 404,
      details: [{ path: '/tableIds/1', message: expect.any(String) }],
    });
    expect((await bookingGroups.list(p.companyId, l.id, { page: 1, limit: 10 })).pagination.total).toBe(0);
    expect((await diningTables.get(p.companyId, l.id, t.id))?.groupIds).toEqual([]);
    expect(await events(p.companyId)).toHaveLength(before);
  });

  it("leaves a table's own updates and its memberships independent", async () => {
    const p = admin();
    const l = await newLocation(p);
    const t = await newTable(p, l.id, 'T1');
    const g = await createBookingGroup(p, l.id, { name: 'Bar', tableIds: [t.id] });
    await updateTable(p, l.id, t.id, { name: 'T1b', maxCapacity: 8 });
    expect(await diningTables.get(p.companyId, l.id, t.id)).toMatchObject({
      table: { name: 'T1b', maxCapacity: 8, version: 2 },
      groupIds: [g.id],
    });
  });
});
