/**
 * Tenancy and permission sweeps over every route of the table (docs/testing.md,
 * "Sweeps over the route table"). Nothing here lists routes: each operation of `routes` gets its
 * request from a world of company A (test/support/world.ts), and
 * - tenancy: company B's admin key on that request (A's ids, A's location) answers 404 NOT_FOUND and
 *   shows nothing of A it was not sent;
 * - permission: a credential of A holding every permission but the route's answers 403 FORBIDDEN;
 * - location: a key of A holding every permission, limited to A's other location, answers 403 on
 *   every request that names A's main location or one of its resources;
 * - none of them writes anything (A's and B's items, the event log included, the same after as before);
 * - sanity, last: A's admin key on the same requests answers none of 400, 401, 403, 404 (nor 5xx),
 *   so the 404s and 403s above come from the wall and the checks, not from a malformed request.
 * A route the world cannot build a request for fails the run, naming it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishablePermissions, tenantPermissions } from '../../shared/auth/catalog';
import { routes, type Route } from '../../shared/routes';
import type { Answer } from '../support/http';
import { sweepsFile } from '../support/summary-reporter';
import { excluded } from '../support/sweep-exclusions';
import { freshCompany, stageItems, testKey, type OwnCompany } from '../support/stage-data';
import {
  buildWorld,
  companyWide,
  creationOrder,
  requestFor,
  send,
  startReceiver,
  type Resource,
  type World,
  type WorldRequest,
} from '../support/world';

const all = routes as readonly Route[];
const swept = all.filter((r) => r.permission !== null && !(r.operationId in excluded));

/** At most `n` calls of `fn` in flight. */
async function inFlight<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** A's and B's items (their partitions, the event log and every item naming them), in a stable form to compare. */
async function itemsOf(companyIds: number[]): Promise<Map<string, string>> {
  const theirs = (item: Record<string, unknown>) =>
    companyIds.some((c) => {
      const pk = String(item.pk);
      return (
        pk === `C#${c}` ||
        pk.startsWith(`C#${c}#`) ||
        item.companyId === c ||
        (pk.startsWith('SWEEP#') && String(item.sk).includes(`#${c}#`))
      );
    });
  return new Map(
    (await stageItems())
      .filter(theirs)
      .map((i) => [`${String(i.pk)} | ${String(i.sk)}`, JSON.stringify(i, Object.keys(i).sort())]),
  );
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of after)
    if (!before.has(k)) out.push(`added ${k}: ${v.slice(0, 300)}`);
    else if (before.get(k) !== v) out.push(`changed ${k}: ${before.get(k)!.slice(0, 300)} → ${v.slice(0, 300)}`);
  for (const k of before.keys()) if (!after.has(k)) out.push(`removed ${k}`);
  return out;
}

/** Every field of an answer's body with a primitive value, as [key, value] (an array's items under the array's key). */
function fields(body: unknown, key = '', out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(body)) body.forEach((v) => fields(v, key, out));
  else if (body && typeof body === 'object') Object.entries(body).forEach(([k, v]) => fields(v, k, out));
  else out.push([key, body]);
  return out;
}

/**
 * The world's ids an answer shows that its request did not send: a UUID anywhere in it; a numeric
 * id (locations, guests, items, roles, tags: counters other companies share, so the same number is
 * often some other resource of theirs) only as the value of a field naming its kind.
 */
function shownOfWorld(r: WorldRequest, a: Answer): string[] {
  const sent = `${r.url} ${JSON.stringify(r.headers)} ${JSON.stringify(r.body ?? null)}`;
  const numericFields: Partial<Record<Resource, string[]>> = {
    location: ['locationId', 'locationIds'],
    otherLocation: ['locationId', 'locationIds'],
    guest: ['userId', 'guestId', 'primaryUserId'],
    item: ['itemId'],
    otherItem: ['itemId'],
    role: ['roleId'],
    customTag: ['customTagId'],
  };
  const shown = fields(a.body);
  return Object.entries(world.ids)
    .filter(([, id]) => !sent.includes(String(id)))
    .filter(([resource, id]) =>
      typeof id === 'string'
        ? shown.some(([, v]) => typeof v === 'string' && v.includes(id))
        : shown.some(([k, v]) => v === id && (numericFields[resource as Resource] ?? []).includes(k)),
    )
    .map(([resource, id]) => `${resource} ${id}`);
}

/**
 * Operations whose contract answers an unknown id with something other than 404, so another
 * company's id must get exactly that answer (nothing tells it from an unknown one).
 */
const answersForAnyId: Record<string, (a: Answer) => boolean> = {
  // docs/purchases.md, docs/conventions.md: `data: null` (200) when there is no review, for any id
  getReview: (a) => a.status === 200 && a.body?.data === null,
};

const line = (r: WorldRequest, a: Answer) =>
  `${r.operationId} ${r.method} ${r.url} → ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`;

/** The refusal as the contract words it: status, code, the envelope. */
const refusedAs = (a: Answer, status: number, code: string) =>
  a.status === status &&
  a.body?.status === 'error' &&
  a.body?.error?.code === code &&
  typeof a.body?.meta?.requestId === 'string';

let world: World;
let them: OwnCompany;
let requests: Map<string, WorldRequest>;
const without = new Map<string, string>();
let limitedKey: string;
let publishableKey: string;
let before: Map<string, string>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const counts = { tenancy: 0, permission: 0, publishable: 0, location: 0, sane: 0 };
/** Swept operations a sweep left out because their request names nothing it applies to. */
const notSwept = { tenancy: [] as string[], location: [] as string[] };
const found = {
  leaks: [] as string[],
  tenancy: [] as string[],
  permission: [] as string[],
  publishable: [] as string[],
  location: [] as string[],
  writes: [] as string[],
  sanity: [] as string[],
};

beforeAll(async () => {
  receiver = await startReceiver();
  const built = Date.now();
  [world, them] = await Promise.all([buildWorld('Sweeps A', receiver.url, all), freshCompany('Sweeps B')]);
  console.log(`sweeps: the world built in ${Date.now() - built} ms`);
  requests = new Map(swept.map((r) => [r.operationId, requestFor(r, world)]));
  // Every permission but one: an API key of A per permission (the test stage hashes keys at bcrypt
  // cost 4, vitest.config.ts, so 60 keys take well under a second to make and to verify).
  const permissions = [...new Set(swept.map((r) => r.permission!))];
  await Promise.all(
    permissions.map(async (p) =>
      without.set(
        p,
        await testKey(world.company.companyId, {
          name: `all but ${p}`,
          permissions: tenantPermissions.filter((q) => q !== p),
        }),
      ),
    ),
  );
  publishableKey = await testKey(world.company.companyId, {
    name: 'publishable',
    tier: 'standard',
    permissions: [...publishablePermissions],
    locationIds: [world.ids.location],
    allowedOrigins: ['https://www.sweeps.example'],
  });
  limitedKey = await testKey(world.company.companyId, {
    name: 'all, other location',
    permissions: [...tenantPermissions],
    locationIds: [world.ids.otherLocation],
  });
  before = await itemsOf([world.company.companyId, them.companyId]);
}, 120_000);

afterAll(async () => {
  const total = new Set([...requests.values()].map((r) => r.operationId)).size;
  const summary = {
    routes: all.length,
    swept: total,
    tenancy: counts.tenancy,
    permission: counts.permission,
    publishable: counts.publishable,
    location: counts.location,
    sanity: counts.sane,
    public: all.filter((r) => r.permission === null).length,
    excluded: Object.keys(excluded),
    /** Operations whose request names no id or location of the world (tenancy), or nothing living at a location (location). */
    notSwept,
    leaks: found.leaks.length,
    missing404s: found.tenancy.length,
    missing403s: found.permission.length + found.location.length,
    writes: found.writes.length,
    insane: found.sanity.length,
    found,
  };
  mkdirSync(dirname(sweepsFile), { recursive: true });
  writeFileSync(sweepsFile, JSON.stringify(summary, null, 2));
  await receiver.close();
});

describe('the sweeps read the route table', () => {
  it('excludes only operations the table has', () => {
    const ids = new Set(all.map((r) => r.operationId));
    expect(Object.keys(excluded).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('builds a request of the world for every route it sweeps', () => {
    const unbuilt = [...requests.values()]
      .filter((r) => r.missing.length)
      .map((r) => `${r.operationId}: no ${r.missing.join(', ')}`);
    expect(unbuilt).toEqual([]);
    expect(requests.size).toBe(swept.length);
  });
});

describe('sweeps', () => {
  it("company B's admin key on A's ids and locations: 404, nothing of A shown", async () => {
    const named = [...requests.values()].filter((r) => r.names.length > 0);
    notSwept.tenancy = [...requests.values()].filter((r) => !named.includes(r)).map((r) => r.operationId);
    await inFlight(named, 8, async (r) => {
      const a = await send(r, { key: them.keys.admin });
      counts.tenancy++;
      const expected = answersForAnyId[r.operationId];
      if (expected ? !expected(a) : !refusedAs(a, 404, 'NOT_FOUND')) found.tenancy.push(line(r, a));
      const leaked = shownOfWorld(r, a);
      if (leaked.length) found.leaks.push(`${r.operationId} shows ${leaked.join(', ')}`);
    });
    expect({ leaks: found.leaks, missing404s: found.tenancy }).toEqual({ leaks: [], missing404s: [] });
  });

  it("a key of A holding every permission but the route's: 403", async () => {
    await inFlight([...requests.values()], 8, async (r) => {
      const a = await send(r, { key: without.get(all.find((x) => x.operationId === r.operationId)!.permission!)! });
      counts.permission++;
      if (!refusedAs(a, 403, 'FORBIDDEN')) found.permission.push(line(r, a));
    });
    expect(found.permission).toEqual([]);
  });

  it("A's publishable key, from its own page, on every operation but the online-booking ones: 403", async () => {
    const permissionOf = (r: WorldRequest) => all.find((x) => x.operationId === r.operationId)!.permission!;
    const others = [...requests.values()].filter((r) => !publishablePermissions.includes(permissionOf(r)));
    await inFlight(others, 8, async (r) => {
      const fromItsPage = { ...r, headers: { ...r.headers, Origin: 'https://www.sweeps.example' } };
      const a = await send(fromItsPage, { key: publishableKey });
      counts.publishable++;
      if (!refusedAs(a, 403, 'FORBIDDEN')) found.publishable.push(line(r, a));
    });
    expect(found.publishable).toEqual([]);
  });

  it("a key of A limited to its other location, on A's main location and what lives there: 403", async () => {
    const located = [...requests.values()].filter((r) => r.names.some((n) => n === 'location' || !companyWide.has(n)));
    notSwept.location = [...requests.values()].filter((r) => !located.includes(r)).map((r) => r.operationId);
    await inFlight(located, 8, async (r) => {
      const a = await send(r, { key: limitedKey });
      counts.location++;
      if (!refusedAs(a, 403, 'FORBIDDEN')) found.location.push(line(r, a));
    });
    expect(found.location).toEqual([]);
  });

  it('wrote nothing of A or B in any of them', async () => {
    found.writes.push(...differences(before, await itemsOf([world.company.companyId, them.companyId])));
    expect(found.writes).toEqual([]);
  });

  it("sanity, last: A's admin key on the same requests gets through (none of 400, 401, 403, 404, 5xx)", async () => {
    // Reads first, all at once; then the writes, those acting on later-made resources first (a
    // member before its booking, a rule before its schedule), deletions last among equals: no
    // request finds its resource deleted or replaced by an earlier one. Conflicts (409) and
    // business rules (422) of the world's states are fine.
    const sane = (batch: WorldRequest[]) =>
      inFlight(batch, 8, async (r) => {
        const a = await send(r, { key: world.company.keys.admin });
        counts.sane++;
        if ([400, 401, 403, 404].includes(a.status) || a.status >= 500) found.sanity.push(line(r, a));
      });
    const writes = [...requests.values()].filter((r) => r.method !== 'GET');
    await sane([...requests.values()].filter((r) => r.method === 'GET'));
    const rank = (r: WorldRequest) => Math.max(0, ...r.names.map((n) => creationOrder.indexOf(n)));
    for (const at of [...new Set(writes.map(rank))].sort((x, y) => y - x)) {
      for (const deleting of [false, true])
        await sane(writes.filter((r) => rank(r) === at && (r.method === 'DELETE') === deleting));
    }
    expect(found.sanity).toEqual([]);
  });
});
