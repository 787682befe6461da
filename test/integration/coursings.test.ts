/** The coursing repository against DynamoDB Local: transactions, counters, outbox, paging, versions. */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../shared/data/client';
import { coursings, type Coursing } from '../../shared/data/coursings';
import { locations, type Location } from '../../shared/data/locations';
import { normalizeHours } from '../../shared/domain/openingHours';
import { AppError } from '../../shared/errors';
import { newEvent } from '../../shared/events/catalog';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

/** Each test file works in its own company, so files can run in parallel on one table. */
const ids = idBlock(import.meta.url);
const companyId = ids.next();
const otherCompany = ids.next();

function coursing(locationId: number, order: number, title = `Course ${order}`): Coursing {
  const now = new Date().toISOString();
  return { id: randomUUID(), locationId, title, order, color: null, version: 1, createdAt: now, updatedAt: now };
}

const create = (c: Coursing, company = companyId) =>
  coursings.create(company, c, newEvent(company, 'coursing.created', c.id, { ...c }));

async function events(company: number) {
  const out = await companyEvents(company);
  return out.Items ?? [];
}

async function counter(sk: string) {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk } }));
  return out.Item?.n;
}

/** A location of `company`, through its repository (coursings need one that exists). */
async function addLocation(company: number, id: number, name: string) {
  const now = new Date().toISOString();
  const l: Location = {
    id,
    name,
    timezone: 'Europe/Stockholm',
    operatingHours: normalizeHours({}),
    address: null,
    phone: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.create(company, l, newEvent(company, 'location.created', String(id), { ...l }));
}

beforeAll(async () => {
  await addLocation(companyId, 11, 'A');
  await addLocation(companyId, 12, 'B');
});

describe('coursings repository', () => {
  it('writes the coursing, both counters and the outbox event in one transaction', async () => {
    const before = (await events(companyId)).length;
    const c = coursing(11, 5);
    await create(c);
    expect(await coursings.get(companyId, c.id)).toEqual(c);
    const recorded = await events(companyId);
    expect(recorded).toHaveLength(before + 1);
    expect(recorded.at(-1)).toMatchObject({
      entity: 'OUTBOX',
      companyId,
      payload: { event: 'coursing.created', resource: 'coursing', resourceId: c.id, data: c },
    });
  });

  it('refuses a coursing for a location the company does not have, writing nothing', async () => {
    const before = { events: (await events(otherCompany)).length, total: await counter('COUNT#COURSING') };
    const c = coursing(11, 1);
    await expect(create(c, otherCompany)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await coursings.get(otherCompany, c.id)).toBeUndefined();
    expect(await events(otherCompany)).toHaveLength(before.events);
    expect(await counter('COUNT#COURSING')).toBe(before.total);
  });

  it('keeps tenants apart: another company cannot read the coursing by id', async () => {
    const c = coursing(11, 6);
    await create(c);
    expect(await coursings.get(otherCompany, c.id)).toBeUndefined();
  });

  it('updates only from the version it read: a stale writer gets CONFLICT and changes nothing', async () => {
    const c = coursing(12, 3);
    await create(c);
    const first = { ...c, title: 'First', version: 2 };
    await coursings.update(
      companyId,
      first,
      1,
      newEvent(companyId, 'coursing.updated', c.id, first, { title: 'First' }),
    );
    const stale = { ...c, title: 'Stale', version: 2 };
    const err = await coursings
      .update(companyId, stale, 1, newEvent(companyId, 'coursing.updated', c.id, stale, { title: 'Stale' }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(409);
    expect((await coursings.get(companyId, c.id))?.title).toBe('First');
    const updates = (await events(companyId)).filter(
      (e) => e.payload.resourceId === c.id && e.payload.event === 'coursing.updated',
    );
    expect(updates).toHaveLength(1);
  });
});

describe('paging', () => {
  const loc = ids.next();
  const pageCompany = ids.next();
  const made: Coursing[] = [];

  beforeAll(async () => {
    await addLocation(pageCompany, loc, 'P');
    for (let i = 0; i < 7; i++) {
      const c = coursing(loc, 10 * (7 - i) + 0.5, `P${i}`);
      made.push(c);
      await create(c, pageCompany);
    }
  });

  it('lists by display order with totals from the counter', async () => {
    const page = await coursings.list(pageCompany, loc, { page: 1, limit: 3 });
    expect(page.items.map((c) => c.order)).toEqual([10.5, 20.5, 30.5]);
    expect(page.pagination).toMatchObject({ page: 1, limit: 3, total: 7, totalPages: 3 });
    expect(page.pagination.nextCursor).toEqual(expect.any(String));
  });

  it('serves page N by offset and by cursor with the same items', async () => {
    const byPage = await coursings.list(pageCompany, loc, { page: 2, limit: 3 });
    const first = await coursings.list(pageCompany, loc, { page: 1, limit: 3 });
    const byCursor = await coursings.list(pageCompany, loc, {
      page: 1,
      limit: 3,
      cursor: first.pagination.nextCursor!,
    });
    expect(byCursor.items).toEqual(byPage.items);
    expect(byCursor.pagination.page).toBe(2);
    const last = await coursings.list(pageCompany, loc, { page: 1, limit: 3, cursor: byCursor.pagination.nextCursor! });
    expect(last.items.map((c) => c.order)).toEqual([70.5]);
    expect(last.pagination.nextCursor).toBeNull();
  });

  it('answers an empty page past the end', async () => {
    const page = await coursings.list(pageCompany, loc, { page: 9, limit: 3 });
    expect(page.items).toEqual([]);
    expect(page.pagination.total).toBe(7);
  });

  it('rejects cursors that are garbage or belong to another list', async () => {
    await expect(coursings.list(pageCompany, loc, { page: 1, limit: 3, cursor: 'garbage' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const first = await coursings.list(pageCompany, loc, { page: 1, limit: 3 });
    // A cursor of this company replayed by another company is refused, not followed.
    await expect(
      coursings.list(companyId, loc, { page: 1, limit: 3, cursor: first.pagination.nextCursor! }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
