/**
 * A search read to its end page by page, as a client follows `nextCursor`: each page's DynamoDB
 * commands counted (from the list a counting client fills), its latency taken, and the whole
 * result compared with what a brute-force filter expects (guest search §5, custom tag search §8).
 */
import type { Page } from '../../shared/page';
import { summarize, type Summary } from './stats';

export interface PagedSearch {
  pages: number;
  found: number;
  expected: number;
  correct: boolean;
  /** What differs from the brute-force filter, when not correct. */
  why: string;
  /** DynamoDB commands of each page, by operation. */
  perPage: Record<string, number>[];
  latency: Summary;
}

/**
 * Reads every page (`page(cursor)`, the first without one), at most `limit` results each;
 * `checkPage` may name a problem of a page's results beyond their ids.
 */
export async function pagedSearch<T extends { id: number }>(
  page: (cursor: string | undefined) => Promise<Page<T>>,
  sent: string[],
  limit: number,
  expected: readonly number[],
  checkPage?: (items: T[]) => string | undefined,
): Promise<PagedSearch> {
  const perPage: Record<string, number>[] = [];
  const times: number[] = [];
  const ids: number[] = [];
  const problems: string[] = [];
  let cursor: string | undefined;
  do {
    sent.length = 0;
    const t0 = performance.now();
    const got = await page(cursor);
    times.push(performance.now() - t0);
    perPage.push(sent.reduce<Record<string, number>>((acc, op) => ({ ...acc, [op]: (acc[op] ?? 0) + 1 }), {}));
    if (got.items.length > limit) problems.push(`page ${perPage.length} holds ${got.items.length}`);
    const problem = checkPage?.(got.items);
    if (problem) problems.push(problem);
    ids.push(...got.items.map((x) => x.id));
    cursor = got.pagination.nextCursor ?? undefined;
  } while (cursor);
  const [want, seen] = [new Set(expected), new Set(ids)];
  if (seen.size !== ids.length) problems.push('a result listed twice');
  const missing = expected.filter((id) => !seen.has(id)).length;
  const unexpected = [...seen].filter((id) => !want.has(id)).length;
  if (missing || unexpected) problems.push(`${missing} missing, ${unexpected} unexpected`);
  return {
    pages: perPage.length,
    found: ids.length,
    expected: expected.length,
    correct: problems.length === 0,
    why: problems.join('; '),
    perPage,
    latency: summarize(times),
  };
}

/** How many `op` commands the pages sent: one figure, or the range. */
export function perPageRange(perPage: readonly Record<string, number>[], op: string): string {
  const counts = perPage.map((p) => p[op] ?? 0);
  const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

/** The commands the pages sent beyond `expectedOps` ("none" when there are none). */
export const otherCommands = (perPage: readonly Record<string, number>[], expectedOps: readonly string[]) =>
  [...new Set(perPage.flatMap((p) => Object.keys(p)))].filter((op) => !expectedOps.includes(op)).join(', ') || 'none';
