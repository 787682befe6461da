/**
 * Variant groups with their variants embedded (docs/menu.md, “Variant groups and variants”):
 *
 *   group    C#<cid> / VGROUP#<id:12>      lists of locatedLists('VGROUP', 'T'): by location, by type
 *   variant  C#<cid> / VARIANT#<id:12>     { variantId, groupId }: where a variant lives
 *
 * A group holds its variants (at most MAX_VARIANTS, soft-deleted ones included), so a group and
 * its variants change together under the group's version, and `min`/`max` are checked against the
 * live variants that very version has. A soft-deleted group keeps its item (with `deletedAt`) but
 * loses its index keys and its counts: it is in no list. A variant linked to an item counts on the
 * item (items.ts `variantLinkSteps`), which is not deleted while any does.
 */
import { Type, type Static } from '../schemas/typebox';
import { conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { Nullable } from '../schemas/common';
import { VariantGroupView, VariantView, type VariantGroupType } from '../schemas/variantGroups';
import { Instant } from '../schemas/views';
import { companyKey, defineEntity, extendView } from './entity';
import { variantLinkSteps } from './items';
import { keys } from './keys';
import { locatedLists } from './locatedLists';
import { locationEntity } from './locations';
import { outboxStep } from './outbox';
import type { PageRequest } from './paging';
import { transact, type Step } from './transact';

/** A variant as stored in its group: as shown, and `deletedAt`, set when soft deleted (kept in the group, shown nowhere). */
const StoredVariant = extendView(VariantView, { deletedAt: Nullable(Instant) });
export type Variant = Static<typeof StoredVariant>;

/**
 * A group as stored: as shown without the counts the domain adds (`variantCount`, live `variants`),
 * with every variant, soft-deleted ones included, in the order they were added, and its own
 * `deletedAt`.
 */
const StoredVariantGroup = Type.Object({
  ...Type.Omit(VariantGroupView, ['variantCount', 'variants']).properties,
  variants: Type.Array(StoredVariant),
  deletedAt: Nullable(Instant),
});
export type VariantGroup = Static<typeof StoredVariantGroup>;

/** Where a variant lives: its group. */
const VariantRef = Type.Object({ variantId: Type.Integer(), groupId: Type.Integer() });

const lists = locatedLists('VGROUP', 'T', 'VGROUP');
const placement = (g: VariantGroup) => ({ locationId: g.locationId, value: g.type, id: g.id });

export const variantGroupEntity = defineEntity({
  name: 'VARIANT_GROUP',
  label: 'variant group',
  key: (companyId: number, id: number) => companyKey(companyId, `VGROUP#${keys.pad(id)}`),
  schema: StoredVariantGroup,
  keyOf: (companyId, g) => [companyId, g.id] as const,
  indexes: (companyId, g) => (g.deletedAt === null ? lists.indexes(companyId, placement(g)) : {}),
});

const variantRefEntity = defineEntity({
  name: 'VARIANT_REF',
  label: 'variant',
  key: (companyId: number, variantId: number) => companyKey(companyId, `VARIANT#${keys.pad(variantId)}`),
  schema: VariantRef,
  keyOf: (companyId, r) => [companyId, r.variantId] as const,
});

/** How many variants of the group link to each item, by item id. */
function linksOf(variants: readonly Variant[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const v of variants)
    if (v.deletedAt === null && v.itemId !== null) out.set(v.itemId, (out.get(v.itemId) ?? 0) + 1);
  return out;
}

/**
 * The link counter moves from the group as it was to the group as it will be: +1 (with the item's
 * existence checked) for each new link, −1 for each link that ends.
 */
function linkMoves(companyId: number, prev: readonly Variant[], next: readonly Variant[]): Step[] {
  const before = linksOf(prev);
  const after = linksOf(next);
  const itemIds = [...new Set([...before.keys(), ...after.keys()])];
  return itemIds.flatMap((itemId) => {
    const delta = (after.get(itemId) ?? 0) - (before.get(itemId) ?? 0);
    return delta === 0 ? [] : variantLinkSteps(companyId, itemId, delta);
  });
}

export const variantGroups = {
  get: variantGroupEntity.get,

  /** The group that holds the variant (also a soft-deleted one), or undefined: two reads, the variant's then its group's. */
  async ofVariant(companyId: number, variantId: number): Promise<VariantGroup | undefined> {
    const ref = await variantRefEntity.get(companyId, variantId);
    return ref && variantGroupEntity.get(companyId, ref.groupId);
  },

  /** Live groups, by location then id: one Query per page beside the counter's GetItem. */
  list(
    companyId: number,
    f: { locationId?: number | undefined; type?: VariantGroupType | undefined },
    page: PageRequest,
  ): Promise<Page<VariantGroup>> {
    return lists.list(variantGroupEntity, companyId, { locationId: f.locationId, value: f.type }, page);
  },

  /** Adds the group with its variants (their refs), its counters and its event at once; the location must exist. */
  async create(companyId: number, g: VariantGroup, event: DomainEvent): Promise<void> {
    await transact([
      locationEntity.existsStep([companyId, g.locationId]),
      variantGroupEntity.newItemStep(companyId, g),
      ...g.variants.map((v) => variantRefEntity.newItemStep(companyId, { variantId: v.id, groupId: g.id })),
      ...linkMoves(companyId, [], g.variants),
      ...lists.counted(companyId, placement(g), 1),
      outboxStep(event),
    ]);
  },

  /**
   * Replaces the group (its variants with it) if nobody changed it since `prev` was read, with the
   * refs of new variants, the item links that start or end, and the events. A group soft deleted
   * here leaves its lists and ends every link of its variants.
   */
  async update(companyId: number, prev: VariantGroup, next: VariantGroup, events: DomainEvent[]): Promise<void> {
    const known = new Set(prev.variants.map((v) => v.id));
    const added = next.variants.filter((v) => !known.has(v.id));
    const deleted = prev.deletedAt === null && next.deletedAt !== null;
    await transact([
      variantGroupEntity.versionedPutStep(companyId, next, prev.version),
      ...added.map((v) =>
        variantRefEntity.newItemStep(companyId, { variantId: v.id, groupId: next.id }, () =>
          conflict(`Variant ${v.id} already exists`),
        ),
      ),
      ...linkMoves(companyId, prev.variants, deleted ? [] : next.variants),
      ...(deleted ? lists.counted(companyId, placement(prev), -1) : []),
      ...events.map(outboxStep),
    ]);
  },
};
