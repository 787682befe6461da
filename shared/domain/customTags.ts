/**
 * Custom tags (docs/menu.md): labels a company puts on its items, each under a category
 * handle, unique by category and key, found by the start of their key or of any word of it.
 */
import type { Principal } from '../auth/principal';
import { customTags, TAG_PREFIX_LENGTH, tagNotFound, type CustomTag } from '../data/customTags';
import { nextId } from '../data/ids';
import type { Item } from '../data/items';
import { AppError, conflict, validationFailed } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import {
  MAX_ITEM_TAGS,
  type CreateCustomTagBody,
  type CustomTagLinkBody,
  type SearchCustomTagsQuery,
} from '../schemas/customTags';
import { prefixFree, textPrefix, wordStarts } from './contact';
import { visibleItem } from './items';

/** The tokens a tag is found by: its key folded, from each of its words on ("Fresh herbs" → "fresh herbs", "herbs"). */
export const tagTokens = (key: string): string[] => prefixFree(wordStarts(key), TAG_PREFIX_LENGTH);

/** The item, for the tag operations: 404 naming `/itemId` when the company has no such item. */
async function taggedItem(principal: Principal, itemId: number): Promise<Item> {
  try {
    return await visibleItem(principal, itemId);
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND')
      throw new AppError('NOT_FOUND', `Item ${itemId} not found`, [
        { path: '/itemId', message: 'no item with this id' },
      ]);
    throw err;
  }
}

/** The item with its tag list changed, as the next version, and its `item.updated` event. */
function retagged(principal: Principal, prev: Item, customTagIds: number[]) {
  const next: Item = { ...prev, customTagIds, version: prev.version + 1, updatedAt: new Date().toISOString() };
  return { next, event: newEvent(principal.companyId, 'item.updated', String(prev.id), { ...next }, { customTagIds }) };
}

function assertRoom(item: Item): void {
  if (item.customTagIds.length >= MAX_ITEM_TAGS)
    throw conflict(`Item ${item.id} has ${MAX_ITEM_TAGS} custom tags, the most it may have; unlink one first`);
}

/** Creates a tag and links it to the item: `custom-tag.created` (the tag, with `itemId`) and `item.updated` (`changes.customTagIds`). */
export async function createCustomTag(principal: Principal, input: CreateCustomTagBody): Promise<CustomTag> {
  const prev = await taggedItem(principal, input.itemId);
  assertRoom(prev);
  const tag: CustomTag = {
    id: await nextId('custom-tag'),
    categoryHandle: input.categoryHandle,
    key: input.key.trim(),
    createdAt: new Date().toISOString(),
  };
  const { next, event } = retagged(principal, prev, [...prev.customTagIds, tag.id]);
  const created = newEvent(principal.companyId, 'custom-tag.created', String(tag.id), { ...tag, itemId: prev.id });
  await customTags.create(principal.companyId, tag, tagTokens(tag.key), prev, next, [created, event]);
  return tag;
}

/** Links a tag to an item (answers the item); linking a linked tag writes nothing. */
export async function linkCustomTag(principal: Principal, input: CustomTagLinkBody): Promise<Item> {
  const prev = await taggedItem(principal, input.itemId);
  if (prev.customTagIds.includes(input.customTagId)) return prev;
  assertRoom(prev);
  const { next, event } = retagged(principal, prev, [...prev.customTagIds, input.customTagId]);
  await customTags.relink(principal.companyId, input.customTagId, prev, next, event);
  return next;
}

/** Unlinks a tag from an item (answers the item); unlinking a tag the item does not have writes nothing (an unknown tag is 404). */
export async function unlinkCustomTag(principal: Principal, input: CustomTagLinkBody): Promise<Item> {
  const prev = await taggedItem(principal, input.itemId);
  if (!prev.customTagIds.includes(input.customTagId)) {
    if (!(await customTags.get(principal.companyId, input.customTagId))) throw tagNotFound(input.customTagId);
    return prev;
  }
  const { next, event } = retagged(
    principal,
    prev,
    prev.customTagIds.filter((id) => id !== input.customTagId),
  );
  await customTags.relink(principal.companyId, input.customTagId, prev, next, event);
  return next;
}

/** Tags whose key, or a word of it, starts with `query` (folded: case and accents aside), one Query per page. */
export function searchCustomTags(principal: Principal, query: SearchCustomTagsQuery): Promise<Page<CustomTag>> {
  const prefix = textPrefix(query.query, TAG_PREFIX_LENGTH);
  if (prefix === undefined)
    throw validationFailed('The query is not valid', [
      { path: '/query', message: `must contain at least ${TAG_PREFIX_LENGTH} letters or digits` },
    ]);
  return customTags.search(principal.companyId, prefix, query);
}
