/** Variant groups and their variants (spec 2.13): the choices an item is sold with (size, sides, extras). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NumericId, NumericPathId, pageQuery } from './common';
import { Money } from './items';
import { displayName } from './locations';

/**
 * How a guest chooses among a group's variants (docs/menu.md):
 * - `single`: one variant at most (`max` 1; `min` 1 makes the choice required): a size, a doneness.
 * - `multiple`: between `min` and `max` different variants: sides, toppings.
 * - `quantity`: between `min` and `max` picks in all, a variant any number of times: extra shots.
 */
export const variantGroupTypes = ['single', 'multiple', 'quantity'] as const;
export type VariantGroupType = (typeof variantGroupTypes)[number];
export const VariantGroupType = Type.Union(variantGroupTypes.map((t) => Type.Literal(t)), { description: 'single, multiple or quantity (docs/menu.md)' });

/** At most this many variants, live or soft-deleted, in one group (the group holds them). */
export const MAX_VARIANTS = 50;

const name = displayName(200);
const description = Nullable(Type.String({ maxLength: 1000 }));
const min = Type.Integer({ minimum: 0, maximum: 100, description: 'fewest variants (picks) a guest chooses' });
const max = Nullable(Type.Integer({ minimum: 1, maximum: 100, description: 'most variants (picks) a guest chooses; null: as many as there are (single: 1)' }));

export const VariantBody = Type.Object(
  { name, price: Type.Optional(Money), itemId: Type.Optional(Nullable(NumericId)) },
  { additionalProperties: false },
);

export const UpdateVariantBody = Type.Object({ name: Type.Optional(name), price: Type.Optional(Money) }, { additionalProperties: false, minProperties: 1 });

export const LinkVariantBody = Type.Object({ itemId: NumericId }, { additionalProperties: false });

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
    useChildCoursing: Type.Optional(Type.Boolean({ description: 'item-based variant children commit with their own coursing order' })),
    variants: Type.Optional(Type.Array(VariantBody, { maxItems: MAX_VARIANTS })),
  },
  { additionalProperties: false },
);

export const UpdateVariantGroupBody = Type.Object(
  { name: Type.Optional(name), description: Type.Optional(description), min: Type.Optional(min), max: Type.Optional(max), isVisible: Type.Optional(Type.Boolean()), useChildCoursing: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const VariantGroupPath = Type.Object({ id: NumericPathId });
export const VariantPath = Type.Object({ variantId: NumericPathId });

export type VariantBody = Static<typeof VariantBody>;
export type UpdateVariantBody = Static<typeof UpdateVariantBody>;
export type LinkVariantBody = Static<typeof LinkVariantBody>;
export type ListVariantGroupsQuery = Static<typeof ListVariantGroupsQuery>;
export type CreateVariantGroupBody = Static<typeof CreateVariantGroupBody>;
export type UpdateVariantGroupBody = Static<typeof UpdateVariantGroupBody>;
