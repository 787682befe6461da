/**
 * Inventory items (decisions.md §7):
 *
 *   item   C#<cid> / ITEM#<id:12>
 *          gsi1 C#<cid>#ITEMS / L#<locationId:12>#<id:12>                      (by location, then id)
 *          gsi2 C#<cid>#ITEMS#CAT#<categoryHandle> / L#<locationId:12>#<id:12>  (one category)
 *
 * Counted per company, per location (a location content: it is not deleted while it has items),
 * per category and per category at a location; each counter moves in the transaction that adds,
 * recategorizes or deletes an item. `searchName` (the name in lower case) is stored beside the
 * fields for the name search, a filter of the list's Query.
 */
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CostCenter } from '../schemas/items';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationCounter, locationEntity } from './locations';
import { outboxStep } from './outbox';
import { counterStep, logPage, readLog, type PageRequest, type QuerySpan } from './paging';
import { transact, type Step } from './transact';

export interface Item {
  id: number;
  locationId: number;
  name: string;
  /** Minor units. */
  price: number;
  /** Percent. */
  vatRate: number;
  categoryHandle: string;
  costCenter: CostCenter | null;
  /** The custom tags linked to the item, in the order they were linked. */
  customTagIds: number[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface ItemFilter {
  locationId?: number | undefined;
  category?: string | undefined;
  /** Lower case: items whose name contains it. */
  search?: string | undefined;
}

const listPartition = (companyId: number) => `${keys.company(companyId)}#ITEMS`;
const categoryPartition = (companyId: number, handle: string) => `${listPartition(companyId)}#CAT#${handle}`;
const locationPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;
const listSortKey = (i: Item) => `${locationPrefix(i.locationId)}${keys.pad(i.id)}`;

export const itemEntity = defineEntity({
  name: 'ITEM',
  label: 'item',
  key: (companyId: number, id: number) => companyKey(companyId, `ITEM#${keys.pad(id)}`),
  keyOf: (companyId, i: Item) => [companyId, i.id] as const,
  fields: ['id', 'locationId', 'name', 'price', 'vatRate', 'categoryHandle', 'costCenter', 'customTagIds', 'version', 'createdAt', 'updatedAt'],
  indexes: (companyId, i) => ({
    gsi1pk: listPartition(companyId),
    gsi1sk: listSortKey(i),
    gsi2pk: categoryPartition(companyId, i.categoryHandle),
    gsi2sk: listSortKey(i),
    searchName: i.name.toLowerCase(),
  }),
});

/** The counter of the items a filter of location and category lists. */
function counter(companyId: number, f: { locationId?: number | undefined; category?: string | undefined }) {
  if (f.category === undefined) return f.locationId === undefined ? companyKey(companyId, 'COUNT#ITEM') : locationCounter(companyId, f.locationId, 'ITEM');
  const location = f.locationId === undefined ? '' : `#L#${keys.pad(f.locationId)}`;
  return companyKey(companyId, `COUNT#ITEM#CAT#${f.category}${location}`);
}

/** The four counters an item counts in. */
const countersOf = (companyId: number, i: Item) => [
  counter(companyId, {}),
  counter(companyId, { locationId: i.locationId }),
  counter(companyId, { category: i.categoryHandle }),
  counter(companyId, { category: i.categoryHandle, locationId: i.locationId }),
];

const counted = (companyId: number, i: Item, delta: number): Step[] => countersOf(companyId, i).map((c) => counterStep(c, delta));

export const items = {
  get: itemEntity.get,
  getMany: itemEntity.getMany,

  /**
   * One page of the company's items, by location then id: one Query per page (gsi2 for a
   * category, gsi1 otherwise). Without `search` it is a counted list; with it, the name test is a
   * filter of the Query, so a page may be short with a cursor going on and `total` counts what was
   * listed up to the page (plus one while more may follow), as the event log's does.
   */
  async list(companyId: number, f: ItemFilter, page: PageRequest): Promise<Page<Item>> {
    const index = f.category === undefined ? ('gsi1' as const) : ('gsi2' as const);
    const partition = f.category === undefined ? listPartition(companyId) : categoryPartition(companyId, f.category);
    const prefix = f.locationId === undefined ? undefined : locationPrefix(f.locationId);
    if (f.search === undefined) return itemEntity.list({ index, partition, ...(prefix ? { prefix } : {}), counter: counter(companyId, f) }, page);
    const span: QuerySpan = {
      index,
      partition,
      ...(prefix ? { range: { op: 'begins_with', value: prefix } } : {}),
      filter: { expression: 'contains(#searchName, :search)', names: { '#searchName': 'searchName' }, values: { ':search': f.search } },
    };
    return logPage(await readLog(span, page), itemEntity.from);
  },

  /** Adds the item, its counters and its event at once; the location must exist in the company. */
  async create(companyId: number, i: Item, event: DomainEvent): Promise<void> {
    await transact([locationEntity.existsStep([companyId, i.locationId]), itemEntity.newItemStep(companyId, i), ...counted(companyId, i, 1), outboxStep(event)]);
  },

  /** Replaces the item if nobody changed it since `expectedVersion`; a new category moves its category counters. */
  async update(companyId: number, prev: Item, next: Item, event: DomainEvent): Promise<void> {
    const moved = prev.categoryHandle === next.categoryHandle ? [] : [...counted(companyId, prev, -1).slice(2), ...counted(companyId, next, 1).slice(2)];
    await transact([itemEntity.versionedPutStep(companyId, next, prev.version), ...moved, outboxStep(event)]);
  },

  /** Deletes the item as it was read, with its counters. */
  async remove(companyId: number, i: Item, event: DomainEvent): Promise<void> {
    await transact([itemEntity.versionedDeleteStep(companyId, i), ...counted(companyId, i, -1), outboxStep(event)]);
  },
};
