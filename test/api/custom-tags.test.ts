/**
 * Custom tags over HTTP (docs/menu.md, “Custom tags”): create (linked to the item), link, unlink, search by key and
 * word prefix; bounds, permissions, the tenant wall, events. The file acts as a company of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { eventsOf } from './bookings-helpers';
import { admin, expectRefused, keyWith, newLocation, theirAdmin, theirLocation, useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

useOwnCompany('Custom tags test company');

let here: number;
let there: number;
beforeAll(async () => {
  here = (await newLocation('Tags bistro')).id;
  there = (await newLocation('Tags annex')).id;
});

async function newItem(locationId = here, key = admin()) {
  const out = await call('POST', '/api/v1/items', {
    key,
    body: { locationId, name: 'Salad', price: 9900, vatRate: 12, categoryHandle: 'mains' },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data as Schemas['Item'];
}
const createTag = (body: Record<string, unknown>, key = admin()) =>
  call('POST', '/api/v1/custom-tags', { key, body: { categoryHandle: 'diet', ...body } });
const link = (itemId: number, customTagId: number, key = admin()) =>
  call('POST', '/api/v1/custom-tags/link', { key, body: { itemId, customTagId } });
const unlink = (itemId: number, customTagId: number, key = admin()) =>
  call('POST', '/api/v1/custom-tags/unlink', { key, body: { itemId, customTagId } });
const itemTags = async (itemId: number) =>
  (await call('GET', `/api/v1/items/${itemId}`, { key: admin() })).body.data.customTagIds as number[];
const search = async (q: string, extra = '', key = admin()) => {
  const out = await call('GET', `/api/v1/custom-tags/search?query=${encodeURIComponent(q)}${extra}`, { key });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body;
};

describe('custom tags: the happy path', () => {
  it('creates a tag linked to the item, links it to another, unlinks it, with events', async () => {
    const since = new Date().toISOString();
    const [first, second] = [await newItem(), await newItem()];
    const created = await createTag({ itemId: first.id, key: 'Gluten free' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const tag = created.body.data;
    expect(tag).toEqual({
      id: expect.any(Number),
      categoryHandle: 'diet',
      key: 'Gluten free',
      createdAt: expect.stringMatching(/Z$/),
    });
    expect(await itemTags(first.id)).toEqual([tag.id]);

    const linked = await link(second.id, tag.id);
    expect(linked.status).toBe(200);
    expect(linked.body.data).toMatchObject({ id: second.id, customTagIds: [tag.id], version: 2 });
    expect(await itemTags(second.id)).toEqual([tag.id]);
    // Linking again changes nothing.
    expect((await link(second.id, tag.id)).body.data).toEqual(linked.body.data);

    const unlinked = await unlink(first.id, tag.id);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.data).toMatchObject({ id: first.id, customTagIds: [], version: 3 });
    expect(await itemTags(first.id)).toEqual([]);
    expect((await unlink(first.id, tag.id)).body.data).toEqual(unlinked.body.data);

    const [createdEvent] = await eventsOf('custom-tag.created', String(tag.id), since);
    expect(createdEvent).toMatchObject({ resource: 'custom-tag', data: { ...tag, itemId: first.id }, changes: null });
    const firstUpdates = await eventsOf('item.updated', String(first.id), since);
    expect(firstUpdates.map((e) => e.changes)).toEqual(
      expect.arrayContaining([{ customTagIds: [tag.id] }, { customTagIds: [] }]),
    );
    expect(firstUpdates).toHaveLength(2);
    const secondUpdates = await eventsOf('item.updated', String(second.id), since);
    expect(secondUpdates.map((e) => e.changes)).toEqual([{ customTagIds: [tag.id] }]);
  });

  it('keys are unique within a category handle', async () => {
    const item = await newItem();
    expect((await createTag({ itemId: item.id, key: 'Spicy', categoryHandle: 'flavour' })).status).toBe(200);
    const again = await createTag({ itemId: item.id, key: 'Spicy', categoryHandle: 'flavour' });
    expectRefused(again, 409, 'CONFLICT');
    expect(await itemTags(item.id)).toHaveLength(1);
    expect((await createTag({ itemId: item.id, key: 'Spicy', categoryHandle: 'warning' })).status).toBe(200);
  });
});

describe('custom tags: search', () => {
  it('finds tags by the start of their key or of any word, folded, each once, paged', async () => {
    const item = await newItem();
    const made: Record<string, number> = {};
    for (const key of ['Vegan', 'Vegetarian option', 'Not vegan', 'Végétal', 'Served warm', 'Warm vegan bowl']) {
      const out = await createTag({ itemId: item.id, key, categoryHandle: 'search' });
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      made[key] = out.body.data.id;
    }
    const found = await search('veg', '&limit=50');
    const keys = found.data.map((t: { key: string }) => t.key).sort();
    expect(keys).toEqual(['Not vegan', 'Vegan', 'Vegetarian option', 'Végétal', 'Warm vegan bowl'].sort());
    expect(found.meta.pagination).toMatchObject({ total: 5, nextCursor: null });
    expect((await search('VEGAN')).data.map((t: { key: string }) => t.key).sort()).toEqual([
      'Not vegan',
      'Vegan',
      'Warm vegan bowl',
    ]);
    expect((await search('warm veg')).data.map((t: { id: number }) => t.id)).toEqual([made['Warm vegan bowl']]);
    expect((await search('egan')).data).toEqual([]);

    // Two at a time by cursor: the same five, each once.
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Schemas['CustomTag'][]; meta: { pagination: Schemas['Pagination'] } } = await search(
        'veg',
        `&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((t: { id: number }) => t.id));
      cursor = page.meta.pagination.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(found.data.map((t: { id: number }) => t.id).sort());
  });

  it('refuses a query shorter than 3 letters or digits, and a cursor of another search', async () => {
    expectRefused(
      await call('GET', '/api/v1/custom-tags/search?query=ve', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/query',
    );
    expectRefused(
      await call('GET', '/api/v1/custom-tags/search?query=v--', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/query',
    );
    expectRefused(await call('GET', '/api/v1/custom-tags/search', { key: admin() }), 400, 'VALIDATION_FAILED');
    expectRefused(
      await call('GET', '/api/v1/custom-tags/search?query=veg&limit=51', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expectRefused(
      await call(
        'GET',
        `/api/v1/custom-tags/search?query=veg&limit=1&cursor=${Buffer.from(JSON.stringify({ p: 2, k: { pk: 'x' } })).toString('base64url')}`,
        { key: admin() },
      ),
      400,
      'VALIDATION_FAILED',
      '/cursor',
    );
  });
});

describe('custom tags: bounds', () => {
  it('refuses each field out of bounds, unknown items and tags, and a full item', async () => {
    const item = await newItem();
    expectRefused(await createTag({ itemId: item.id, key: '' }), 400, 'VALIDATION_FAILED', '/key');
    expectRefused(await createTag({ itemId: item.id, key: '   ' }), 400, 'VALIDATION_FAILED', '/key');
    expectRefused(await createTag({ itemId: item.id, key: 'x'.repeat(101) }), 400, 'VALIDATION_FAILED', '/key');
    expectRefused(
      await createTag({ itemId: item.id, key: 'ok', categoryHandle: 'Not A Handle' }),
      400,
      'VALIDATION_FAILED',
      '/categoryHandle',
    );
    expectRefused(await createTag({ key: 'ok' }), 400, 'VALIDATION_FAILED');
    expectRefused(await createTag({ itemId: item.id, key: 'ok', extra: 1 }), 400, 'VALIDATION_FAILED');
    expectRefused(await createTag({ itemId: 999_999_999, key: 'ok' }), 404, 'NOT_FOUND', '/itemId');
    expectRefused(await link(item.id, 999_999_999), 404, 'NOT_FOUND', '/customTagId');
    expectRefused(await unlink(item.id, 999_999_999), 404, 'NOT_FOUND', '/customTagId');
    expectRefused(
      await call('POST', '/api/v1/custom-tags/link', { key: admin(), body: { itemId: item.id } }),
      400,
      'VALIDATION_FAILED',
      '/customTagId',
    );
    expect(await itemTags(item.id)).toEqual([]);
    expect((await createTag({ itemId: item.id, key: 'x'.repeat(100) })).status).toBe(200);

    // At most 50 tags on an item.
    const full = await newItem();
    for (let i = 0; i < 50; i++)
      expect((await createTag({ itemId: full.id, key: `Tag ${i}`, categoryHandle: 'many' })).status).toBe(200);
    expectRefused(await createTag({ itemId: full.id, key: 'Tag 50', categoryHandle: 'many' }), 409, 'CONFLICT');
    const spare = await createTag({ itemId: item.id, key: 'Spare', categoryHandle: 'many' });
    expectRefused(await link(full.id, spare.body.data.id), 409, 'CONFLICT');
    expect(await itemTags(full.id)).toHaveLength(50);
  });
});

describe('custom tags: permissions and the tenant wall', () => {
  it('create needs custom_tags.create, link and unlink custom_tags.update, search custom_tags.read', async () => {
    const item = await newItem();
    const tag = (await createTag({ itemId: item.id, key: 'Permission probe' })).body.data;
    const reader = await keyWith(['custom_tags.read']);
    expect((await search('permission probe', '', reader)).data.map((t: { id: number }) => t.id)).toEqual([tag.id]);
    expectRefused(await createTag({ itemId: item.id, key: 'No' }, reader), 403, 'FORBIDDEN');
    expectRefused(await link(item.id, tag.id, reader), 403, 'FORBIDDEN');
    expectRefused(await unlink(item.id, tag.id, reader), 403, 'FORBIDDEN');
    const creator = await keyWith(['custom_tags.create']);
    expectRefused(await link(item.id, tag.id, creator), 403, 'FORBIDDEN');
    expectRefused(await call('GET', '/api/v1/custom-tags/search?query=permission', { key: creator }), 403, 'FORBIDDEN');
    expect(await itemTags(item.id)).toEqual([tag.id]);
    // A key limited to another location cannot tag this location's items.
    const elsewhere = await keyWith(['custom_tags.create', 'custom_tags.update'], [there]);
    expectRefused(await createTag({ itemId: item.id, key: 'Elsewhere' }, elsewhere), 403, 'FORBIDDEN');
    expectRefused(await unlink(item.id, tag.id, elsewhere), 403, 'FORBIDDEN');
  });

  it("neither finds nor links another company's tags, nor tags its items (404)", async () => {
    const theirItem = await newItem(theirLocation(), theirAdmin());
    const theirs = await createTag({ itemId: theirItem.id, key: 'Theirs only zebra' }, theirAdmin());
    expect(theirs.status).toBe(200);
    expect((await search('zebra')).data).toEqual([]);
    expect((await search('zebra', '', theirAdmin())).data.map((t: { id: number }) => t.id)).toContain(
      theirs.body.data.id,
    );
    const mine = await newItem();
    expectRefused(await link(mine.id, theirs.body.data.id), 404, 'NOT_FOUND', '/customTagId');
    expectRefused(await createTag({ itemId: theirItem.id, key: 'Mine' }), 404, 'NOT_FOUND', '/itemId');
    expectRefused(await unlink(theirItem.id, theirs.body.data.id), 404, 'NOT_FOUND', '/itemId');
    expect(await itemTags(mine.id)).toEqual([]);
  });
});
