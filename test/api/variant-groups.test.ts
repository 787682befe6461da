/**
 * Variant groups and variants over HTTP (docs/menu.md, “Variant groups and variants”; docs/conventions.md, “Permissions”): every operation, the bounds
 * (min ≤ max, within the live variants where the type chooses different variants), soft deletes,
 * linking to items, permissions, the tenant wall and events. The file acts as a company of its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { eventsOf } from './bookings-helpers';
import { admin, expectRefused, keyWith, newLocation, theirAdmin, theirLocation, useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

useOwnCompany('Variant groups test company');

let here: number;
let there: number;
beforeAll(async () => {
  here = (await newLocation('Variants bistro')).id;
  there = (await newLocation('Variants annex')).id;
});

const sizes = [
  { name: 'Small', price: 0 },
  { name: 'Medium', price: 1000 },
  { name: 'Large', price: 2000 },
];
async function newGroup(extra: Record<string, unknown> = {}, key = admin()) {
  const out = await call('POST', '/api/v1/variant-groups', {
    key,
    body: { locationId: here, name: 'Size', type: 'single', variants: sizes, ...extra },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data as Schemas['VariantGroup'];
}
async function newItem(locationId = here) {
  const out = await call('POST', '/api/v1/items', {
    key: admin(),
    body: { locationId, name: 'Cola', price: 3500, vatRate: 12, categoryHandle: 'drinks' },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data as Schemas['Item'];
}
const get = (id: number, key = admin()) => call('GET', `/api/v1/variant-groups/${id}`, { key });
const patchGroup = (id: number, body: unknown, key = admin()) =>
  call('PATCH', `/api/v1/variant-groups/${id}`, { key, body });
const addVariant = (groupId: number, body: unknown, key = admin()) =>
  call('POST', `/api/v1/variant-groups/${groupId}/variants`, { key, body });
const patchVariant = (id: number, body: unknown, key = admin()) =>
  call('PATCH', `/api/v1/variants/${id}`, { key, body });
const deleteVariant = (id: number, key = admin()) => call('DELETE', `/api/v1/variants/${id}`, { key });
const link = (id: number, itemId: number, key = admin()) =>
  call('POST', `/api/v1/variants/${id}/link`, { key, body: { itemId } });
const unlink = (id: number, key = admin()) => call('POST', `/api/v1/variants/${id}/unlink`, { key });
const listIds = async (query: string) => {
  const out = await call('GET', `/api/v1/variant-groups?${query}`, { key: admin() });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body;
};

describe('variant groups: the happy path', () => {
  it('creates a group with its variants, reads, updates and soft deletes it, with an event for each change', async () => {
    const since = new Date().toISOString();
    const created = await call('POST', '/api/v1/variant-groups', {
      key: admin(),
      body: {
        locationId: here,
        name: 'Sides',
        type: 'multiple',
        description: 'Pick two',
        min: 1,
        max: 2,
        useChildCoursing: true,
        variants: [{ name: 'Fries', price: 0 }, { name: 'Salad' }, { name: 'Mash', price: 500 }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const group = created.body.data;
    expect(group).toEqual({
      id: expect.any(Number),
      locationId: here,
      name: 'Sides',
      type: 'multiple',
      description: 'Pick two',
      min: 1,
      max: 2,
      isVisible: true,
      useChildCoursing: true,
      variantCount: 3,
      variants: [
        {
          id: expect.any(Number),
          groupId: group.id,
          locationId: here,
          name: 'Fries',
          price: 0,
          itemId: null,
          createdAt: group.createdAt,
          updatedAt: group.createdAt,
        },
        {
          id: expect.any(Number),
          groupId: group.id,
          locationId: here,
          name: 'Salad',
          price: 0,
          itemId: null,
          createdAt: group.createdAt,
          updatedAt: group.createdAt,
        },
        {
          id: expect.any(Number),
          groupId: group.id,
          locationId: here,
          name: 'Mash',
          price: 500,
          itemId: null,
          createdAt: group.createdAt,
          updatedAt: group.createdAt,
        },
      ],
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: group.createdAt,
    });
    expect((await get(group.id)).body.data).toEqual(group);

    const updated = await patchGroup(group.id, { name: 'Sides', isVisible: false, max: 3, description: null });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toEqual({
      ...group,
      isVisible: false,
      max: 3,
      description: null,
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await get(group.id)).body.data).toEqual(updated.body.data);

    const deleted = await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    // Gone from gets, lists and every change; its variants with it.
    expectRefused(await get(group.id), 404, 'NOT_FOUND');
    expect((await listIds(`locationId=${here}&limit=100`)).data.map((g: { id: number }) => g.id)).not.toContain(
      group.id,
    );
    expectRefused(await patchGroup(group.id, { name: 'Back' }), 404, 'NOT_FOUND');
    expectRefused(await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await addVariant(group.id, { name: 'Rice' }), 404, 'NOT_FOUND');
    const variantId = group.variants[0].id;
    expectRefused(await patchVariant(variantId, { name: 'x' }), 404, 'NOT_FOUND');
    expectRefused(await link(variantId, (await newItem()).id), 404, 'NOT_FOUND');

    const [createdEvent] = await eventsOf('variant-group.created', String(group.id), since);
    expect(createdEvent).toMatchObject({
      resource: 'variant-group',
      resourceId: String(group.id),
      data: group,
      changes: null,
    });
    const [updatedEvent] = await eventsOf('variant-group.updated', String(group.id), since);
    expect(updatedEvent!.changes).toEqual({ isVisible: false, max: 3, description: null });
    expect(updatedEvent!.data).toEqual(updated.body.data);
    const [deletedEvent] = await eventsOf('variant-group.deleted', String(group.id), since);
    expect(deletedEvent).toMatchObject({ data: updated.body.data });
  });

  it('creates, updates and soft deletes variants, with their events', async () => {
    const since = new Date().toISOString();
    const group = await newGroup({ name: 'Toppings', type: 'multiple', variants: [] });
    const added = await addVariant(group.id, { name: 'Cheese', price: 1500 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const variant = added.body.data;
    expect(variant).toEqual({
      id: expect.any(Number),
      groupId: group.id,
      locationId: here,
      name: 'Cheese',
      price: 1500,
      itemId: null,
      createdAt: expect.any(String),
      updatedAt: variant.createdAt,
    });
    expect((await get(group.id)).body.data).toMatchObject({ variantCount: 1, variants: [variant], version: 2 });

    const renamed = await patchVariant(variant.id, { name: 'Cheddar', price: 1500 });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({ ...variant, name: 'Cheddar', updatedAt: expect.any(String) });
    const same = await patchVariant(variant.id, { name: 'Cheddar' });
    expect(same.body.data).toEqual(renamed.body.data);

    const deleted = await deleteVariant(variant.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(renamed.body.data);
    expect((await get(group.id)).body.data).toMatchObject({ variantCount: 0, variants: [] });
    expectRefused(await deleteVariant(variant.id), 404, 'NOT_FOUND');
    expectRefused(await patchVariant(variant.id, { name: 'x' }), 404, 'NOT_FOUND');

    const [createdEvent] = await eventsOf('variant.created', String(variant.id), since);
    expect(createdEvent).toMatchObject({ resource: 'variant', data: variant, changes: null });
    const updatedEvents = await eventsOf('variant.updated', String(variant.id), since);
    expect(updatedEvents).toHaveLength(1);
    expect(updatedEvents[0]!.changes).toEqual({ name: 'Cheddar' });
    const [deletedEvent] = await eventsOf('variant.deleted', String(variant.id), since);
    expect(deletedEvent).toMatchObject({ data: renamed.body.data });
  });

  it('links a variant to an item of its location and unlinks it; the item is not deleted while linked', async () => {
    const since = new Date().toISOString();
    const group = await newGroup({ name: 'Drinks', type: 'multiple', variants: [{ name: 'Cola' }] });
    const variantId = group.variants![0]!.id;
    const item = await newItem();
    const linked = await link(variantId, item.id);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.data).toMatchObject({ id: variantId, itemId: item.id });
    expect((await get(group.id)).body.data.variants[0].itemId).toBe(item.id);

    const refused = await call('DELETE', `/api/v1/items/${item.id}`, { key: admin() });
    expectRefused(refused, 409, 'CONFLICT');
    expect((await call('GET', `/api/v1/items/${item.id}`, { key: admin() })).status).toBe(200);

    // An item of another location, or none, is refused naming /itemId.
    expectRefused(await link(variantId, (await newItem(there)).id), 404, 'NOT_FOUND', '/itemId');
    expectRefused(await link(variantId, 999_999_999), 404, 'NOT_FOUND', '/itemId');
    expectRefused(await addVariant(group.id, { name: 'x', itemId: 999_999_999 }), 404, 'NOT_FOUND', '/itemId');

    const unlinked = await unlink(variantId);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.data).toMatchObject({ id: variantId, itemId: null });
    expect((await unlink(variantId)).body.data).toEqual(unlinked.body.data);
    expect((await call('DELETE', `/api/v1/items/${item.id}`, { key: admin() })).status).toBe(200);

    const [linkedEvent] = await eventsOf('variant.linked', String(variantId), since);
    expect(linkedEvent).toMatchObject({ resource: 'variant', data: linked.body.data, changes: { itemId: item.id } });
    const unlinkedEvents = await eventsOf('variant.unlinked', String(variantId), since);
    expect(unlinkedEvents).toHaveLength(1);
    expect(unlinkedEvents[0]).toMatchObject({ data: unlinked.body.data, changes: { itemId: null } });

    // A variant created linked, then its group deleted: the link ends with it.
    const other = await newItem();
    const created = await addVariant(group.id, { name: 'Cola 2', itemId: other.id });
    expect(created.body.data.itemId).toBe(other.id);
    expectRefused(await call('DELETE', `/api/v1/items/${other.id}`, { key: admin() }), 409, 'CONFLICT');
    expect((await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/items/${other.id}`, { key: admin() })).status).toBe(200);
  });
});

describe('variant groups: listing', () => {
  it('filters by location and type, counts, pages, and lists variants only when asked', async () => {
    const place = (await newLocation('Variants list bistro')).id;
    const a = await newGroup({ locationId: place, name: 'A' });
    const b = await newGroup({ locationId: place, name: 'B', type: 'quantity', variants: [] });
    const c = await newGroup({ locationId: place, name: 'C', type: 'multiple' });
    await newGroup({ locationId: there, name: 'Elsewhere', type: 'quantity', variants: [] });

    const first = await listIds(`locationId=${place}&limit=2`);
    expect(first.data.map((g: { id: number }) => g.id)).toEqual([a.id, b.id]);
    expect(first.data[0]).not.toHaveProperty('variants');
    expect(first.data[0].variantCount).toBe(3);
    expect(first.meta.pagination).toMatchObject({ total: 3, totalPages: 2, nextCursor: expect.any(String) });
    const rest = await listIds(`locationId=${place}&limit=2&cursor=${first.meta.pagination.nextCursor}`);
    expect(rest.data.map((g: { id: number }) => g.id)).toEqual([c.id]);

    const quantity = await listIds(`locationId=${place}&type=quantity&includeVariants=true`);
    expect(quantity.data.map((g: { id: number }) => g.id)).toEqual([b.id]);
    expect(quantity.data[0].variants).toEqual([]);
    expect(quantity.meta.pagination.total).toBe(1);
    const withVariants = await listIds(`locationId=${place}&type=single&includeVariants=true`);
    expect(withVariants.data).toEqual([a]);

    // A soft-deleted group leaves the lists and their counts.
    expect((await call('DELETE', `/api/v1/variant-groups/${a.id}`, { key: admin() })).status).toBe(200);
    expect((await listIds(`locationId=${place}`)).meta.pagination.total).toBe(2);
    expect((await listIds(`locationId=${place}&type=single`)).meta.pagination.total).toBe(0);
    expectRefused(
      await call('GET', '/api/v1/variant-groups?type=combo', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/type',
    );
  });

  it('a location with live variant groups is not deleted; one with only deleted groups is', async () => {
    const place = (await newLocation('Variants delete bistro')).id;
    const group = await newGroup({ locationId: place });
    expectRefused(await call('DELETE', `/api/v1/locations/${place}`, { key: admin() }), 409, 'CONFLICT');
    expect((await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/locations/${place}`, { key: admin() })).status).toBe(200);
  });
});

describe('variant groups: bounds', () => {
  it('min ≤ max, a single group picks one, and bounds stay within the live variants (quantity groups aside)', async () => {
    const create = (extra: Record<string, unknown>) =>
      call('POST', '/api/v1/variant-groups', {
        key: admin(),
        body: { locationId: here, name: 'G', type: 'multiple', variants: sizes, ...extra },
      });
    expectRefused(await create({ min: 3, max: 2 }), 400, 'VALIDATION_FAILED', '/min');
    expectRefused(await create({ min: 4 }), 400, 'VALIDATION_FAILED', '/min');
    expectRefused(await create({ max: 4 }), 400, 'VALIDATION_FAILED', '/max');
    expectRefused(await create({ type: 'single', max: 2 }), 400, 'VALIDATION_FAILED', '/max');
    expectRefused(await create({ type: 'single', max: null }), 400, 'VALIDATION_FAILED', '/max');
    expectRefused(await create({ type: 'single', variants: [] }), 400, 'VALIDATION_FAILED', '/max');
    expectRefused(await create({ min: -1 }), 400, 'VALIDATION_FAILED', '/min');
    expectRefused(await create({ max: 0 }), 400, 'VALIDATION_FAILED', '/max');
    expectRefused(await create({ max: 101, type: 'quantity' }), 400, 'VALIDATION_FAILED', '/max');
    expectRefused(await create({ name: '' }), 400, 'VALIDATION_FAILED', '/name');
    expectRefused(await create({ type: 'combo' }), 400, 'VALIDATION_FAILED', '/type');
    expectRefused(await create({ description: 'x'.repeat(1001) }), 400, 'VALIDATION_FAILED', '/description');
    expectRefused(
      await create({ variants: Array.from({ length: 51 }, (_, i) => ({ name: `V${i}` })) }),
      400,
      'VALIDATION_FAILED',
      '/variants',
    );
    expectRefused(
      await create({ variants: [{ name: 'x', price: -1 }] }),
      400,
      'VALIDATION_FAILED',
      '/variants/0/price',
    );
    expectRefused(
      await create({ variants: [{ name: 'x', itemId: 1 }] }),
      400,
      'VALIDATION_FAILED',
      '/variants/0/itemId',
    );
    expectRefused(await create({ locationId: 999_999_999 }), 404, 'NOT_FOUND');
    // The edges themselves are accepted; a quantity group is not bounded by its variants.
    expect((await create({ min: 3, max: 3 })).status).toBe(200);
    expect((await create({ type: 'quantity', min: 5, max: 100, variants: [{ name: 'Shot' }] })).status).toBe(200);
    const fifty = await create({ variants: Array.from({ length: 50 }, (_, i) => ({ name: `V${i}` })) });
    expect(fifty.status).toBe(200);
    expectRefused(await addVariant(fifty.body.data.id, { name: 'One too many' }), 409, 'CONFLICT');

    const group = await newGroup({ type: 'multiple', min: 2, max: 3 });
    expectRefused(await patchGroup(group.id, { min: 4, max: null }), 422, 'UNPROCESSABLE', '/min');
    expectRefused(await patchGroup(group.id, { max: 4 }), 422, 'UNPROCESSABLE', '/max');
    expectRefused(await patchGroup(group.id, { min: 3, max: 2 }), 400, 'VALIDATION_FAILED', '/min');
    expectRefused(await patchGroup(group.id, {}), 400, 'VALIDATION_FAILED');
    expectRefused(await patchGroup(group.id, { type: 'single' }), 400, 'VALIDATION_FAILED');
    // Deleting a variant below max is refused until max is lowered.
    const third = group.variants![2]!.id;
    expectRefused(await deleteVariant(third), 409, 'CONFLICT', '/max');
    expect((await patchGroup(group.id, { max: 2 })).status).toBe(200);
    expect((await deleteVariant(third)).status).toBe(200);
    expectRefused(await deleteVariant(group.variants![1]!.id), 409, 'CONFLICT', '/min');
    expect((await get(group.id)).body.data).toMatchObject({ min: 2, max: 2, variantCount: 2 });

    for (const bad of ['abc', '1.5', '-1', '1e3']) {
      expectRefused(await get(bad as unknown as number), 400, 'VALIDATION_FAILED');
      expectRefused(await patchVariant(bad as unknown as number, { name: 'x' }), 400, 'VALIDATION_FAILED');
    }
    expectRefused(await get(0), 404, 'NOT_FOUND');
    expectRefused(await get(999_999_999), 404, 'NOT_FOUND');
    expectRefused(await patchVariant(group.variants![0]!.id, {}), 400, 'VALIDATION_FAILED');
    expectRefused(await patchVariant(group.variants![0]!.id, { itemId: 1 }), 400, 'VALIDATION_FAILED');
    expectRefused(
      await call('POST', `/api/v1/variants/${group.variants![0]!.id}/link`, { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
      '/itemId',
    );
  });
});

describe('variant groups: permissions and the tenant wall', () => {
  it('each operation needs its permission (403, nothing written)', async () => {
    const group = await newGroup();
    const variantId = group.variants![0]!.id;
    const reader = await keyWith(['variant_groups.read']);
    expect((await get(group.id, reader)).status).toBe(200);
    expect((await call('GET', `/api/v1/variant-groups?locationId=${here}`, { key: reader })).status).toBe(200);
    expectRefused(
      await call('POST', '/api/v1/variant-groups', {
        key: reader,
        body: { locationId: here, name: 'x', type: 'quantity' },
      }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await patchGroup(group.id, { name: 'x' }, reader), 403, 'FORBIDDEN');
    expectRefused(await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: reader }), 403, 'FORBIDDEN');
    expectRefused(await addVariant(group.id, { name: 'x' }, reader), 403, 'FORBIDDEN');
    expectRefused(await patchVariant(variantId, { name: 'x' }, reader), 403, 'FORBIDDEN');
    expectRefused(await deleteVariant(variantId, reader), 403, 'FORBIDDEN');
    expectRefused(await link(variantId, 1, reader), 403, 'FORBIDDEN');
    expectRefused(await unlink(variantId, reader), 403, 'FORBIDDEN');
    const updater = await keyWith(['variant_groups.update']);
    expectRefused(await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: updater }), 403, 'FORBIDDEN');
    expectRefused(await get(group.id, updater), 403, 'FORBIDDEN');
    expect((await get(group.id)).body.data).toEqual(group);
    // A key limited to another location.
    const elsewhere = await keyWith(['variant_groups.read', 'variant_groups.update'], [there]);
    expectRefused(await get(group.id, elsewhere), 403, 'FORBIDDEN');
    expectRefused(await patchVariant(variantId, { name: 'x' }, elsewhere), 403, 'FORBIDDEN');
  });

  it("hides another company's groups and variants (404)", async () => {
    const theirs = await call('POST', '/api/v1/variant-groups', {
      key: theirAdmin(),
      body: { locationId: theirLocation(), name: 'Theirs', type: 'single', variants: [{ name: 'Only' }] },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    const group = theirs.body.data;
    const variantId = group.variants[0].id;
    expectRefused(await get(group.id), 404, 'NOT_FOUND');
    expectRefused(await patchGroup(group.id, { name: 'Mine' }), 404, 'NOT_FOUND');
    expectRefused(await call('DELETE', `/api/v1/variant-groups/${group.id}`, { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await addVariant(group.id, { name: 'x' }), 404, 'NOT_FOUND');
    expectRefused(await patchVariant(variantId, { name: 'x' }), 404, 'NOT_FOUND');
    expectRefused(await deleteVariant(variantId), 404, 'NOT_FOUND');
    expectRefused(await unlink(variantId), 404, 'NOT_FOUND');
    expect((await listIds('limit=100')).data.map((g: { id: number }) => g.id)).not.toContain(group.id);
    expectRefused(
      await call('POST', '/api/v1/variant-groups', {
        key: admin(),
        body: { locationId: theirLocation(), name: 'x', type: 'quantity' },
      }),
      404,
      'NOT_FOUND',
    );
    // Nor can a variant of ours link to their item.
    const theirItem = await call('POST', '/api/v1/items', {
      key: theirAdmin(),
      body: { locationId: theirLocation(), name: 'Theirs', price: 1, vatRate: 25, categoryHandle: 'x' },
    });
    const mine = await newGroup();
    expectRefused(await link(mine.variants![0]!.id, theirItem.body.data.id), 404, 'NOT_FOUND', '/itemId');
    expect((await call('GET', `/api/v1/variant-groups/${group.id}`, { key: theirAdmin() })).body.data).toEqual(group);
  });
});
