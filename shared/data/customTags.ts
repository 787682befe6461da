/**
 * Custom tags (docs/menu.md, “Custom tags”): the tag, one uniqueness item per category handle and key, one
 * search-index item per search token (tokenSearch.ts). Tags are company-wide and never change;
 * an item lists the tags linked to it (`customTagIds`).
 *
 *   tag          C#<cid> / CUSTOMTAG#<id:12>
 *   key          C#<cid> / CUSTOMTAGKEY#<categoryHandle>#<key>            { customTagId }
 *   search token C#<cid> / CUSTOMTAG#<id:12>#T#<token>   gsi1 C#<cid>#CTS#<token's first 3 chars> / <token>#<id:12>
 */
import { Type, type Static } from '../schemas/typebox';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { Item as StoredItem } from './batch';
import { companyKey, defineEntity, extendView } from './entity';
import { itemEntity, type Item } from './items';
import { keys } from './keys';
import { outboxStep } from './outbox';
import type { PageRequest, QuerySpan } from './paging';
import { searchTokens, tokenFields, tokenItems, tokenSortKey } from './tokenSearch';
import { CustomTagView } from '../schemas/customTags';
import { transact, type Step } from './transact';

/** A custom tag as stored and shown: declared by CustomTagView. */
export type CustomTag = Static<typeof CustomTagView>;

/** The item that makes a tag's key unique in its category: the tag that has it. */
const TagKey = Type.Object({ customTagId: Type.Integer(), categoryHandle: Type.String(), key: Type.String() });
/** A search-index item: the tag, one of its tokens, and all of them in index order. */
const TagToken = extendView(CustomTagView, tokenFields);

/** Queries are at least this long, so tokens sharing their first 3 characters share a partition. */
export const TAG_PREFIX_LENGTH = 3;
const searchPartition = (companyId: number, tokenOrPrefix: string) =>
  `${keys.company(companyId)}#CTS#${Array.from(tokenOrPrefix).slice(0, TAG_PREFIX_LENGTH).join('')}`;
const tagSk = (id: number) => `CUSTOMTAG#${keys.pad(id)}`;

const tagEntity = defineEntity({
  name: 'CUSTOM_TAG',
  label: 'custom tag',
  schema: CustomTagView,
  key: (companyId: number, id: number) => companyKey(companyId, tagSk(id)),
  keyOf: (companyId, t) => [companyId, t.id] as const,
});

const tagKeyEntity = defineEntity({
  name: 'CUSTOM_TAG_KEY',
  label: 'custom tag',
  key: (companyId: number, categoryHandle: string, key: string) =>
    companyKey(companyId, `CUSTOMTAGKEY#${categoryHandle}#${key}`),
  schema: TagKey,
  keyOf: (companyId, k) => [companyId, k.categoryHandle, k.key] as const,
});

const tokenEntity = defineEntity({
  name: 'CUSTOM_TAG_SEARCH',
  label: 'custom tag',
  key: (companyId: number, tagId: number, token: string) => companyKey(companyId, `${tagSk(tagId)}#T#${token}`),
  schema: TagToken,
  keyOf: (companyId, t) => [companyId, t.id, t.token] as const,
  indexes: (companyId, t) => ({ gsi1pk: searchPartition(companyId, t.token), gsi1sk: tokenSortKey(t.token, t.id) }),
});

/** Every item a tag is stored as (the create transaction writes exactly these; the bench loads them). */
export function customTagItems(companyId: number, t: CustomTag, tokens: readonly string[]): StoredItem[] {
  return [
    tagEntity.item(companyId, t),
    tagKeyEntity.item(companyId, { customTagId: t.id, categoryHandle: t.categoryHandle, key: t.key }),
    ...tokenItems(t, tokens).map((tt) => tokenEntity.item(companyId, tt)),
  ];
}

export const tagNotFound = (id: number) =>
  new AppError('NOT_FOUND', `Custom tag ${id} not found`, [
    { path: '/customTagId', message: 'no custom tag with this id' },
  ]);

/** The item's new tag list, written only if nobody changed the item since `prev` was read. */
const itemStep = (companyId: number, prev: Item, next: Item): Step =>
  itemEntity.versionedPutStep(companyId, next, prev.version);

export const customTags = {
  get: tagEntity.get,

  /**
   * Adds the tag (its key item, 409 when the category already has the key; its search tokens),
   * links it to the item, and writes the events, in one transaction.
   */
  async create(
    companyId: number,
    t: CustomTag,
    tokens: readonly string[],
    prev: Item,
    next: Item,
    events: DomainEvent[],
  ): Promise<void> {
    await transact([
      tagEntity.newItemStep(companyId, t),
      tagKeyEntity.newItemStep(companyId, { customTagId: t.id, categoryHandle: t.categoryHandle, key: t.key }, () =>
        conflict(`The category ${t.categoryHandle} already has a tag ${JSON.stringify(t.key)}; link it instead`),
      ),
      ...tokenItems(t, tokens).map((tt) => tokenEntity.newItemStep(companyId, tt)),
      itemStep(companyId, prev, next),
      ...events.map(outboxStep),
    ]);
  },

  /** Writes the item's new tag list and its event; the tag must still exist (404 naming `/customTagId`). */
  async relink(companyId: number, tagId: number, prev: Item, next: Item, event: DomainEvent): Promise<void> {
    await transact([
      tagEntity.existsStep([companyId, tagId], () => tagNotFound(tagId)),
      itemStep(companyId, prev, next),
      outboxStep(event),
    ]);
  },

  /** Tags whose key, or a word of it, starts with `prefix` (normalized, at least 3 characters): one Query per page. */
  search(companyId: number, prefix: string, req: PageRequest): Promise<Page<CustomTag>> {
    const span: QuerySpan = {
      index: 'gsi1',
      partition: searchPartition(companyId, prefix),
      range: { op: 'begins_with', value: prefix },
    };
    return searchTokens(span, prefix, req, tagEntity.from);
  },
};
