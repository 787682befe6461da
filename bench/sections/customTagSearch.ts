/**
 * Custom tag search on 5,000 tags: a real DynamoDB Local with a generated population of
 * one company's tags, written as the repository's create writes them (`customTagItems`); searches
 * by key and word prefixes page by page through the domain call the handler makes, each page's
 * DynamoDB commands counted, every result compared with a brute-force filter of the population.
 */
import { ensureTable, startDynamoDbLocal } from '../../bin/local/dynamodb';
import type { Principal } from '../../shared/auth/principal';
import { setDb, tableName } from '../../shared/data/client';
import { customTagItems, type CustomTag } from '../../shared/data/customTags';
import { foldText, textPrefix } from '../../shared/domain/contact';
import { searchCustomTags, tagTokens } from '../../shared/domain/customTags';
import { ms, table } from '../lib/md';
import { otherCommands, pagedSearch, perPageRange, type PagedSearch } from '../lib/pagedSearch';
import { countingClient, load } from './guestSearch';

export const TAG_POPULATION = 5_000;
const COMPANY_ID = 1;
const PAGE_LIMIT = 20;

const adjectives = [
  'Gluten free',
  'Vegan',
  'Vegetarian',
  'Spicy',
  'Mild',
  'Smoked',
  'Organic',
  'Local',
  'Seasonal',
  'Crispy',
  'Raw',
  'Sugar free',
  'Lactose free',
  'Nut free',
  'Hot',
  'Cold',
  'Fresh',
  'Grillad',
  'Rökt',
  'Ekologisk',
  'Glutenfri',
  'Végétal',
  'Fermenterad',
  'Chef’s choice',
];
const nouns = [
  'option',
  'dish',
  'plate',
  'special',
  'bowl',
  'side',
  'sauce',
  'dessert',
  'drink',
  'starter',
  'main',
  'snack',
  'menu',
  'pairing',
  'brunch',
  'räksmörgås',
  'kött',
  'fisk',
  'crème',
  'salad',
];
const categories = ['diet', 'allergen', 'flavour', 'origin', 'season', 'kitchen', 'bar', 'promotion'];

/** 5,000 distinct tags: an adjective, a noun and a number, under one of eight category handles. */
export function tagPopulation(n: number, firstId: number): CustomTag[] {
  return Array.from({ length: n }, (_, i) => ({
    id: firstId + i,
    categoryHandle: categories[i % categories.length]!,
    key: `${adjectives[i % adjectives.length]} ${nouns[Math.floor(i / adjectives.length) % nouns.length]} ${Math.floor(i / (adjectives.length * nouns.length))}`,
    createdAt: '2026-11-01T12:00:00.000Z',
  }));
}

/** Brute force: the tags whose folded key, from any word on, starts with the folded query. */
export function expectedTags(population: readonly CustomTag[], q: string): number[] {
  const prefix = textPrefix(q, 3);
  if (prefix === undefined) throw new Error(`no prefix for ${q}`);
  return population
    .filter((t) => {
      const words = foldText(t.key).split(' ');
      return words.some((_, i) => words.slice(i).join(' ').startsWith(prefix));
    })
    .map((t) => t.id)
    .sort((a, b) => a - b);
}

export interface TagCase extends PagedSearch {
  name: string;
  q: string;
}

export interface TagSearchResult {
  population: number;
  items: number;
  seedMs: number;
  cases: TagCase[];
}

const principal: Principal = {
  kind: 'apiKey',
  companyId: COMPANY_ID,
  permissions: ['custom_tags.read'],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: 'bench',
  internalOperator: false,
};

async function run(name: string, q: string, population: readonly CustomTag[], sent: string[]): Promise<TagCase> {
  const searched = await pagedSearch(
    (cursor) => searchCustomTags(principal, { query: q, limit: PAGE_LIMIT, page: 1, ...(cursor ? { cursor } : {}) }),
    sent,
    PAGE_LIMIT,
    expectedTags(population, q),
  );
  return { name, q, ...searched };
}

export async function customTagSearch(): Promise<TagSearchResult> {
  const dynamo = await startDynamoDbLocal();
  const sent: string[] = [];
  try {
    await ensureTable(dynamo.endpoint, tableName());
    setDb(countingClient(dynamo.endpoint, sent));
    const population = tagPopulation(TAG_POPULATION, 5001);
    const items = population.flatMap((t) => customTagItems(COMPANY_ID, t, tagTokens(t.key)));
    const t0 = performance.now();
    await load(items);
    const seedMs = performance.now() - t0;
    await searchCustomTags(principal, { query: 'warm up', limit: PAGE_LIMIT, page: 1 });
    const cases = [
      await run('key prefix', 'glu', population, sent),
      await run('key prefix, two words', 'gluten free s', population, sent),
      await run('word prefix (second word)', 'pairi', population, sent),
      await run('word then the number', 'option 1', population, sent),
      await run('accented, folded', 'RÖKT', population, sent),
      await run('later word, accented', 'creme', population, sent),
      await run('apostrophe dropped', "chef's", population, sent),
      await run('one tag whole', population[4321]!.key, population, sent),
      await run('no match', 'zzz', population, sent),
    ];
    return { population: population.length, items: items.length, seedMs, cases };
  } finally {
    setDb(undefined);
    await dynamo.stop();
  }
}

const range = (c: TagCase) => perPageRange(c.perPage, 'Query');
const others = (c: TagCase) => otherCommands(c.perPage, ['Query']);

/** Checks of the section, one per search: [check, budget, measured, passed]. */
export function customTagSearchChecks(r: TagSearchResult): [string, string, string, boolean][] {
  return r.cases.map((c) => [
    `§8 Custom tag search: ${c.name} (\`${c.q}\`)`,
    'exactly the brute-force matches, each once; per page 1 Query',
    `${c.correct ? `${c.found} of ${c.expected}` : c.why} in ${c.pages} page(s); per page ${range(c)} Query, other: ${others(c)}`,
    c.correct && c.perPage.every((p) => p.Query === 1 && Object.keys(p).length === 1),
  ]);
}

export function customTagSearchMarkdown(r: TagSearchResult): string[] {
  return [
    `DynamoDB Local (in memory), one company of ${r.population.toLocaleString('en')} generated custom tags (an adjective, a noun and a number; accented`,
    `words, an apostrophe), written with BatchWriteItem as the items the repository's create transaction writes (\`customTagItems\`):`,
    `${r.items.toLocaleString('en')} items in ${ms(r.seedMs)}. Each search runs page by page (limit ${PAGE_LIMIT}, page 2 on by \`nextCursor\`) through`,
    "`searchCustomTags`, the handler's domain call; a middleware on the client counts each page's commands. Results are compared with a",
    'brute-force filter of the population (folded key, from any word on, starting with the folded query). One untimed search runs first.',
    '',
    table(
      [
        'Search',
        'query',
        'Pages',
        'Tags found / expected',
        'Correct',
        'Query per page',
        'Other commands',
        'Latency per page, median',
        'p99',
      ],
      r.cases.map((c) => [
        c.name,
        `\`${c.q}\``,
        c.pages,
        `${c.found} / ${c.expected}`,
        c.correct ? 'yes' : `**no**: ${c.why}`,
        range(c),
        others(c),
        ms(c.latency.median),
        ms(c.latency.p99),
      ]),
    ),
  ];
}
