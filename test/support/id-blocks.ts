/**
 * Company (and location) ids of the integration test files, which share one table in one DynamoDB
 * Local: each file takes ids from a fixed block of its own, so no two files ever write to the same
 * company's items, in whatever order or parallelism they run. `test/unit/support-id-blocks.test.ts`
 * checks that the blocks are disjoint and that every integration file is listed here.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const BLOCK_SIZE = 100_000;
const FIRST = 100_000_000;

/** Files with a block, in block order: a file's block is its index here, so add new files at the end. */
export const blockFiles = [
  'access-catalog',
  'access-keys',
  'booking-members',
  'bookings',
  'coursings',
  'guests',
  'platform',
  'setup',
  'webhooks-pipeline',
  'webhooks',
  'crash',
  'capacity',
  'bookings-selling',
  'waitlist',
  'idempotency',
  'alerts',
  'schedules',
  'throttling',
  'catalog-sync',
  'webhooks-due-index',
  'bookings-sweeper',
  'purchase-days',
] as const;

/**
 * Files that still pick their ids at random from ranges of their own (ranges no other file uses;
 * they move to a block when they are next changed). The blocks keep clear of these.
 */
export const legacyRanges: Record<string, [number, number][]> = {
  'bookings-unseat': [
    [23_000, 23_999],
    [33_000, 33_999],
  ],
  entity: [[900_000_000, 989_999_999]],
};

export interface IdBlock {
  first: number;
  last: number;
  /** The block's next unused id (ids come in order; a file has its own copy of this module, so its own counter). */
  next(): number;
}

/** The block of a test file, named by its `import.meta.url` or its name without `.test.ts`. */
export function idBlock(file: string): IdBlock {
  const name = basename(file.startsWith('file:') ? fileURLToPath(file) : file).replace(/\.test\.ts$/, '');
  const index = (blockFiles as readonly string[]).indexOf(name);
  if (index < 0) throw new Error(`${name} has no id block: add it to blockFiles in test/support/id-blocks.ts`);
  const first = FIRST + index * BLOCK_SIZE;
  const last = first + BLOCK_SIZE - 1;
  let next = first;
  return {
    first,
    last,
    next() {
      if (next > last) throw new Error(`${name} used up its id block`);
      return next++;
    },
  };
}
