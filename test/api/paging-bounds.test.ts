/**
 * The paging bounds of every list (docs/access.md, threat model, item 13; docs/api.md): `page` × `limit` at most
 * 1000, beyond which the answer is 400 telling the client to use the cursor, before anything is
 * read; no `page` large enough to overflow a DynamoDB `Limit` reaches the database. The lists are
 * taken from the route table, so a new list is checked without being named here.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { MAX_PAGED_ITEMS } from '../../shared/schemas/common';
import { call, company, devKeys } from '../support/http';
import { expectRefused, unknownUuid } from './setup-helpers';

/** GET rows whose query takes `page`: every paged list. */
const lists = (routes as readonly Route[]).filter(
  (r) => r.method === 'GET' && r.schemas.query && 'page' in (r.schemas.query as TObject).properties,
);

/** A well-formed value of a path or required query parameter (validation runs before any read, so none need exist). */
function sample(name: string, schema: TSchema): string {
  if (schema.type === 'integer') return '1';
  if (schema.format === 'uuid') return unknownUuid;
  if (schema.format === 'date') return '2030-01-01';
  if (name === 'q') return 'ab';
  if (name === 'query') return 'abc';
  if (name === 'code') return 'ABCDEFGH';
  throw new Error(`no sample for ${name}`);
}

function url(r: Route, query: string): string {
  const path = r.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    sample(name, (r.schemas.path as TObject).properties[name]!),
  );
  const q = r.schemas.query as TObject;
  const required = (q.required ?? [])
    .filter((name) => !['page', 'limit'].includes(name))
    .map((name) => `${name}=${sample(name, q.properties[name]!)}`);
  return `${path}?${[...required, query].join('&')}`;
}

const maxLimit = (r: Route) => (r.schemas.query as TObject).properties.limit!.maximum as number;
const key = () => company(1).keys.admin;
/** Company 1's admin key; the operators' routes (companies) refuse every credential but an internal operator's. */
const credential = (r: Route) => (r.area === 'companies' ? { token: devKeys().operatorToken } : { key: key() });

describe('every paged list bounds page × limit', () => {
  it('finds the paged lists in the route table', () => {
    expect(lists.map((r) => r.operationId)).toEqual(
      expect.arrayContaining([
        'listBookings',
        'listLocations',
        'listPermissions',
        'listEvents',
        'searchGuests',
        'listTabOrders',
      ]),
    );
    expect(lists.length).toBeGreaterThanOrEqual(14);
  });

  it.each(lists.map((r) => [r.operationId, r] as const))(
    '%s: 400 naming /page and the cursor past page × limit 1000, before reading',
    async (_, r) => {
      const limit = maxLimit(r);
      const deepest = Math.floor(MAX_PAGED_ITEMS / limit);
      for (const query of [
        `limit=${limit}&page=${deepest + 1}`,
        `limit=1&page=${MAX_PAGED_ITEMS + 1}`,
        'limit=1&page=9007199254740993',
        'page=1e300',
      ]) {
        const out = await call('GET', url(r, query), credential(r));
        expectRefused(out, 400, 'VALIDATION_FAILED', '/page');
        if (query.startsWith(`limit=${limit}`))
          expect(out.body.error.details.find((d: { path: string }) => d.path === '/page').message).toMatch(
            /page × limit must be at most 1000 .*follow meta.pagination.nextCursor with the cursor parameter/,
          );
      }
      // At the bound the page is read (an unknown parent answers 404, an empty list 200), never refused for its depth.
      const edge = await call('GET', url(r, `limit=${limit}&page=${deepest}`), credential(r));
      expect([200, 404], JSON.stringify(edge.body)).toContain(edge.status);
    },
  );

  it('reads a deep page of a real list by cursor at any depth', async () => {
    // The permission catalog has more than 20 entries: follow the cursor two pages at limit 10, past where page 3 would be.
    const first = await call('GET', '/api/v1/permissions?limit=10', { key: key() });
    const second = await call('GET', `/api/v1/permissions?limit=10&cursor=${first.body.meta.pagination.nextCursor}`, {
      key: key(),
    });
    const third = await call('GET', `/api/v1/permissions?limit=10&cursor=${second.body.meta.pagination.nextCursor}`, {
      key: key(),
    });
    expect(third.status).toBe(200);
    expect(third.body.meta.pagination.page).toBe(3);
    expect(third.body.data[0].key > second.body.data[9].key).toBe(true);
  });
});
