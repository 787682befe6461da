/** Inventory items: what a location sells, at what price and VAT rate, in which category and cost center. */
import type { Principal } from '../auth/principal';
import { nextId } from '../data/ids';
import { items, type Item } from '../data/items';
import { notFound, validationFailed } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CreateItemBody, ListItemsQuery, UpdateItemBody } from '../schemas/items';
import { assertLocationAllowed, listedAt, listLocation } from './access';
import { changedFields } from './changes';

/** The fields an update may change (and its event's `changes` may name). */
const changeable = ['name', 'price', 'vatRate', 'categoryHandle', 'costCenter'] as const;

/** 400 for a VAT rate with more than two decimals (12.5 and 7.7 are fine, 12.345 is not). */
function assertVatRate(vatRate: number | undefined): void {
  if (vatRate === undefined || Math.abs(vatRate * 100 - Math.round(vatRate * 100)) < 1e-9) return;
  throw validationFailed('The item is not valid', [{ path: '/vatRate', message: 'must have at most two decimals' }]);
}

/** The item, for a caller who may see its location; 404 when the company has no such item. */
export async function visibleItem(principal: Principal, id: number): Promise<Item> {
  const found = await items.get(principal.companyId, id);
  if (!found) throw notFound(`Item ${id}`);
  assertLocationAllowed(principal, found.locationId);
  return found;
}

/** The company's items (at one location, in one category, whose name contains `search`), by location then id. */
export async function listItems(
  principal: Principal,
  query: ListItemsQuery,
  headerLocation?: string,
): Promise<Page<Item>> {
  const locationId = listLocation(principal, query.locationId, headerLocation);
  return listedAt(
    principal.companyId,
    locationId,
    await items.list(
      principal.companyId,
      { locationId, category: query.category, search: query.search?.toLowerCase() },
      query,
    ),
  );
}

export async function createItem(principal: Principal, input: CreateItemBody): Promise<Item> {
  assertLocationAllowed(principal, input.locationId);
  assertVatRate(input.vatRate);
  const now = new Date().toISOString();
  const item: Item = {
    id: await nextId('item'),
    locationId: input.locationId,
    name: input.name,
    price: input.price,
    vatRate: input.vatRate,
    categoryHandle: input.categoryHandle,
    costCenter: input.costCenter ?? null,
    customTagIds: [],
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await items.create(
    principal.companyId,
    item,
    newEvent(principal.companyId, 'item.created', String(item.id), { ...item }),
  );
  return item;
}

/** Changes the fields given; an update that changes nothing writes nothing. */
export async function updateItem(principal: Principal, id: number, input: UpdateItemBody): Promise<Item> {
  const prev = await visibleItem(principal, id);
  assertVatRate(input.vatRate);
  const next: Item = { ...prev, ...input, version: prev.version + 1, updatedAt: new Date().toISOString() };
  const changes = changedFields(prev, next, changeable);
  if (Object.keys(changes).length === 0) return prev;
  await items.update(
    principal.companyId,
    prev,
    next,
    newEvent(principal.companyId, 'item.updated', String(id), { ...next }, changes),
  );
  return next;
}

/** Deletes the item; answers it as it was. Orders keep their lines (a line copies what it took from the item). */
export async function deleteItem(principal: Principal, id: number): Promise<Item> {
  const item = await visibleItem(principal, id);
  await items.remove(principal.companyId, item, newEvent(principal.companyId, 'item.deleted', String(id), { ...item }));
  return item;
}
