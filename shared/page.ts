/** docs/api.md, “Paging”: `meta.pagination` of every list, and how deep `page` may go. */
import { validationFailed, type FieldProblem } from './errors';
import { MAX_PAGED_ITEMS } from './schemas/common';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  nextCursor: string | null;
}

/** A page of a list: the envelope puts `items` in `data` and `pagination` in `meta`. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly pagination: Pagination,
    /** Set when the list answers `data.<dataKey>` rather than `data` as an array (the alerts: docs/api.md). */
    readonly dataKey?: string,
  ) {}
}

/** The page answered as `data: { [dataKey]: items }`, its pagination in `meta` as every list's. */
export const namedPage = <T>(page: Page<T>, dataKey: string): Page<T> => new Page(page.items, page.pagination, dataKey);

/** The problem with a `page` that reaches past MAX_PAGED_ITEMS, or undefined. A cursor read is never refused. */
export function pageDepthProblem(q: { page?: unknown; limit?: unknown; cursor?: unknown }): FieldProblem | undefined {
  if (q.cursor !== undefined || typeof q.page !== 'number' || typeof q.limit !== 'number') return undefined;
  if (q.page * q.limit <= MAX_PAGED_ITEMS) return undefined;
  const deepest = Math.max(Math.floor(MAX_PAGED_ITEMS / q.limit), 1);
  return {
    path: '/page',
    message: `page × limit must be at most ${MAX_PAGED_ITEMS} (page ${deepest} at limit ${q.limit}); to read further, follow meta.pagination.nextCursor with the cursor parameter`,
  };
}

/** 400 for a `page` that reaches past MAX_PAGED_ITEMS (see `pageDepthProblem`). */
export function assertPageDepth(q: { page: number; limit: number; cursor?: string | undefined }): void {
  const problem = pageDepthProblem(q);
  if (problem) throw validationFailed('The page is too deep; use the cursor', [problem]);
}

/**
 * One page of a list held whole in memory, already in its order (a location-limited key's
 * locations, the permission catalog). `cursor` (from `nextCursor`) names the list and the position
 * of the last item listed, so it goes on after that item even when items were added or removed
 * before it; a cursor of another list is refused (400).
 */
export function pageInMemory<T>(
  sorted: readonly T[],
  req: { page: number; limit: number; cursor?: string | undefined },
  list: string,
  positionOf: (item: T) => string | number,
): Page<T> {
  const after = req.cursor === undefined ? undefined : decodeMemoryCursor(req.cursor, list);
  if (!after) assertPageDepth(req);
  const page = after?.page ?? req.page;
  const from = after ? sorted.findIndex((item) => positionOf(item) > after.position) : (page - 1) * req.limit;
  const start = from === -1 ? sorted.length : from;
  const items = sorted.slice(start, start + req.limit);
  const last = items.at(-1);
  const more = start + req.limit < sorted.length;
  const cursor = (position: string | number) =>
    Buffer.from(JSON.stringify({ l: list, p: page + 1, a: position })).toString('base64url');
  return new Page(items, {
    page,
    limit: req.limit,
    total: sorted.length,
    totalPages: Math.ceil(sorted.length / req.limit),
    nextCursor: more && last !== undefined ? cursor(positionOf(last)) : null,
  });
}

function decodeMemoryCursor(cursor: string, list: string): { page: number; position: string | number } {
  let parsed: { l?: unknown; p?: unknown; a?: unknown } | null = null;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const ok =
    parsed !== null &&
    typeof parsed === 'object' &&
    parsed.l === list &&
    Number.isInteger(parsed.p) &&
    (parsed.p as number) >= 1 &&
    (typeof parsed.a === 'string' || typeof parsed.a === 'number');
  if (!ok) throw validationFailed('Invalid cursor', [{ path: '/cursor', message: 'is not a cursor of this list' }]);
  return { page: parsed!.p as number, position: parsed!.a as string | number };
}
