/**
 * Inventory items:
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
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { Static } from '@sinclair/typebox';
import { ItemView } from '../schemas/items';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locatedLists } from './locatedLists';
import { locationEntity } from './locations';
import { outboxStep } from './outbox';
import { counterStep, type PageRequest } from './paging';
import { deleteStep, transact, type Step } from './transact';

/** An inventory item as stored and shown (price in minor units, VAT rate in percent): declared by ItemView. */
export type Item = Static<typeof ItemView>;

export interface ItemFilter {
  locationId?: number | undefined;
  category?: string | undefined;
  /** Lower case: items whose name contains it. */
  search?: string | undefined;
}

const lists = locatedLists('ITEM', 'CAT', 'ITEM');
const placement = (i: Item) => ({ locationId: i.locationId, value: i.categoryHandle, id: i.id });

export const itemEntity = defineEntity({
  name: 'ITEM',
  label: 'item',
  key: (companyId: number, id: number) => companyKey(companyId, `ITEM#${keys.pad(id)}`),
  schema: ItemView,
  keyOf: (companyId, i) => [companyId, i.id] as const,
  indexes: (companyId, i) => ({ ...lists.indexes(companyId, placement(i)), searchName: i.name.toLowerCase() }),
});

/** How many live variants link to the item: it is not deleted while any do. */
const variantLinks = (companyId: number, itemId: number) =>
  companyKey(companyId, `COUNT#VARIANTLINK#${keys.pad(itemId)}`);

/**
 * Transaction steps of a variant starting (+1: the item must exist, else 404 naming `/itemId`) or
 * ceasing (−1) to link to the item.
 */
export function variantLinkSteps(companyId: number, itemId: number, delta: number): Step[] {
  const exists =
    delta > 0
      ? [
          itemEntity.existsStep(
            [companyId, itemId],
            () =>
              new AppError('NOT_FOUND', `Item ${itemId} not found`, [
                { path: '/itemId', message: 'no item with this id' },
              ]),
          ),
        ]
      : [];
  return [...exists, counterStep(variantLinks(companyId, itemId), delta)];
}

export const items = {
  get: itemEntity.get,
  getMany: itemEntity.getMany,

  /**
   * One page of the company's items, by location then id: one Query per page (gsi2 for a
   * category, gsi1 otherwise). Without `search` it is a counted list; with it, the name test is a
   * filter of the Query, so a page may be short with a cursor going on and `total` counts what was
   * listed up to the page (plus one while more may follow), as the event log's does.
   */
  list(companyId: number, f: ItemFilter, page: PageRequest): Promise<Page<Item>> {
    const search =
      f.search === undefined
        ? undefined
        : {
            expression: 'contains(#searchName, :search)',
            names: { '#searchName': 'searchName' },
            values: { ':search': f.search },
          };
    return lists.list(itemEntity, companyId, { locationId: f.locationId, value: f.category }, page, search);
  },

  /** Adds the item, its counters and its event at once; the location must exist in the company. */
  async create(companyId: number, i: Item, event: DomainEvent): Promise<void> {
    await transact([
      locationEntity.existsStep([companyId, i.locationId]),
      itemEntity.newItemStep(companyId, i),
      ...lists.counted(companyId, placement(i), 1),
      outboxStep(event),
    ]);
  },

  /** Replaces the item if nobody changed it since `expectedVersion`; a new category moves its category counters. */
  async update(companyId: number, prev: Item, next: Item, event: DomainEvent): Promise<void> {
    await transact([
      itemEntity.versionedPutStep(companyId, next, prev.version),
      ...lists.moved(companyId, placement(prev), placement(next)),
      outboxStep(event),
    ]);
  },

  /** Deletes the item as it was read, with its counters, only while no variant links to it (409 otherwise). */
  async remove(companyId: number, i: Item, event: DomainEvent): Promise<void> {
    const unlinked = deleteStep(
      variantLinks(companyId, i.id),
      { expression: 'attribute_not_exists(n) OR n <= :zero', values: { ':zero': 0 } },
      () => conflict(`Item ${i.id} has variants linked to it; unlink them first`),
    );
    await transact([
      unlinked,
      itemEntity.versionedDeleteStep(companyId, i),
      ...lists.counted(companyId, placement(i), -1),
      outboxStep(event),
    ]);
  },
};
