/**
 * Every row of the route table (probes included) and the fallback have an API test that calls
 * them, checked on what the API suite really did rather than on what its source looks like: the
 * api project's stage records each answer it gives (test/support/route-log.ts, matched with the
 * stage's own router), and this project runs after it (`sequence.groupOrder` in vitest.config.ts)
 * and reads the record. A request built any way at all counts (helpers, constants, a plain fetch),
 * and one that no file makes, or that a test only ever sees refused, does not: a row needs a 2xx
 * answer, the fallback a 404 for an unknown path and a 405 for a method its path does not allow.
 * It needs the whole api project in the same run (`npm test` does that); alone it fails and says so.
 */
import { existsSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { readRouteLog } from '../support/route-log';

const log = () => {
  const file = inject('routeLog');
  expect(file && existsSync(file), 'no route record: run this project together with the api project (npm test)').toBe(
    true,
  );
  return readRouteLog(file);
};
const ok = (statuses: number[] | undefined) => (statuses ?? []).some((s) => s >= 200 && s < 300);

describe('route coverage of the API suite', () => {
  it('called every row of the route table and got a 2xx answer from it', () => {
    const called = log();
    const missing = (routes as readonly Route[])
      .filter((r) => !ok(called[r.operationId]))
      .map((r) => `${r.method} ${r.path} (${r.operationId}): ${JSON.stringify(called[r.operationId] ?? [])}`);
    expect(missing).toEqual([]);
  });

  it('called the fallback: 404 for a path no row has, 405 for a method its path does not allow', () => {
    const called = log();
    expect(called['fallback:not-found']).toContain(404);
    expect(called['fallback:method-not-allowed']).toContain(405);
  });
});
