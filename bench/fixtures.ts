/**
 * One fixture per operation of the route table (keyed by operationId): a valid request and the
 * DynamoDB answers its handler needs. A route without a row here is reported as MISSING FIXTURE
 * (the runner still tries it with inputs sampled from its schemas, to show what it would do).
 *
 * When you add a route: add a row with a request that passes its schemas and answers for the
 * data calls it makes (GetItem, Query, TransactWriteItems, …). The API key lookup and the rate
 * window are answered for every route by bench/lib/mockDb.ts.
 */
import type { Route } from '../shared/routes';
import type { EventInput } from './lib/events';
import type { Responders } from './lib/mockDb';

export type BudgetClass = 'read' | 'write' | 'update' | 'list' | 'probe';

export interface Fixture {
  /** Budget class of ARCHITECTURE §6; derived from the route (see budgetClass) when absent. */
  kind?: BudgetClass;
  event: Omit<EventInput, 'apiKey'>;
  /** Send the bench API key; default: when the route requires a permission. */
  authenticated?: boolean;
  /** Answers to the operation's own data calls. */
  responders?: Responders;
  /** Lists: how many pages the request reads (the budget allows 1 Query per page). Default 1. */
  pages?: number;
  /** Expected HTTP status; default any 2xx. */
  expectStatus?: number;
}

export const COMPANY_ID = 42;
export const LOCATION_ID = 7;
const COURSING_ID = '3f1c8a52-6d4e-4b7a-9c21-5e8f0a6b2d19';
const STAMP = '2026-11-20T21:59:00.000Z';

/** A stored coursing item as the table holds it (keys and bookkeeping included). */
function coursingItem(i: number) {
  const id = `${i.toString(16).padStart(8, '0')}-6d4e-4b7a-9c21-5e8f0a6b2d19`;
  const order = i + 1;
  return {
    pk: `C#${COMPANY_ID}`,
    sk: `COURSING#${id}`,
    gsi1pk: `C#${COMPANY_ID}#COURSINGS`,
    gsi1sk: `L#${String(LOCATION_ID).padStart(12, '0')}#${String(order * 1e6).padStart(10, '0')}#${id}`,
    entity: 'COURSING',
    companyId: COMPANY_ID,
    id,
    locationId: LOCATION_ID,
    title: `Course ${order}`,
    order,
    color: i % 2 ? '#aa3300' : null,
    version: 3,
    createdAt: STAMP,
    updatedAt: STAMP,
  };
}

const coursingPage = Array.from({ length: 100 }, (_, i) => coursingItem(i));
const probe: Fixture = { event: {}, responders: { GetItem: () => ({}) }, expectStatus: 200 };

export const fixtures: Record<string, Fixture> = {
  live: { ...probe, responders: {} },
  ready: probe,
  health: probe,

  listCoursings: {
    event: { queryStringParameters: { locationId: String(LOCATION_ID), limit: '20' } },
    responders: {
      GetItem: () => ({ Item: { n: 57 } }), // the collection's counter
      Query: (input: { Limit?: number }) => {
        const items = coursingPage.slice(0, input.Limit ?? 20);
        const last = items.at(-1)!;
        return { Items: items, Count: items.length, LastEvaluatedKey: { pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk } };
      },
    },
    expectStatus: 200,
  },

  createCoursing: {
    event: { body: { locationId: LOCATION_ID, title: 'Mains', order: 2, color: '#aa3300' } },
    responders: { TransactWriteItems: () => ({}) },
  },

  updateCoursing: {
    event: { pathParameters: { id: COURSING_ID }, body: { title: 'Desserts', order: 3.5 } },
    responders: {
      GetItem: () => ({ Item: { ...coursingItem(2), id: COURSING_ID, sk: `COURSING#${COURSING_ID}` } }),
      TransactWriteItems: () => ({}),
    },
    expectStatus: 200,
  },
};

/**
 * §6 budget class from the route: probes; GET with a path id = read; other GET = list; PUT or
 * PATCH of one resource = update (reads the current item first: docs/benchmarks.md); else write.
 */
export function budgetClass(route: Route, fixture?: Fixture): BudgetClass {
  if (fixture?.kind) return fixture.kind;
  if (route.probe) return 'probe';
  const byId = /\{[^}]+\}$/.test(route.path);
  if (route.method === 'GET') return byId ? 'read' : 'list';
  if ((route.method === 'PUT' || route.method === 'PATCH') && byId) return 'update';
  return 'write';
}
