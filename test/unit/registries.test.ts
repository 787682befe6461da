/**
 * The lists an operation must be added to beside its row (docs/adding-an-operation.md), checked in
 * seconds: without these, a new operation's missing entries showed only at the end of a full
 * `npm test` (the crash harness in the integration suite, the sweeps in the api suite) or only in
 * `npm run bench`. Each check reads the route table and the list it guards.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtures } from '../../bench/fixtures';
import { routes, type Route } from '../../shared/routes';
import { excluded } from '../support/sweep-exclusions';
import { requestFor, type World, type WorldIds } from '../support/world';

const all = routes as readonly Route[];
const ids = new Set(all.map((r) => r.operationId));

describe('every operation is in the lists beside its row', () => {
  it('has a benchmark fixture (bench/fixtures/<area>.ts), and no fixture names a missing operation', () => {
    expect(all.filter((r) => !(r.operationId in fixtures)).map((r) => r.operationId)).toEqual([]);
    expect(Object.keys(fixtures).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('has a crash-injection row when it writes (test/integration/crash.test.ts)', () => {
    const source = readFileSync(new URL('../integration/crash.test.ts', import.meta.url), 'utf8');
    const rowOps = new Set([...source.matchAll(/\bop: '(\w+)'/g)].map((m) => m[1]!));
    // The two GETs that write: the settings a first read stores, the lapsed waitlist offer it expires.
    const writing = all.filter((r) => r.method !== 'GET').map((r) => r.operationId as string);
    const expected = [...writing, 'getBookingSettings', 'getWaitlistByCode'];
    expect(expected.filter((id) => !rowOps.has(id))).toEqual([]);
    expect([...rowOps].filter((id) => !ids.has(id))).toEqual([]);
  });

  it('can be requested by the sweeps: each path segment and body field names a resource of the world (test/support/world.ts), unless test/support/sweep-exclusions.ts says why not', () => {
    // Any id will do: whether a request can be built depends on the path's segments and the body's
    // fields, not on the ids' values.
    const anyIds = new Proxy({}, { get: () => 7 }) as WorldIds;
    const world: World = {
      company: { companyId: 7, name: 'registry check', keys: { admin: 'k', readonly: 'k' } },
      ids: anyIds,
      timezone: 'Europe/Stockholm',
      day: '2030-01-01',
      receiverUrl: 'https://receiver.example/hook',
    };
    const swept = all.filter((r) => r.permission !== null && !(r.operationId in excluded));
    const unbuilt = swept.flatMap((r) => {
      const { missing } = requestFor(r, world);
      return missing.length ? [`${r.operationId}: no ${missing.join(', ')}`] : [];
    });
    expect(unbuilt).toEqual([]);
  });

  it('names a unique operationId, method and path, and a function name Lambda accepts', () => {
    const twice = (keys: string[]) => keys.filter((k, i) => keys.indexOf(k) !== i);
    expect(twice(all.map((r) => r.operationId))).toEqual([]);
    expect(twice(all.map((r) => `${r.method} ${r.path}`))).toEqual([]);
    // The deployed function is `brigade-<stage>-<operationId>` (infra/): at most 64 characters with
    // the longest stage name, "prod".
    expect(all.filter((r) => `brigade-prod-${r.operationId}`.length > 64).map((r) => r.operationId)).toEqual([]);
  });
});
