/**
 * `TABLE_NAME=<the stage's table> npx tsx bin/tools/backfill-around.ts [--from YYYY-MM-DD]`, with
 * AWS credentials for the stage's account and region: makes the compact buckets of bookings that
 * availability reads (shared/data/bookingsAround.ts) whole for every location of every company,
 * and marks each location's buckets whole. Locations created since the buckets exist have theirs
 * from the start; older ones answer availability from the bookings themselves until this has run
 * for them (docs/deploy.md, “After deploying: the availability buckets”). Safe to run again, and
 * while the API serves. One line per location; exit 1 when any location did not settle.
 */
import { companies } from '../../shared/data/companies';
import { bookingsAround } from '../../shared/data/bookingsAround';
import { locations } from '../../shared/data/locations';
import type { Page } from '../../shared/page';

const PAGE = 100;

/** Every item of a paged list, page by page along the cursor. */
async function all<T>(
  list: (page: { page: number; limit: number; cursor?: string }) => Promise<Page<T>>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  // A list of companies or locations ends: each page along the cursor reads on from the last.
  for (let page = 1; page < Number.MAX_SAFE_INTEGER; page++) {
    const p = await list({ page, limit: PAGE, ...(cursor ? { cursor } : {}) });
    out.push(...p.items);
    cursor = p.pagination.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return out;
}

async function main(): Promise<number> {
  const at = process.argv.indexOf('--from');
  // Availability answers today's and later dates, reading the day before: three days back covers every zone.
  const from = at > 0 ? process.argv[at + 1]! : new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from)) throw new Error(`--from takes a date (YYYY-MM-DD), not ${from}`);
  let failed = 0;
  for (const company of await all((p) => companies.list(p))) {
    for (const location of await all((p) => locations.list(company.id, p))) {
      try {
        const rounds = await bookingsAround.backfill(company.id, location.id, from);
        console.log(`company ${company.id} location ${location.id}: whole (${rounds} round${rounds > 1 ? 's' : ''})`);
      } catch (err) {
        failed += 1;
        console.error(`company ${company.id} location ${location.id}: ${(err as Error).message}`);
      }
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error).stack ?? String(err));
    process.exit(1);
  },
);
