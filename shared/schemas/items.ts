/** Inventory items: what a location sells, the anchor of custom tags, variants and order lines. */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, pageQuery } from './common';
import { displayName } from './locations';
import { entity, stamps } from './views';
import { TEXT_PATTERNS } from './patterns';

/** Money in minor units (cents, öre). */
export const Money = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'minor units (cents, öre)' });

/** A VAT rate in percent (25, 12, 6, 0, 7.7), at most two decimals (checked by the domain). */
export const VatRate = Type.Number({ minimum: 0, maximum: 100, description: 'percent, at most two decimals' });

/** A category's handle: lower-case words of letters and digits joined by - or _ (`main-courses`). */
export const CategoryHandle = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9]+(?:[-_][a-z0-9]+)*$',
  description: 'lower-case letters and digits, words joined by - or _',
});

export const CostCenter = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 50, pattern: TEXT_PATTERNS.name }), name: displayName(200) },
  { additionalProperties: false },
);

const name = displayName(200);

export const ItemPath = Type.Object({ id: NumericId });

export const ListItemsQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  category: Type.Optional(CategoryHandle),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: TEXT_PATTERNS.name,
      description: 'items whose name contains it, ignoring case',
    }),
  ),
  ...pageQuery(100, 20),
});

export const CreateItemBody = Type.Object(
  {
    locationId: NumericId,
    name,
    price: Money,
    vatRate: VatRate,
    categoryHandle: CategoryHandle,
    costCenter: Type.Optional(Nullable(CostCenter)),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        name: 'Toast Skagen',
        price: 16500,
        vatRate: 12,
        categoryHandle: 'starters',
        costCenter: { code: 'KIT', name: 'Kitchen' },
      },
    ],
  },
);

export const UpdateItemBody = Type.Object(
  {
    name: Type.Optional(name),
    price: Type.Optional(Money),
    vatRate: Type.Optional(VatRate),
    categoryHandle: Type.Optional(CategoryHandle),
    costCenter: Type.Optional(Nullable(CostCenter)),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ price: 17500, name: 'Toast Skagen, large' }] },
);

/** An inventory item as stored. */
export const ItemView = entity('Item', {
  id: NumericId,
  locationId: NumericId,
  name: Type.String(),
  price: Money,
  vatRate: VatRate,
  categoryHandle: CategoryHandle,
  costCenter: Nullable(CostCenter),
  customTagIds: Type.Array(NumericId, {
    description: 'the custom tags linked to the item, in the order they were linked',
  }),
  ...stamps,
});
export const ItemListView = Type.Array(ItemView);

export type CostCenter = Static<typeof CostCenter>;
export type ItemPath = Static<typeof ItemPath>;
export type ListItemsQuery = Static<typeof ListItemsQuery>;
export type CreateItemBody = Static<typeof CreateItemBody>;
export type UpdateItemBody = Static<typeof UpdateItemBody>;
