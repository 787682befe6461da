/**
 * Prefix search over index items, one per search token of a resource (guests, custom tags):
 *
 *   token item  gsi1 <partition of the token's first characters> / <token>#<id:12>
 *
 * Each token item carries the resource's fields, its `token` and all its `tokens` in index order,
 * so a page is one Query of gsi1 with begins_with, no resource item is read back, and a resource
 * matching by two tokens is listed once (at the first of them in index order) whatever the page
 * boundaries. A page reads ahead (2 × limit + 1 items) so that resources found twice, or hidden
 * from the caller, still leave a full page; the next page starts after the last item it consumed.
 */
import { Type } from '../schemas/typebox';
import { Page } from '../page';
import type { Item } from './batch';
import { keys } from './keys';
import { decodeCursor, encodeCursor, itemKey, queryUntil, type PageRequest, type QuerySpan } from './paging';

type Key = Record<string, string>;

/** DynamoDB orders string keys by their UTF-8 bytes. */
const byKeyOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** What a token item stores beside the resource's fields: its token, and all the resource's tokens in index order. */
export const tokenFields = { token: Type.String(), tokens: Type.Array(Type.String()) };

export const tokenSortKey = (token: string, id: number) => `${token}#${keys.pad(id)}`;

/** The resource's token items' own fields: each token, with all of them in index order. */
export function tokenItems<T extends { id: number }>(
  value: T,
  tokens: readonly string[],
): (T & { token: string; tokens: string[] })[] {
  const ordered = [...tokens].sort((a, b) => byKeyOrder(tokenSortKey(a, value.id), tokenSortKey(b, value.id)));
  return ordered.map((token) => ({ ...value, token, tokens: ordered }));
}

/** Which of the resources (by id) a caller may see; absent: all of them. */
export type Visible = (ids: number[]) => Promise<Set<number>>;

/** Where a search page starts: its number, the key to read on from, and how many the pages before it listed. */
interface SearchStart {
  page: number;
  key: Key | undefined;
  found: number;
}

/** The resource is listed at the first of its tokens (in index order) that the prefix matches. */
const listsResource = (item: Item, prefix: string) =>
  (item.tokens as string[]).find((t) => t.startsWith(prefix)) === item.token;

async function searchPage<T extends { id: number }>(
  span: QuerySpan,
  prefix: string,
  limit: number,
  start: Key | undefined,
  from: (item: Item) => T,
  visible?: Visible,
): Promise<{ found: T[]; next: Key | undefined }> {
  const { items, lastKey } = await queryUntil(span, 2 * limit + 1, start);
  const listed = items.flatMap((item, i) => (listsResource(item, prefix) ? [{ i, value: from(item) }] : []));
  const shown = visible ? await visible(listed.map((l) => l.value.id)) : undefined;
  const found: T[] = [];
  for (const { i, value } of listed) {
    if (shown && !shown.has(value.id)) continue;
    if (found.length === limit) return { found, next: itemKey(items[i - 1]!, span.index) };
    found.push(value);
  }
  return { found, next: lastKey && itemKey(lastKey, span.index) };
}

/**
 * The resources whose tokens start with `prefix` (already normalized), in index order, one Query
 * per page. `total` counts the resources listed up to this page: exact once nextCursor is null.
 * `page` N without a cursor walks the N - 1 pages before it.
 */
export async function searchTokens<T extends { id: number }>(
  span: QuerySpan,
  prefix: string,
  req: PageRequest,
  from: (item: Item) => T,
  visible?: Visible,
): Promise<Page<T>> {
  const cursor = req.cursor ? decodeCursor(req.cursor, span) : undefined;
  let start: SearchStart = cursor
    ? { page: cursor.page, key: cursor.key, found: cursor.listed ?? 0 }
    : { page: 1, key: undefined, found: 0 };
  const target = cursor ? cursor.page : req.page;
  for (;;) {
    const { found: listed, next } = await searchPage(span, prefix, req.limit, start.key, from, visible);
    const found = start.found + listed.length;
    const atTarget = start.page === target;
    if (atTarget || !next) {
      const more = atTarget && next !== undefined;
      return new Page(atTarget ? listed : [], {
        page: target,
        limit: req.limit,
        total: found,
        totalPages: more ? start.page + 1 : start.page,
        nextCursor: more ? encodeCursor(target + 1, next, found) : null,
      });
    }
    start = { page: start.page + 1, key: next, found };
  }
}
