/**
 * Every route of the table fuzzed from its own schemas (docs/testing.md "The fuzz"):
 * requests changed in one way each (test/support/fuzz/cases.ts), sent to the local stage with
 * the fuzz company's admin key, next to a world of its real resources: the sweeps' world
 * (test/support/world.ts `buildWorld`), each route's valid request its `requestFor`. Asserted:
 *
 * - no answer is a 5xx;
 * - every answer matches the OpenAPI description (test/support/answers.ts): an error is the
 *   contract's envelope with the code its status stands for;
 * - a request the chain must refuse (the oracle, test/support/fuzz/oracle.ts: no operation, a body
 *   that is too large, not JSON or not under a JSON type, a value its schema refuses, a bad
 *   Idempotency-Key) is refused with that status and code, and writes nothing: the fuzz company's
 *   items (entities, event log and outbox included) are the same before and after each area's
 *   refused requests.
 *
 * Requests the schemas accept are sent afterwards (they may write); those must not answer 5xx.
 * The seed is fixed and printed; FUZZ_SEED, FUZZ_RUNS (cases per route) and FUZZ_ROUTE (some
 * operationIds, comma-separated) replay or widen a run: `npm run fuzz` is the long run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type Route } from '../../shared/routes';
import { devKeys, newClientAddress } from '../support/http';
import { casesOf, type Base, type FuzzCase } from '../support/fuzz/cases';
import { expectationOf, type Expectation, type Sent } from '../support/fuzz/oracle';
import { branches, plain, validValue } from '../support/fuzz/schema';
import { bounded, curlOf, send, toSent, type Received } from '../support/fuzz/send';
import { belongsTo, diff, snapshot } from '../support/fuzz/state';
import { buildWorld, requestFor, startReceiver, type World } from '../support/world';

const SEED = Number(process.env.FUZZ_SEED ?? 15_001);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const ONLY = process.env.FUZZ_ROUTE ? new Set(process.env.FUZZ_ROUTE.split(',')) : undefined;
/** Requests in flight at once: the stage and DynamoDB Local share 2 cores with the rest of the suite. */
const CONCURRENCY = 4;
/** The platform operator's token counts in a window other files use too: its routes get fewer cases. */
const OPERATOR_RUNS = Math.min(RUNS, 40);
/** Marks the platform items the fuzz names (the permission catalog is platform-wide), so the state check can see them. */
const MARKER = 'fuzzmark';
/** Valid requests to these change platform-wide data other files count: the fuzz sends them invalid only. */
const platformWrites = new Set(['createCompany', 'createPermission', 'updatePermission', 'deletePermission']);

const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);
/** Each route has its own seed, derived from the run's: one route's cases replay alone (FUZZ_ROUTE). */
const seedOf = (operationId: string) => (SEED ^ hash(operationId)) >>> 0;
const replay = (operationId: string) =>
  `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_ROUTE=${operationId} nice -n 19 npx vitest run test/api/fuzz.test.ts`;

interface Sample {
  route: Route;
  fuzz: FuzzCase;
  sent: Sent;
  expected: Expectation;
  received?: Received;
}

interface RouteCount {
  requests: number;
  refused: number;
  valid: number;
  statuses: Record<string, number>;
  fiveXX: number;
}

let world: World;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** What the world has no value for, route by route (`requestFor`'s `missing`): filled by `baseOf`. */
let worldMissing: string[];

beforeAll(async () => {
  receiver = await startReceiver();
  world = await buildWorld('Fuzz company', receiver.url, routes);
  worldMissing = (routes as readonly Route[]).flatMap((r) => {
    const { missing } = requestFor(r, world);
    return missing.length ? [`${r.operationId}: ${missing.join(', ')}`] : [];
  });
  console.info(
    `fuzz: seed ${SEED}, ${RUNS} cases per route; company ${world.company.companyId}${worldMissing.length ? `; the world lacks: ${worldMissing.join(' | ')}` : ''}`,
  );
}, 120_000);

afterAll(() => receiver?.close());

/**
 * What a route's cases start from: the world's request of it (test/support/world.ts `requestFor`:
 * the ids of real resources in the path, the query, the body example with the world's ids). What
 * the world has no value for gets a valid value of its schema: a path parameter no segment names a
 * well-formed id that names nothing (a 404, after everything before the lookup), a required query
 * parameter the world's table lacks the least value its schema takes.
 */
function baseOf(route: Route): Base {
  const request = requestFor(route, world);
  const pathSchema = plain(route.schemas.path ?? {});
  const params = Object.fromEntries(
    [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [
      name!,
      request.params[name!] ?? String(validValue(branches(pathSchema.properties?.[name!] ?? { type: 'string' })[0]!)),
    ]),
  );
  const query = { ...request.query };
  const querySchema = route.schemas.query ? plain(route.schemas.query) : undefined;
  for (const name of (querySchema?.required ?? []) as string[]) {
    const sub = querySchema!.properties![name]!;
    if (query[name] === undefined && sub.default === undefined) query[name] = String(validValue(sub));
  }
  let body = request.body;
  if (route.operationId === 'createPermission') body = { ...(body as object), key: `${MARKER}.probe`, name: MARKER };
  return { route, params, query, body };
}

const credentialOf = (route: Route): Record<string, string> =>
  route.permission?.startsWith('companies.')
    ? { Authorization: `Bearer ${devKeys().operatorToken}` }
    : { 'X-API-Key': world.company.keys.admin };

function samplesOf(route: Route): Sample[] {
  const runs = route.permission?.startsWith('companies.') ? OPERATOR_RUNS : RUNS;
  const cases = fc.sample(casesOf(baseOf(route)), { seed: seedOf(route.operationId), numRuns: runs });
  return cases.map((fuzz) => {
    const sent = toSent(route.path, route.method, fuzz, credentialOf(route));
    // A by-code operation counts failed lookups per client (docs/access.md, “Codes”): each case
    // comes from its own address, so the fuzz's malformed codes spend no budget of other files.
    if (route.byCode) sent.from = newClientAddress();
    return { route, fuzz, sent, expected: expectationOf(route, sent) };
  });
}

/** Why a sample's answer is wrong, or undefined. */
function fault(s: Sample): string | undefined {
  const r = s.received!;
  if (r.status >= 500) return `answered ${r.status}`;
  if (r.problems.length) return `the answer does not match the description: ${r.problems.join('; ')}`;
  if (s.expected.kind === 'reject') {
    const code = (r.body as { error?: { code?: string } } | undefined)?.error?.code;
    if (r.status !== s.expected.status || code !== s.expected.code)
      return `answered ${r.status} ${code ?? ''}, expected ${s.expected.status} ${s.expected.code} (${s.expected.why})`;
  }
  return undefined;
}

const describeSample = (s: Sample, baseUrl: string) =>
  [
    `${s.route.operationId} [${s.fuzz.family} ${s.fuzz.target}: ${s.fuzz.note}] → ${s.received?.status} ${JSON.stringify(s.received?.body).slice(0, 300)}`,
    `  expected: ${s.expected.kind === 'reject' ? `${s.expected.status} ${s.expected.code}` : 'not 5xx'} (${s.expected.why.slice(0, 160)})`,
    `  request: ${curlOf(baseUrl, s.sent).slice(0, 1500)}`,
    `  replay: ${replay(s.route.operationId)}`,
  ].join('\n');

describe('fuzz: every route from its schemas', () => {
  it(
    'answers no 5xx, refuses every invalid request in the envelope, and writes nothing on a refusal',
    async () => {
      const baseUrl = devKeys().baseUrl;
      const chosen = (routes as readonly Route[]).filter((r) => !ONLY || ONLY.has(r.operationId));
      const samples = chosen.flatMap(samplesOf);
      const mine = belongsTo(world.company.companyId, MARKER);
      const faults: string[] = [];
      const stateChanges: string[] = [];
      const sendAll = (batch: Sample[]) =>
        bounded(
          CONCURRENCY,
          batch.map((s) => async () => {
            s.received = await send(baseUrl, s.sent);
            const f = fault(s);
            if (f) faults.push(`${f}\n${describeSample(s, baseUrl)}`);
          }),
        );

      // The state check can fail: one accepted write shows, its outbox item included.
      const control = await snapshot(mine);
      const written = await send(
        baseUrl,
        toSent(
          '/api/v1/coursings',
          'POST',
          {
            family: 'control',
            target: '/',
            note: 'a valid write',
            params: {},
            query: [],
            body: { json: { locationId: world.ids.location, title: 'Fuzz control', order: 1 } },
          },
          { 'X-API-Key': world.company.keys.admin },
        ),
      );
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      const seen = diff(control, await snapshot(mine));
      expect(
        seen.some((line) => line.startsWith('added') && line.includes('Fuzz control') && line.includes('COURSING')),
        seen.join('\n'),
      ).toBe(true);
      expect(
        seen.some((line) => line.startsWith('added') && line.includes('#EVENTS')),
        seen.join('\n'),
      ).toBe(true);

      // Refusals first, area by area, each area between two snapshots of the company's items.
      const refusals = samples.filter((s) => s.expected.kind === 'reject');
      const areas = [...new Set(refusals.map((s) => s.route.area))];
      const ms = { refusals: 0, snapshots: 0, valid: 0 };
      const timed = async <T>(part: keyof typeof ms, run: () => Promise<T>): Promise<T> => {
        const t0 = performance.now();
        try {
          return await run();
        } finally {
          ms[part] += performance.now() - t0;
        }
      };
      let before = await timed('snapshots', () => snapshot(mine));
      for (const area of areas) {
        const batch = refusals.filter((s) => s.route.area === area);
        await timed('refusals', () => sendAll(batch));
        const after = await timed('snapshots', () => snapshot(mine));
        const changed = diff(before, after);
        if (changed.length) {
          const ops = [...new Set(batch.map((s) => s.route.operationId))];
          stateChanges.push(
            `area ${area} (${batch.length} refused requests to ${ops.join(', ')}) changed ${changed.length} items:\n  ${changed.slice(0, 10).join('\n  ')}\n  replay: ${replay(ops.join(','))}`,
          );
        }
        before = after;
      }

      // Then the requests the schemas accept, route by route (they may write, so no state check).
      const valid = samples.filter((s) => s.expected.kind === 'valid' && !platformWrites.has(s.route.operationId));
      for (const route of chosen) await timed('valid', () => sendAll(valid.filter((s) => s.route === route)));

      const sentSamples = samples.filter((s) => s.received);
      const perRoute: Record<string, RouteCount> = {};
      for (const s of sentSamples) {
        const c = (perRoute[s.route.operationId] ??= { requests: 0, refused: 0, valid: 0, statuses: {}, fiveXX: 0 });
        c.requests++;
        if (s.expected.kind === 'reject') c.refused++;
        else c.valid++;
        c.statuses[s.received!.status] = (c.statuses[s.received!.status] ?? 0) + 1;
        if (s.received!.status >= 500) c.fiveXX++;
      }
      const families: Record<string, number> = {};
      for (const s of sentSamples) families[s.fuzz.family] = (families[s.fuzz.family] ?? 0) + 1;
      const record = {
        seed: SEED,
        runsPerRoute: RUNS,
        routes: Object.keys(perRoute).length,
        requests: sentSamples.length,
        refused: sentSamples.filter((s) => s.expected.kind === 'reject').length,
        valid: sentSamples.filter((s) => s.expected.kind === 'valid').length,
        fiveXX: sentSamples.filter((s) => s.received!.status >= 500).length,
        faults: faults.length,
        stateChanges: stateChanges.length,
        worldMissing,
        families,
        perRoute,
        faultList: faults.slice(0, 500),
        stateChangeList: stateChanges,
      };
      const dir = new URL('../../.local/', import.meta.url).pathname;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}fuzz.json`, `${JSON.stringify(record, null, 2)}\n`);
      console.info(
        `fuzz: ${record.requests} requests to ${record.routes} routes (${record.refused} refused, ${record.valid} valid), ${record.fiveXX} × 5xx, ${faults.length} faults, ${stateChanges.length} state changes on refusals; seed ${SEED}; ms ${JSON.stringify(Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)])))}`,
      );

      expect(
        chosen.every((r) => perRoute[r.operationId]),
        'every chosen route was fuzzed',
      ).toBe(true);
      expect(faults, `${faults.length} wrong answers (seed ${SEED}):\n${faults.slice(0, 25).join('\n\n')}`).toEqual([]);
      expect(stateChanges, `refused requests wrote (seed ${SEED}):\n${stateChanges.join('\n\n')}`).toEqual([]);
    },
    Math.max(600_000, RUNS * 15_000),
  ); // a net for a stuck run, not a budget: `npm run fuzz` sends 200 cases per route
});
