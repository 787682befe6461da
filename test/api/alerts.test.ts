/**
 * Alerts over HTTP (docs/alerts.md, “Transitions”; docs/api.md; docs/conventions.md, “Permissions”): the list with every filter, its
 * bounds and paging, acknowledge and resolve (who and when, the transitions), permissions, a
 * location-limited key, the tenant wall, and no events. The file acts as a company of its own;
 * its alerts are raised straight into the stage's table, as the service raises them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { stageAlert, userToken } from '../support/stage-data';
import { admin, expectRefused, keyWith, newLocation, theirAdmin, unknownUuid, useOwnCompany } from './setup-helpers';
import type { AlertInput } from '../../shared/domain/alerts';
import { company } from '../support/http';
import type { Schemas } from '../support/client';

const own = useOwnCompany('Alerts test company');

let here: number;
let there: number;
beforeAll(async () => {
  here = (await newLocation('Alerts bistro')).id;
  there = (await newLocation('Alerts annex')).id;
});

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const raise = (input: Partial<AlertInput>, minutesAgo = 0) =>
  stageAlert(
    own().companyId,
    { locationId: here, alertType: 'print_job.failed', severity: 'error', title: 'Printer jammed', ...input },
    ago(minutesAgo),
  );

const list = async (query: string, key = admin()) => {
  const out = await call('GET', `/api/v1/alerts?${query}`, { key });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body as { data: { alerts: Schemas['Alert'][] }; meta: { pagination: Schemas['Pagination'] } };
};
const ids = (page: { data: { alerts: Schemas['Alert'][] } }) => page.data.alerts.map((a) => a.id);
const act = (id: string, op: 'acknowledge' | 'resolve', auth: { key?: string; token?: string } = { key: admin() }) =>
  call('POST', `/api/v1/alerts/${id}/${op}`, auth);

describe('alerts: listing', () => {
  it('answers data.alerts, active first then acknowledged then resolved, each newest first, with every filter a key condition or a filter', async () => {
    const place = (await newLocation('Alerts list bistro')).id;
    const old = await raise({ locationId: place, severity: 'warning', alertType: 'webhook.delivery.dead' }, 30);
    const mid = await raise({ locationId: place, severity: 'error' }, 20);
    const recent = await raise({ locationId: place, severity: 'critical' }, 10);
    const wide = await raise({ locationId: null, severity: 'info', alertType: 'webhook.delivery.dead' }, 5);
    expect((await act(mid.id, 'acknowledge')).status).toBe(200);
    expect((await act(old.id, 'resolve')).status).toBe(200);

    const atPlace = await list(`locationId=${place}`);
    expect(ids(atPlace)).toEqual([recent.id, mid.id, old.id]);
    expect(atPlace.data.alerts[0]).toEqual({
      id: recent.id,
      locationId: place,
      alertType: 'print_job.failed',
      severity: 'critical',
      title: 'Printer jammed',
      message: null,
      details: null,
      stackTrace: null,
      context: null,
      latestStatus: 'active',
      resolvedAt: null,
      resolvedBy: null,
      acknowledgedAt: null,
      acknowledgedBy: null,
      version: 1,
      createdAt: recent.createdAt,
      updatedAt: recent.createdAt,
    });
    expect(atPlace.meta.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, nextCursor: null });

    // Status: a key condition, counted (per location, and company-wide).
    expect(ids(await list(`locationId=${place}&status=active`))).toEqual([recent.id]);
    expect(ids(await list(`locationId=${place}&status=acknowledged`))).toEqual([mid.id]);
    const resolved = await list(`locationId=${place}&status=resolved`);
    expect(ids(resolved)).toEqual([old.id]);
    expect(resolved.meta.pagination.total).toBe(1);
    // Severity and type: filters of the Query.
    expect(ids(await list(`locationId=${place}&severity=critical`))).toEqual([recent.id]);
    expect(ids(await list(`locationId=${place}&alertType=webhook.delivery.dead`))).toEqual([old.id]);
    expect(
      ids(await list(`locationId=${place}&severity=error&alertType=print_job.failed&status=acknowledged`)),
    ).toEqual([mid.id]);
    expect(ids(await list(`locationId=${place}&severity=info`))).toEqual([]);

    // Company-wide: every location's and the company's own alerts.
    const everything = await list('limit=100');
    expect(ids(everything)).toEqual(expect.arrayContaining([recent.id, mid.id, old.id, wide.id]));
    expect(everything.meta.pagination.total).toBe(everything.data.alerts.length);
    const activeAll = await list('status=active&limit=100');
    expect(ids(activeAll)).toContain(wide.id);
    expect(ids(activeAll)).not.toContain(mid.id);
    expect(activeAll.data.alerts.every((a) => a.latestStatus === 'active')).toBe(true);
    expect(ids(await list('alertType=webhook.delivery.dead&limit=100'))).toEqual([wide.id, old.id]);
    // X-Location-Id stands for the query's location.
    const byHeader = await call('GET', '/api/v1/alerts', { key: admin(), headers: { 'X-Location-Id': String(place) } });
    expect(ids(byHeader.body)).toEqual([recent.id, mid.id, old.id]);
  });

  it('pages by page number and by cursor, counted and filtered alike', async () => {
    const place = (await newLocation('Alerts paging bistro')).id;
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(await raise({ locationId: place, severity: i % 2 ? 'warning' : 'error' }, 50 - i));
    const newestFirst = made.map((a) => a.id).reverse();
    const first = await list(`locationId=${place}&limit=2`);
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.meta.pagination).toMatchObject({
      page: 1,
      limit: 2,
      total: 5,
      totalPages: 3,
      nextCursor: expect.any(String),
    });
    const second = await list(`locationId=${place}&limit=2&cursor=${first.meta.pagination.nextCursor}`);
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    expect(second.meta.pagination.page).toBe(2);
    expect(ids(await list(`locationId=${place}&limit=2&page=3`))).toEqual(newestFirst.slice(4));
    // A filtered list follows its cursor to the end, each match once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        `locationId=${place}&severity=error&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...ids(page));
      cursor = page.meta.pagination.nextCursor;
    } while (cursor);
    expect(seen).toEqual([made[4]!.id, made[2]!.id, made[0]!.id]);
    // A cursor of another list is refused.
    expectRefused(
      await call('GET', `/api/v1/alerts?locationId=${here}&cursor=${first.meta.pagination.nextCursor}`, {
        key: admin(),
      }),
      400,
      'VALIDATION_FAILED',
      '/cursor',
    );
  });

  it('refuses each query value out of bounds, naming it', async () => {
    const refusals: [string, string][] = [
      ['limit=0', '/limit'],
      ['limit=101', '/limit'],
      ['page=0', '/page'],
      ['page=abc', '/page'],
      ['locationId=0', '/locationId'],
      ['locationId=x', '/locationId'],
      ['severity=fatal', '/severity'],
      ['status=open', '/status'],
      ['alertType=', '/alertType'],
      ['alertType=%20', '/alertType'],
      [`alertType=${'x'.repeat(101)}`, '/alertType'],
      ['page=11&limit=100', '/page'],
    ];
    for (const [query, path] of refusals)
      expectRefused(await call('GET', `/api/v1/alerts?${query}`, { key: admin() }), 400, 'VALIDATION_FAILED', path);
    // The edges are accepted, and the defaults are page 1, limit 20.
    expect((await list('limit=100&page=10')).meta.pagination).toMatchObject({ page: 10, limit: 100 });
    expect((await list('limit=1')).meta.pagination).toMatchObject({ page: 1, limit: 1 });
    expect((await list('')).meta.pagination).toMatchObject({ page: 1, limit: 20 });
  });
});

describe('alerts: acknowledge and resolve', () => {
  it('active → acknowledged → resolved, recording the user and the time; acknowledging again changes nothing; nothing leaves resolved', async () => {
    const since = new Date().toISOString();
    const alert = await raise({}, 1);
    const token = await userToken(own().companyId, ['alerts.read', 'alerts.manage'], '4242');
    const before = Date.now();
    const acked = await act(alert.id, 'acknowledge', { token });
    expect(acked.status, JSON.stringify(acked.body)).toBe(200);
    expect(acked.body.data).toEqual({
      ...alert,
      latestStatus: 'acknowledged',
      acknowledgedBy: 4242,
      acknowledgedAt: expect.stringMatching(/Z$/),
      version: 2,
      updatedAt: acked.body.data.acknowledgedAt,
    });
    expect(Date.parse(acked.body.data.acknowledgedAt)).toBeGreaterThanOrEqual(before - 1000);

    // Idempotent: the same answer, nothing written (the version stays).
    const again = await act(alert.id, 'acknowledge');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(acked.body.data);

    // An API key is no user: resolvedBy is null.
    const resolved = await act(alert.id, 'resolve');
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toEqual({
      ...acked.body.data,
      latestStatus: 'resolved',
      resolvedBy: null,
      resolvedAt: expect.stringMatching(/Z$/),
      version: 3,
      updatedAt: resolved.body.data.resolvedAt,
    });
    expect((await list(`locationId=${here}&status=resolved&limit=100`)).data.alerts).toContainEqual(resolved.body.data);

    expectRefused(await act(alert.id, 'acknowledge'), 409, 'CONFLICT');
    expectRefused(await act(alert.id, 'resolve'), 409, 'CONFLICT');
    expect(ids(await list(`locationId=${here}&status=resolved&limit=100`))).toContain(alert.id);

    // Alerts emit no events (the event catalog has none).
    const events = await call('GET', `/api/v1/events?since=${since}&limit=100`, { key: admin() });
    expect(events.body.data.filter((e: { resourceId: string }) => e.resourceId === alert.id)).toEqual([]);
  });

  it('active → resolved directly, by a user; counts move with each transition', async () => {
    const place = (await newLocation('Alerts counting bistro')).id;
    const a = await raise({ locationId: place });
    const b = await raise({ locationId: place });
    const count = async (status: string) => (await list(`locationId=${place}&status=${status}`)).meta.pagination.total;
    expect([await count('active'), await count('acknowledged'), await count('resolved')]).toEqual([2, 0, 0]);
    const resolved = await act(a.id, 'resolve', { token: await userToken(own().companyId, ['alerts.manage'], '77') });
    expect(resolved.body.data).toMatchObject({
      latestStatus: 'resolved',
      resolvedBy: 77,
      acknowledgedAt: null,
      acknowledgedBy: null,
    });
    await act(b.id, 'acknowledge');
    expect([await count('active'), await count('acknowledged'), await count('resolved')]).toEqual([0, 1, 1]);
    expect((await list(`locationId=${place}`)).meta.pagination.total).toBe(2);
  });

  it('answers 404 for an unknown alert and 400 for a malformed id', async () => {
    expectRefused(await act(unknownUuid, 'acknowledge'), 404, 'NOT_FOUND');
    expectRefused(await act(unknownUuid, 'resolve'), 404, 'NOT_FOUND');
    expectRefused(await act('not-a-uuid', 'resolve'), 400, 'VALIDATION_FAILED', '/id');
  });
});

describe('alerts: permissions, locations and the tenant wall', () => {
  it('listing needs alerts.read, acknowledging and resolving alerts.manage (403, nothing changed)', async () => {
    const alert = await raise({});
    const reader = await keyWith(['alerts.read']);
    expect(ids(await list(`locationId=${here}&limit=100`, reader))).toContain(alert.id);
    expectRefused(await act(alert.id, 'acknowledge', { key: reader }), 403, 'FORBIDDEN');
    expectRefused(await act(alert.id, 'resolve', { key: reader }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', '/api/v1/alerts', { key: await keyWith(['alerts.manage']) }), 403, 'FORBIDDEN');
    expect(
      (await list(`locationId=${here}&status=active&limit=100`)).data.alerts.find((a) => a.id === alert.id),
    ).toMatchObject({ latestStatus: 'active', version: 1 });
    expect((await act(alert.id, 'acknowledge', { key: await keyWith(['alerts.manage']) })).status).toBe(200);
  });

  it('a key limited to a location sees and acts on its alerts only, never the company-wide ones', async () => {
    const mine = await raise({ locationId: here });
    const theirs = await raise({ locationId: there });
    const wide = await raise({ locationId: null });
    const key = await keyWith(['alerts.read', 'alerts.manage'], [here]);
    const listed = await list('limit=100', key);
    expect(ids(listed)).toContain(mine.id);
    expect(new Set(listed.data.alerts.map((a) => a.locationId))).toEqual(new Set([here]));
    expectRefused(await call('GET', `/api/v1/alerts?locationId=${there}`, { key }), 403, 'FORBIDDEN');
    expectRefused(await act(theirs.id, 'acknowledge', { key }), 403, 'FORBIDDEN');
    expectRefused(await act(wide.id, 'resolve', { key }), 403, 'FORBIDDEN');
    expect((await act(mine.id, 'acknowledge', { key })).status).toBe(200);
    // A key limited to two locations must name one.
    expectRefused(
      await call('GET', '/api/v1/alerts', { key: await keyWith(['alerts.read'], [here, there]) }),
      403,
      'FORBIDDEN',
    );
  });

  it("hides another company's alerts (404) and lists none of them", async () => {
    const theirs = await stageAlert(2, {
      locationId: company(2).locations[0]!.locationId,
      alertType: 'print_job.failed',
      severity: 'error',
      title: 'Theirs',
    });
    expectRefused(await act(theirs.id, 'acknowledge'), 404, 'NOT_FOUND');
    expectRefused(await act(theirs.id, 'resolve'), 404, 'NOT_FOUND');
    expect(ids(await list('limit=100'))).not.toContain(theirs.id);
    const seen = await call('GET', `/api/v1/alerts?locationId=${company(2).locations[0]!.locationId}&limit=100`, {
      key: theirAdmin(),
    });
    expect(ids(seen.body)).toContain(theirs.id);
    expect(seen.body.data.alerts.find((a: { id: string }) => a.id === theirs.id).latestStatus).toBe('active');
  });
});
