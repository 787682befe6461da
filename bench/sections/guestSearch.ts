/**
 * §5 Guest search on 5,000 guests: a real DynamoDB Local with a generated population of
 * one company, written as the repository writes guests; searches by email, phone and name-word
 * prefixes page by page through the domain call the handler makes, each page's DynamoDB commands
 * counted, every result compared with a brute-force filter of the population.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startDynamoDbLocal } from '../../bin/local/dynamodb';
import type { Principal } from '../../shared/auth/principal';
import { db, setDb, tableName } from '../../shared/data/client';
import { guestHistoryStep, guestItems, type Guest } from '../../shared/data/guests';
import { locations, type Location } from '../../shared/data/locations';
import { transact } from '../../shared/data/transact';
import { searchTokens } from '../../shared/domain/contact';
import { searchGuests, type GuestMatch } from '../../shared/domain/guests';
import { newEvent } from '../../shared/events/catalog';
import { weekdays } from '../../shared/schemas/locations';
import { expectedMatches, guestPopulation } from '../fixtures/guests';
import { ms, table } from '../lib/md';
import { otherCommands, pagedSearch, perPageRange, type PagedSearch } from '../lib/pagedSearch';

export const GUEST_POPULATION = 5_000;
const COMPANY_ID = 1;
const LOCATION_ID = 101;
const PAGE_LIMIT = 20;
/** Guests with a booking history at the location (every fifth). */
const HISTORY_EVERY = 5;

export interface SearchCase extends PagedSearch {
  name: string;
  q: string;
  locationId?: number;
}

export interface GuestSearchResult {
  population: number;
  items: number;
  seedMs: number;
  cases: SearchCase[];
}

const principal: Principal = {
  kind: 'apiKey',
  companyId: COMPANY_ID,
  permissions: ['bookings.read'],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: 'bench',
  internalOperator: false,
};

/** A document client on DynamoDB Local that records the operation of every command it sends. */
export function countingClient(endpoint: string, sent: string[]): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 3,
  });
  base.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name: 'countCommands' },
  );
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

/** BatchWriteItem, 25 items a call, a few calls at once; unprocessed items are sent again. */
export async function load(items: Record<string, unknown>[], concurrency = 16): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt === 8) throw new Error('DynamoDB Local kept items unprocessed');
        if (attempt > 0) await new Promise((r) => setTimeout(r, 20 * 2 ** attempt));
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** The location, and a history there for every fifth guest, through the bookings code's step. */
async function seedHistory(population: readonly Guest[]): Promise<void> {
  const now = new Date().toISOString();
  const hours = Object.fromEntries(weekdays.map((d) => [d, []])) as unknown as Location['operatingHours'];
  const location: Location = {
    id: LOCATION_ID,
    name: 'Bench bistro',
    timezone: 'Europe/Stockholm',
    operatingHours: hours,
    address: null,
    phone: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.create(
    COMPANY_ID,
    location,
    newEvent(COMPANY_ID, 'location.created', String(LOCATION_ID), { ...location }),
  );
  const withHistory = population.filter((g) => g.id % HISTORY_EVERY === 0);
  for (let i = 0; i < withHistory.length; i += 16) {
    await Promise.all(
      withHistory
        .slice(i, i + 16)
        .map((g) => transact([guestHistoryStep(COMPANY_ID, g.id, LOCATION_ID, historyOf(g.id))])),
    );
  }
}

const historyOf = (id: number) => ({
  bookings: 1 + (id % 4),
  noShows: id % 3 === 0 ? 1 : 0,
  lastVisitAt: `2026-11-${String(1 + (id % 28)).padStart(2, '0')}T19:00:00.000Z`,
});

/** Every page of a search; each page's commands counted, its latency taken, its results checked. */
async function run(
  name: string,
  q: string,
  population: readonly Guest[],
  sent: string[],
  locationId?: number,
): Promise<SearchCase> {
  const wrongHistories = (page: GuestMatch[]) => {
    if (!locationId) return undefined;
    const wrong = page.filter((g) => {
      const h = g.bookingHistory!;
      const want = g.id % HISTORY_EVERY === 0 ? historyOf(g.id) : undefined;
      return (
        h.bookingCount !== (want?.bookings ?? 0) ||
        h.noShowCount !== (want?.noShows ?? 0) ||
        h.lastVisitAt !== (want?.lastVisitAt ?? null)
      );
    });
    return wrong.length ? `${wrong.length} wrong histories` : undefined;
  };
  const searched = await pagedSearch(
    (cursor) =>
      searchGuests(principal, {
        q,
        limit: PAGE_LIMIT,
        page: 1,
        ...(cursor ? { cursor } : {}),
        ...(locationId ? { locationId } : {}),
      }),
    sent,
    PAGE_LIMIT,
    expectedMatches(population, q),
    wrongHistories,
  );
  return { name, q, ...(locationId ? { locationId } : {}), ...searched };
}

export async function guestSearch(): Promise<GuestSearchResult> {
  const dynamo = await startDynamoDbLocal();
  const sent: string[] = [];
  try {
    await ensureTable(dynamo.endpoint, tableName());
    setDb(countingClient(dynamo.endpoint, sent));
    const population = guestPopulation(GUEST_POPULATION, 1001);
    const items = population.flatMap((g) => guestItems(COMPANY_ID, g, searchTokens(g)));
    const t0 = performance.now();
    await load(items);
    const seedMs = performance.now() - t0;
    await seedHistory(population);

    // One search first, untimed: module and connection warm-up would otherwise land on the first case.
    await searchGuests(principal, { q: 'warm up', limit: PAGE_LIMIT, page: 1, locationId: LOCATION_ID });
    const someone = population[1234]!;
    const cases = [
      await run('email prefix', 'anna.berg', population, sent),
      await run("one guest's whole email", someone.email!, population, sent),
      await run('phone prefix', '+46 70 1', population, sent),
      await run('phone prefix, 00 and separators', '0044 (780) 01', population, sent),
      await run('name-word prefix', 'ber', population, sent),
      await run('accented name', 'åsa', population, sent),
      await run('later name word, accented', 'öberg', population, sent),
      await run('two name words', 'anna k', population, sent),
      await run('name-word prefix, with history', 'ber', population, sent, LOCATION_ID),
    ];
    return { population: population.length, items: items.length, seedMs, cases };
  } finally {
    setDb(undefined);
    await dynamo.stop();
  }
}

const range = (c: SearchCase, op: string) => perPageRange(c.perPage, op);
/** Commands other than the page's Query and history BatchGetItem (there should be none). */
const others = (c: SearchCase) => otherCommands(c.perPage, ['Query', 'BatchGetItem']);

/** Checks of the section, one per search: [check, budget, measured, passed]. */
export function guestSearchChecks(r: GuestSearchResult): [string, string, string, boolean][] {
  return r.cases.map((c) => {
    const calls = c.perPage.every(
      (p) =>
        p.Query === 1 &&
        (p.BatchGetItem ?? 0) === (c.locationId ? 1 : 0) &&
        Object.keys(p).length === (c.locationId ? 2 : 1),
    );
    return [
      `§5 Guest search: ${c.name} (\`${c.q}\`${c.locationId ? `, locationId ${c.locationId}` : ''})`,
      `exactly the brute-force matches, each once; per page 1 Query${c.locationId ? ' + 1 BatchGetItem' : ''}`,
      `${c.correct ? `${c.found} of ${c.expected}` : c.why} in ${c.pages} page(s); per page ${range(c, 'Query')} Query, ${range(c, 'BatchGetItem')} BatchGetItem, other: ${others(c)}`,
      c.correct && calls,
    ];
  });
}

export function guestSearchMarkdown(r: GuestSearchResult): string[] {
  return [
    `DynamoDB Local (in memory), one company of ${r.population.toLocaleString('en')} generated guests (accented and double-barrelled names, an eighth without`,
    `email, an eighth without phone), written with BatchWriteItem as the items the repository's create transaction writes (\`guestItems\`):`,
    `${r.items.toLocaleString('en')} items in ${ms(r.seedMs)}. Every fifth guest has a history at location ${LOCATION_ID}, written with \`guestHistoryStep\` in transactions.`,
    `Each search runs page by page (limit ${PAGE_LIMIT}, page 2 on by \`nextCursor\`) through \`searchGuests\`, the handler's domain call; a middleware on the`,
    "client counts each page's commands. Results are compared with a brute-force filter of the generated population (folded email, phone digits,",
    'name from any word on, starting with the query). One untimed search runs first, as a warm-up.',
    '',
    table(
      [
        'Search',
        'q',
        'locationId',
        'Pages',
        'Guests found / expected',
        'Correct',
        'Query per page',
        'BatchGetItem per page',
        'Other commands',
        'Latency per page, median',
        'p99',
      ],
      r.cases.map((c) => [
        c.name,
        `\`${c.q}\``,
        c.locationId ?? '—',
        c.pages,
        `${c.found} / ${c.expected}`,
        c.correct ? 'yes' : `**no**: ${c.why}`,
        range(c, 'Query'),
        range(c, 'BatchGetItem'),
        others(c),
        ms(c.latency.median),
        ms(c.latency.p99),
      ]),
    ),
  ];
}
