/**
 * Inventory items over HTTP: every operation, every bound, permissions, the
 * tenant wall, events, and order lines that take their fields from an item. The file acts as a
 * company of its own, with locations of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { tabWithoutBooking } from '../support/stage-data';
import { eventsOf } from './bookings-helpers';
import { admin, expectRefused, keyWith, newLocation, theirAdmin, theirLocation, useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

const own = useOwnCompany('Items test company');

let here: number;
let there: number;
beforeAll(async () => {
  here = (await newLocation('Items bistro')).id;
  there = (await newLocation('Items annex')).id;
});

const body = (extra: Record<string, unknown> = {}) => ({
  locationId: here,
  name: 'Toast Skagen',
  price: 14500,
  vatRate: 12,
  categoryHandle: 'starters',
  ...extra,
});
async function newItem(extra: Record<string, unknown> = {}, key = admin()) {
  const out = await call('POST', '/api/v1/items', { key, body: body(extra) });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data as Schemas['Item'];
}
const list = async (query: string, key = admin()) => {
  const out = await call('GET', `/api/v1/items?${query}`, { key });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body as { data: Schemas['Item'][]; meta: { pagination: Schemas['Pagination'] } };
};
const ids = (page: { data: Schemas['Item'][] }) => page.data.map((i) => i.id);

describe('items: the happy path', () => {
  it('creates, reads, lists, updates and deletes an item, with an event for each change', async () => {
    const since = new Date().toISOString();
    const created = await call('POST', '/api/v1/items', {
      key: admin(),
      body: body({ costCenter: { code: '3010', name: 'Kitchen' } }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const item = created.body.data;
    expect(item).toEqual({
      id: expect.any(Number),
      locationId: here,
      name: 'Toast Skagen',
      price: 14500,
      vatRate: 12,
      categoryHandle: 'starters',
      costCenter: { code: '3010', name: 'Kitchen' },
      customTagIds: [],
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: item.createdAt,
    });
    expect((await call('GET', `/api/v1/items/${item.id}`, { key: admin() })).body.data).toEqual(item);
    expect((await list(`locationId=${here}&limit=100`)).data).toContainEqual(item);

    const updated = await call('PATCH', `/api/v1/items/${item.id}`, {
      key: admin(),
      body: { price: 15500, vatRate: 12, costCenter: null, name: 'Toast Skagen' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({
      ...item,
      price: 15500,
      costCenter: null,
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await call('GET', `/api/v1/items/${item.id}`, { key: admin() })).body.data).toEqual(updated.body.data);

    const deleted = await call('DELETE', `/api/v1/items/${item.id}`, { key: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expectRefused(await call('GET', `/api/v1/items/${item.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', `/api/v1/items/${item.id}`, { key: admin(), body: { name: 'Gone' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', `/api/v1/items/${item.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expect(ids(await list(`locationId=${here}&limit=100`))).not.toContain(item.id);

    const [createdEvent] = await eventsOf('item.created', String(item.id), since);
    expect(createdEvent).toMatchObject({ resource: 'item', resourceId: String(item.id), data: item, changes: null });
    const [updatedEvent] = await eventsOf('item.updated', String(item.id), since);
    // Only the modified fields: the name and VAT rate sent unchanged are not among them.
    expect(updatedEvent!.changes).toEqual({ price: 15500, costCenter: null });
    expect(updatedEvent!.data).toEqual(updated.body.data);
    const [deletedEvent] = await eventsOf('item.deleted', String(item.id), since);
    expect(deletedEvent).toMatchObject({ data: updated.body.data });
  });

  it('an update that changes nothing writes nothing', async () => {
    const since = new Date().toISOString();
    const item = await newItem({ name: 'Unchanged' });
    const same = await call('PATCH', `/api/v1/items/${item.id}`, {
      key: admin(),
      body: { name: 'Unchanged', price: item.price },
    });
    expect(same.body.data).toEqual(item);
    expect(await eventsOf('item.updated', String(item.id), since)).toEqual([]);
  });
});

describe('items: listing', () => {
  it('filters by location and category, counts each, and pages by cursor', async () => {
    const place = (await newLocation('Items list bistro')).id;
    const a = await newItem({ locationId: place, name: 'Herring', categoryHandle: 'starters' });
    const b = await newItem({ locationId: place, name: 'Pickled herring', categoryHandle: 'starters' });
    const c = await newItem({ locationId: place, name: 'Meatballs', categoryHandle: 'mains' });
    const elsewhere = await newItem({ locationId: there, name: 'Herring elsewhere', categoryHandle: 'starters' });

    const all = await list(`locationId=${place}&limit=2`);
    expect(ids(all)).toEqual([a.id, b.id]);
    expect(all.meta.pagination).toMatchObject({
      page: 1,
      limit: 2,
      total: 3,
      totalPages: 2,
      nextCursor: expect.any(String),
    });
    const rest = await list(`locationId=${place}&limit=2&cursor=${all.meta.pagination.nextCursor}`);
    expect(ids(rest)).toEqual([c.id]);
    expect(rest.meta.pagination).toMatchObject({ page: 2, total: 3, nextCursor: null });

    const starters = await list(`locationId=${place}&category=starters`);
    expect(ids(starters)).toEqual([a.id, b.id]);
    expect(starters.meta.pagination.total).toBe(2);
    const everywhere = await list(`category=starters&limit=100`);
    expect(ids(everywhere)).toEqual(expect.arrayContaining([a.id, b.id, elsewhere.id]));
    expect(ids(everywhere)).not.toContain(c.id);

    // A new category moves the item between the category lists and their counts.
    expect(
      (await call('PATCH', `/api/v1/items/${b.id}`, { key: admin(), body: { categoryHandle: 'mains' } })).status,
    ).toBe(200);
    const mains = await list(`locationId=${place}&category=mains`);
    expect(ids(mains)).toEqual([b.id, c.id]);
    expect(mains.meta.pagination.total).toBe(2);
    expect((await list(`locationId=${place}&category=starters`)).meta.pagination.total).toBe(1);
    // A delete takes it out of every count.
    expect((await call('DELETE', `/api/v1/items/${c.id}`, { key: admin() })).status).toBe(200);
    expect((await list(`locationId=${place}&category=mains`)).meta.pagination.total).toBe(1);
    expect((await list(`locationId=${place}`)).meta.pagination.total).toBe(2);
  });

  it('searches names by a part of them, ignoring case, and pages the matches', async () => {
    const place = (await newLocation('Items search bistro')).id;
    const made = [];
    for (const name of ['Herring', 'Pickled HERRING', 'Meatballs', 'Herring salad', 'Beer'])
      made.push(await newItem({ locationId: place, name }));
    const found = await list(`locationId=${place}&search=herr&limit=100`);
    expect(ids(found)).toEqual([made[0]!.id, made[1]!.id, made[3]!.id]);
    expect(found.meta.pagination).toMatchObject({ total: 3, nextCursor: null });
    // Paged two at a time, following cursors, the same three come back once each.
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        `locationId=${place}&search=HERR&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...ids(page));
      cursor = page.meta.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual([made[0]!.id, made[1]!.id, made[3]!.id]);
    expect(ids(await list(`locationId=${place}&search=zzz`))).toEqual([]);
  });

  it('a location with items cannot be deleted until they are', async () => {
    const place = (await newLocation('Items delete bistro')).id;
    const item = await newItem({ locationId: place });
    const refused = await call('DELETE', `/api/v1/locations/${place}`, { key: admin() });
    expectRefused(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toContain('items (1)');
    expect((await call('DELETE', `/api/v1/items/${item.id}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/locations/${place}`, { key: admin() })).status).toBe(200);
  });
});

describe('items: bounds', () => {
  it('refuses each field out of bounds, naming it', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: '' }, '/name'],
      [{ name: '   ' }, '/name'],
      [{ name: 'x'.repeat(201) }, '/name'],
      [{ price: -1 }, '/price'],
      [{ price: 100_000_001 }, '/price'],
      [{ price: 10.5 }, '/price'],
      [{ vatRate: -0.5 }, '/vatRate'],
      [{ vatRate: 100.01 }, '/vatRate'],
      [{ vatRate: 12.345 }, '/vatRate'],
      [{ categoryHandle: 'Main Courses' }, '/categoryHandle'],
      [{ categoryHandle: 'a#b' }, '/categoryHandle'],
      [{ categoryHandle: 'x'.repeat(101) }, '/categoryHandle'],
      [{ costCenter: { code: '', name: 'Kitchen' } }, '/costCenter/code'],
      [{ costCenter: { code: '3010' } }, '/costCenter'],
      [{ surprise: true }, ''],
    ];
    for (const [extra, path] of refusals) {
      const out = await call('POST', '/api/v1/items', { key: admin(), body: body(extra) });
      expectRefused(out, 400, 'VALIDATION_FAILED');
      if (path)
        expect(out.body.error.details.map((d: { path: string }) => d.path).join(' '), JSON.stringify(extra)).toContain(
          path,
        );
    }
    const { locationId: _drop, ...noLocation } = body();
    expectRefused(await call('POST', '/api/v1/items', { key: admin(), body: noLocation }), 400, 'VALIDATION_FAILED');
    // The edges themselves are accepted.
    const edges = await newItem({ name: 'x'.repeat(200), price: 100_000_000, vatRate: 100, categoryHandle: 'a_b-c1' });
    expect(edges).toMatchObject({ price: 100_000_000, vatRate: 100 });
    expect(await newItem({ price: 0, vatRate: 7.7 })).toMatchObject({ price: 0, vatRate: 7.7 });

    const item = await newItem();
    expectRefused(
      await call('PATCH', `/api/v1/items/${item.id}`, { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(
      await call('PATCH', `/api/v1/items/${item.id}`, { key: admin(), body: { vatRate: 0.001 } }),
      400,
      'VALIDATION_FAILED',
      '/vatRate',
    );
    expectRefused(
      await call('PATCH', `/api/v1/items/${item.id}`, { key: admin(), body: { locationId: there } }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(await call('GET', '/api/v1/items/abc', { key: admin() }), 400, 'VALIDATION_FAILED');
    expectRefused(await call('GET', '/api/v1/items/0', { key: admin() }), 400, 'VALIDATION_FAILED');
    expectRefused(await call('GET', '/api/v1/items?limit=101', { key: admin() }), 400, 'VALIDATION_FAILED', '/limit');
    expectRefused(
      await call('GET', '/api/v1/items?category=Not%20A%20Handle', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/category',
    );
    expectRefused(await call('GET', '/api/v1/items?search=%20', { key: admin() }), 400, 'VALIDATION_FAILED', '/search');
    expectRefused(
      await call('POST', '/api/v1/items', { key: admin(), body: body({ locationId: 999_999_999 }) }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('items: permissions and the tenant wall', () => {
  it('reading needs items.read, changing items.manage (403 otherwise, nothing written)', async () => {
    const item = await newItem();
    const reader = await keyWith(['items.read']);
    expect((await call('GET', `/api/v1/items/${item.id}`, { key: reader })).status).toBe(200);
    expect((await call('GET', `/api/v1/items?locationId=${here}`, { key: reader })).status).toBe(200);
    expectRefused(await call('POST', '/api/v1/items', { key: reader, body: body() }), 403, 'FORBIDDEN');
    expectRefused(
      await call('PATCH', `/api/v1/items/${item.id}`, { key: reader, body: { name: 'No' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('DELETE', `/api/v1/items/${item.id}`, { key: reader }), 403, 'FORBIDDEN');
    const none = await keyWith(['coursings.read']);
    expectRefused(await call('GET', `/api/v1/items/${item.id}`, { key: none }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', '/api/v1/items', { key: none }), 403, 'FORBIDDEN');
    expect((await call('GET', `/api/v1/items/${item.id}`, { key: admin() })).body.data).toEqual(item);
  });

  it("a key limited to a location reaches only that location's items", async () => {
    const mine = await newItem();
    const theirs = await newItem({ locationId: there });
    const key = await keyWith(['items.read', 'items.manage'], [here]);
    expect((await call('GET', `/api/v1/items/${mine.id}`, { key })).status).toBe(200);
    expectRefused(await call('GET', `/api/v1/items/${theirs.id}`, { key }), 403, 'FORBIDDEN');
    expectRefused(await call('PATCH', `/api/v1/items/${theirs.id}`, { key, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectRefused(await call('POST', '/api/v1/items', { key, body: body({ locationId: there }) }), 403, 'FORBIDDEN');
    const listed = await list('limit=100', key);
    expect(new Set(listed.data.map((i) => i.locationId))).toEqual(new Set([here]));
    expectRefused(await call('GET', `/api/v1/items?locationId=${there}`, { key }), 403, 'FORBIDDEN');
  });

  it("hides another company's items (404) and refuses its locations (404)", async () => {
    const theirs = await call('POST', '/api/v1/items', {
      key: theirAdmin(),
      body: body({ locationId: theirLocation(), name: 'Their item' }),
    });
    expect(theirs.status).toBe(200);
    const id = theirs.body.data.id;
    expectRefused(await call('GET', `/api/v1/items/${id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', `/api/v1/items/${id}`, { key: admin(), body: { name: 'Mine now' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', `/api/v1/items/${id}`, { key: admin() }), 404, 'NOT_FOUND');
    expect(ids(await list('limit=100'))).not.toContain(id);
    expectRefused(
      await call('POST', '/api/v1/items', { key: admin(), body: body({ locationId: theirLocation() }) }),
      404,
      'NOT_FOUND',
    );
    expect((await call('GET', `/api/v1/items/${id}`, { key: theirAdmin() })).body.data).toEqual(theirs.body.data);
  });
});

describe('order lines naming an item', () => {
  const order = (tabId: string, lines: unknown[]) =>
    call('POST', `/api/v1/tabs/${tabId}/orders`, { key: admin(), body: { items: lines } });

  it("take the item's name, price, VAT rate and cost center unless the line gives them", async () => {
    const item = await newItem({
      name: 'Pytt i panna',
      price: 18900,
      vatRate: 12,
      costCenter: { code: '3010', name: 'Kitchen' },
    });
    const plain = await newItem({ name: 'Bread', price: 0, vatRate: 12 });
    const tab = await tabWithoutBooking(own().companyId, here);
    const out = await order(tab.id, [
      { itemId: item.id, quantity: 2 },
      { itemId: item.id, quantity: 1, name: 'Pytt (small)', price: 12900, vatRate: 6, costCenter: null },
      { itemId: plain.id, quantity: 1 },
      { name: 'Off the menu', price: 5000, quantity: 1 },
    ]);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.data.items).toEqual([
      {
        itemId: item.id,
        name: 'Pytt i panna',
        price: 18900,
        vatRate: 12,
        costCenter: { code: '3010', name: 'Kitchen' },
        quantity: 2,
        coursingId: null,
        modifications: [],
      },
      {
        itemId: item.id,
        name: 'Pytt (small)',
        price: 12900,
        vatRate: 6,
        costCenter: null,
        quantity: 1,
        coursingId: null,
        modifications: [],
      },
      {
        itemId: plain.id,
        name: 'Bread',
        price: 0,
        vatRate: 12,
        costCenter: null,
        quantity: 1,
        coursingId: null,
        modifications: [],
      },
      { itemId: null, name: 'Off the menu', price: 5000, quantity: 1, coursingId: null, modifications: [] },
    ]);
    const stored = await call('GET', `/api/v1/tabs/${tab.id}/orders`, { key: admin() });
    expect(stored.body.data[0].items).toEqual(out.body.data.items);
  });

  it('refuse an unknown item or one of another location (404 naming the line), and a line without item, name or price (400); nothing is placed', async () => {
    const elsewhere = await newItem({ locationId: there });
    const tab = await tabWithoutBooking(own().companyId, here);
    expectRefused(
      await order(tab.id, [
        { name: 'Ok', price: 1, quantity: 1 },
        { itemId: elsewhere.id, quantity: 1 },
      ]),
      404,
      'NOT_FOUND',
      '/items/1/itemId',
    );
    expectRefused(await order(tab.id, [{ itemId: 999_999_999, quantity: 1 }]), 404, 'NOT_FOUND', '/items/0/itemId');
    const missing = await order(tab.id, [
      { quantity: 1, price: 100 },
      { quantity: 1, name: 'No price' },
    ]);
    expectRefused(missing, 400, 'VALIDATION_FAILED');
    expect(missing.body.error.details.map((d: { path: string }) => d.path)).toEqual([
      '/items/0/name',
      '/items/1/price',
    ]);
    expectRefused(
      await order(tab.id, [{ name: 'x', price: 1, quantity: 1, vatRate: 101 }]),
      400,
      'VALIDATION_FAILED',
      '/items/0/vatRate',
    );
    expect((await call('GET', `/api/v1/tabs/${tab.id}/orders`, { key: admin() })).body.data).toEqual([]);
  });
});
