/** Variant groups and their variants (docs/menu.md, “Variant groups and variants”): the choices an item is sold with (size, sides, extras). */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, NumericPathId, pageQuery } from './common';
import { Money } from './items';
import { displayName } from './locations';
import { Instant, entity, stamps } from './views';
import { Prose } from './text';

/**
 * How a guest chooses among a group's variants (docs/menu.md):
 * - `single`: one variant at most (`max` 1; `min` 1 makes the choice required): a size, a doneness.
 * - `multiple`: between `min` and `max` different variants: sides, toppings.
 * - `quantity`: between `min` and `max` picks in all, a variant any number of times: extra shots.
 */
const variantGroupTypes = ['single', 'multiple', 'quantity'] as const;
export type VariantGroupType = (typeof variantGroupTypes)[number];
export const VariantGroupType = Type.Union(
  variantGroupTypes.map((t) => Type.Literal(t)),
  { description: 'single, multiple or quantity (docs/menu.md)' },
);

/** At most this many variants, live or soft-deleted, in one group (the group holds them). */
export const MAX_VARIANTS = 50;

const name = displayName(200);
const description = Nullable(Prose(1000, { minLength: 0 }));
const min = Type.Integer({ minimum: 0, maximum: 100, description: 'fewest variants (picks) a guest chooses' });
const max = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: 100,
    description: 'most variants (picks) a guest chooses; null: as many as there are (single: 1)',
  }),
);

export const VariantBody = Type.Object(
  { name, price: Type.Optional(Money), itemId: Type.Optional(Nullable(NumericId)) },
  { additionalProperties: false, examples: [{ name: 'Large', price: 2000, itemId: 4712 }] },
);

export const UpdateVariantBody = Type.Object(
  { name: Type.Optional(name), price: Type.Optional(Money) },
  { additionalProperties: false, minProperties: 1, examples: [{ price: 2500 }] },
);

export const LinkVariantBody = Type.Object(
  { itemId: NumericId },
  { additionalProperties: false, examples: [{ itemId: 4712 }] },
);

export const ListVariantGroupsQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  type: Type.Optional(VariantGroupType),
  includeVariants: Type.Optional(Type.Boolean({ default: false })),
  ...pageQuery(100, 20),
});

export const CreateVariantGroupBody = Type.Object(
  {
    locationId: NumericId,
    name,
    type: VariantGroupType,
    description: Type.Optional(description),
    min: Type.Optional(min),
    max: Type.Optional(max),
    isVisible: Type.Optional(Type.Boolean()),
    useChildCoursing: Type.Optional(
      Type.Boolean({ description: 'item-based variant children commit with their own coursing order' }),
    ),
    variants: Type.Optional(Type.Array(VariantBody, { maxItems: MAX_VARIANTS })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        name: 'Size',
        type: 'single',
        min: 1,
        max: 1,
        variants: [{ name: 'Regular' }, { name: 'Large', price: 2000 }],
      },
    ],
  },
);

export const UpdateVariantGroupBody = Type.Object(
  {
    name: Type.Optional(name),
    description: Type.Optional(description),
    min: Type.Optional(min),
    max: Type.Optional(max),
    isVisible: Type.Optional(Type.Boolean()),
    useChildCoursing: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ description: 'Choose a size', isVisible: true }] },
);

export const VariantGroupPath = Type.Object({ id: NumericPathId });
export const VariantPath = Type.Object({ variantId: NumericPathId });

// ---- Answers (soft-deleted groups and variants are never shown) ----

export const VariantView = entity('Variant', {
  id: NumericId,
  groupId: NumericId,
  locationId: NumericId,
  name: Type.String(),
  price: Money,
  itemId: Type.Union([NumericId, Type.Null()], { description: 'the inventory item it is; null for a legacy variant' }),
  createdAt: Instant,
  updatedAt: Instant,
});

/** A group with its live variants counted, and listed where the operation shows them (get, create, update, delete; list with includeVariants). */
export const VariantGroupView = entity('VariantGroup', {
  id: NumericId,
  locationId: NumericId,
  name: Type.String(),
  type: VariantGroupType,
  description,
  min,
  max,
  isVisible: Type.Boolean(),
  useChildCoursing: Type.Boolean(),
  ...stamps,
  variantCount: Type.Integer({ minimum: 0, maximum: MAX_VARIANTS }),
  variants: Type.Optional(Type.Array(VariantView, { maxItems: MAX_VARIANTS })),
});
export const VariantGroupListView = Type.Array(VariantGroupView);

export type VariantBody = Static<typeof VariantBody>;
export type UpdateVariantBody = Static<typeof UpdateVariantBody>;
export type LinkVariantBody = Static<typeof LinkVariantBody>;
export type ListVariantGroupsQuery = Static<typeof ListVariantGroupsQuery>;
export type CreateVariantGroupBody = Static<typeof CreateVariantGroupBody>;
export type UpdateVariantGroupBody = Static<typeof UpdateVariantGroupBody>;
