/** Custom tags (docs/menu.md, “Custom tags”): a company's labels for items, each under a category handle, found by search. */
import { Type, type Static } from './typebox';
import { NumericId, pageQuery } from './common';
import { CategoryHandle } from './items';
import { Instant, entity } from './views';
import { TEXT_PATTERNS } from './patterns';
import { Line } from './text';

/** At most this many custom tags on one item. */
export const MAX_ITEM_TAGS = 50;

export const CreateCustomTagBody = Type.Object(
  {
    itemId: NumericId,
    categoryHandle: CategoryHandle,
    key: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: TEXT_PATTERNS.name,
      description: 'the tag as shown; unique within its category handle',
    }),
  },
  { additionalProperties: false, examples: [{ itemId: 4711, categoryHandle: 'allergens', key: 'Gluten free' }] },
);

export const CustomTagLinkBody = Type.Object(
  { itemId: NumericId, customTagId: NumericId },
  { additionalProperties: false, examples: [{ itemId: 4711, customTagId: 12 }] },
);

export const SearchCustomTagsQuery = Type.Object({
  query: Line({
    minLength: 3,
    maxLength: 100,
    description: 'the start of the key, or of any word of it (at least 3 letters or digits)',
  }),
  ...pageQuery(50, 20),
});

export const CustomTagView = entity('CustomTag', {
  id: NumericId,
  categoryHandle: CategoryHandle,
  key: Type.String(),
  createdAt: Instant,
});
export const CustomTagListView = Type.Array(CustomTagView);

export type CreateCustomTagBody = Static<typeof CreateCustomTagBody>;
export type CustomTagLinkBody = Static<typeof CustomTagLinkBody>;
export type SearchCustomTagsQuery = Static<typeof SearchCustomTagsQuery>;
