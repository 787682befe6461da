/**
 * The extended waiting time over HTTP (docs/capacity.md): create or update, get (by query or
 * X-Location-Id), delete; bounds, permissions, the tenant wall and events. That one which has
 * ended reads as none is proved with a clock the test sets, in test/integration/capacity.test.ts.
 */
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { eventsOf } from './bookings-helpers';
import {
  admin,
  expectRefused,
  keyWith,
  newLocation,
  seededLocation,
  theirAdmin,
  theirLocation,
  useOwnCompany,
} from './setup-helpers';

useOwnCompany('Waiting time test company');

const path = '/api/v1/extended-waiting-time';
const get = (locationId: number, key = admin()) => call('GET', `${path}?locationId=${locationId}`, { key });
const put = (body: Record<string, unknown>, key = admin()) => call('POST', path, { key, body });
const remove = (locationId: number, key = admin()) => call('DELETE', `${path}?locationId=${locationId}`, { key });
const hoursAhead = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

let locationId: number;
beforeAll(async () => {
  locationId = (await newLocation('Waiting bistro')).id;
});

describe('extended waiting time: the happy path', () => {
  it('starts one, reads it by query and by X-Location-Id, extends it, ends it, with an event for each change', async () => {
    const place = (await newLocation('Rush bistro')).id;
    const since = new Date().toISOString();
    expect((await get(place)).body).toMatchObject({ status: 'success', data: null });

    const endsAt = hoursAhead(1);
    const created = await put({ locationId: place, endsAt, delayInMinutes: 25 });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const running = created.body.data;
    expect(running).toEqual({
      locationId: place,
      endsAt,
      delayInMinutes: 25,
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: running.createdAt,
    });
    expect((await get(place)).body.data).toEqual(running);
    expect((await call('GET', path, { key: admin(), headers: { 'X-Location-Id': String(place) } })).body.data).toEqual(
      running,
    );

    // A zone offset is read as the instant it names; the delay stays when left out.
    const later = new Date(Math.ceil(Date.parse(endsAt) / 1000) * 1000 + 30 * 60_000);
    const inKolkata = DateTime.fromJSDate(later, { zone: 'Asia/Kolkata' }).toISO({ suppressMilliseconds: true })!;
    expect(inKolkata).toMatch(/\+05:30$/);
    const extended = await put({ locationId: place, endsAt: inKolkata });
    expect(extended.body.data).toEqual({
      ...running,
      endsAt: later.toISOString(),
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await get(place)).body.data).toEqual(extended.body.data);

    const ended = await remove(place);
    expect(ended.status).toBe(200);
    expect(ended.body.data).toEqual(extended.body.data);
    expect((await get(place)).body.data).toBeNull();
    // Nothing runs now: deleting again answers null and records nothing.
    expect((await remove(place)).body).toMatchObject({ status: 'success', data: null });

    const id = String(place);
    expect(await eventsOf('extended-waiting-time.created', id, since)).toEqual([
      expect.objectContaining({ resource: 'extended-waiting-time', resourceId: id, data: running }),
    ]);
    expect((await eventsOf('extended-waiting-time.updated', id, since)).map((e) => e.changes)).toEqual([
      { endsAt: later.toISOString() },
    ]);
    expect((await eventsOf('extended-waiting-time.deleted', id, since)).map((e) => e.data)).toEqual([
      extended.body.data,
    ]);
  });

  it('changes nothing for the same values, clears the delay with null', async () => {
    const place = (await newLocation('Steady bistro')).id;
    const endsAt = hoursAhead(2);
    const first = (await put({ locationId: place, endsAt, delayInMinutes: 10 })).body.data;
    const since = new Date().toISOString();
    expect((await put({ locationId: place, endsAt, delayInMinutes: 10 })).body.data).toEqual(first);
    expect(await eventsOf('extended-waiting-time.updated', String(place), since)).toEqual([]);
    expect((await put({ locationId: place, endsAt, delayInMinutes: null })).body.data).toMatchObject({
      delayInMinutes: null,
      version: 2,
    });
  });

  it('defaults to the one location a limited key may act on', async () => {
    const place = (await newLocation('Solo bistro')).id;
    await put({ locationId: place, endsAt: hoursAhead(1) });
    const key = await keyWith(['locations.read'], [place]);
    expect((await call('GET', path, { key })).body.data).toMatchObject({ locationId: place });
  });
});

describe('extended waiting time: bounds', () => {
  const cases: [string, Record<string, unknown>, number, string][] = [
    ['no locationId', { locationId: undefined }, 400, '/locationId'],
    ['locationId 0', { locationId: 0 }, 400, '/locationId'],
    ['locationId as a string', { locationId: '1' }, 400, '/locationId'],
    ['no endsAt', { endsAt: undefined }, 400, '/endsAt'],
    ['endsAt not a date-time', { endsAt: 'in an hour' }, 400, '/endsAt'],
    ['endsAt without a zone offset', { endsAt: '2030-05-03T19:00:00' }, 400, '/endsAt'],
    ['endsAt in the past', { endsAt: new Date(Date.now() - 60_000).toISOString() }, 422, '/endsAt'],
    ['endsAt over 7 days ahead', { endsAt: hoursAhead(7 * 24 + 1) }, 422, '/endsAt'],
    ['delayInMinutes 0', { delayInMinutes: 0 }, 400, '/delayInMinutes'],
    ['delayInMinutes 481', { delayInMinutes: 481 }, 400, '/delayInMinutes'],
    ['a fractional delay', { delayInMinutes: 7.5 }, 400, '/delayInMinutes'],
    ['delayInMinutes as a string', { delayInMinutes: '15' }, 400, '/delayInMinutes'],
    ['unknown field', { reason: 'busy' }, 400, '/reason'],
  ];

  it.each(cases)('refuses %s, writing nothing', async (_, change, status, field) => {
    const place = (await newLocation('Bounds bistro')).id;
    const body = Object.fromEntries(
      Object.entries({ locationId: place, endsAt: hoursAhead(1), ...change }).filter(([, v]) => v !== undefined),
    );
    expectRefused(await put(body), status, status === 400 ? 'VALIDATION_FAILED' : 'UNPROCESSABLE', field);
    expect((await get(place)).body.data).toBeNull();
  });

  it('accepts the edges: a delay of 1 and 480 minutes, an end 7 days ahead', async () => {
    expect((await put({ locationId, endsAt: hoursAhead(1), delayInMinutes: 1 })).body.data.delayInMinutes).toBe(1);
    expect(
      (await put({ locationId, endsAt: hoursAhead(7 * 24 - 0.01), delayInMinutes: 480 })).body.data.delayInMinutes,
    ).toBe(480);
  });

  it('needs a location on GET (query or header) and on DELETE (query)', async () => {
    expectRefused(await call('GET', path, { key: admin() }), 400, 'VALIDATION_FAILED', '/locationId');
    expectRefused(
      await call('GET', path, { key: admin(), headers: { 'X-Location-Id': 'main' } }),
      400,
      'VALIDATION_FAILED',
      '/headers/X-Location-Id',
    );
    expectRefused(
      await call('GET', `${path}?locationId=abc`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/locationId',
    );
    expectRefused(await call('DELETE', path, { key: admin() }), 400, 'VALIDATION_FAILED', '/locationId');
    expectRefused(
      await call('DELETE', path, { key: admin(), headers: { 'X-Location-Id': String(locationId) } }),
      400,
      'VALIDATION_FAILED',
      '/locationId',
    );
  });
});

describe('extended waiting time: permissions and the tenant wall', () => {
  it('reads with locations.read, writes with locations.manage (403 otherwise, changing nothing)', async () => {
    const place = (await newLocation('Guarded bistro')).id;
    const running = (await put({ locationId: place, endsAt: hoursAhead(1) })).body.data;
    const reader = await keyWith(['locations.read']);
    const none = await keyWith(['capacity_settings.read', 'capacity_settings.manage']);
    expect((await get(place, reader)).body.data).toEqual(running);
    expectRefused(await get(place, none), 403, 'FORBIDDEN');
    expectRefused(await put({ locationId: place, endsAt: hoursAhead(3) }, reader), 403, 'FORBIDDEN');
    expectRefused(await remove(place, reader), 403, 'FORBIDDEN');
    expect((await get(place)).body.data).toEqual(running);
  });

  it("hides the location from another company's key behind 404 on every operation, changing nothing", async () => {
    const place = (await newLocation('Walled bistro')).id;
    const running = (await put({ locationId: place, endsAt: hoursAhead(1), delayInMinutes: 5 })).body.data;
    expectRefused(await get(place, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(
      await call('GET', path, { key: theirAdmin(), headers: { 'X-Location-Id': String(place) } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await put({ locationId: place, endsAt: hoursAhead(2) }, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await remove(place, theirAdmin()), 404, 'NOT_FOUND');
    expect((await get(place)).body.data).toEqual(running);
    // Ours on their location, and a location nobody has.
    expectRefused(await get(theirLocation()), 404, 'NOT_FOUND');
    expectRefused(await put({ locationId: theirLocation(), endsAt: hoursAhead(1) }), 404, 'NOT_FOUND');
    expectRefused(await remove(theirLocation()), 404, 'NOT_FOUND');
    expectRefused(await put({ locationId: 999_999_999, endsAt: hoursAhead(1) }), 404, 'NOT_FOUND');
    expect((await get(theirLocation(), theirAdmin())).status).toBe(200);
  });

  it('refuses a location-limited key at other locations (403)', async () => {
    const key = await keyWith(['locations.read', 'locations.manage'], [seededLocation(0).locationId]);
    expectRefused(await get(locationId, key), 403, 'FORBIDDEN');
    expectRefused(await put({ locationId, endsAt: hoursAhead(1) }, key), 403, 'FORBIDDEN');
    expectRefused(await remove(locationId, key), 403, 'FORBIDDEN');
  });
});
