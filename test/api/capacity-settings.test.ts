/**
 * Capacity settings over HTTP (docs/capacity.md): every operation, every bound, permissions, the tenant
 * wall and events. The file acts as a company of its own, with locations of its own.
 */
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
  unknownUuid,
  useOwnCompany,
} from './setup-helpers';

useOwnCompany('Capacity settings test company');

const settingsAt = (locationId: number) => `/api/v1/locations/${locationId}/capacity-settings`;
const settingAt = (locationId: number, id: string) => `${settingsAt(locationId)}/${id}`;
const read = async (locationId: number, id: string) =>
  (await call('GET', settingAt(locationId, id), { key: admin() })).body.data;
const total = async (locationId: number) =>
  (await call('GET', `${settingsAt(locationId)}?limit=1`, { key: admin() })).body.meta.pagination.total as number;

let locationId: number;
beforeAll(async () => {
  locationId = (await newLocation('Capacity bistro')).id;
});

async function newSetting(body: Record<string, unknown> = {}, at = locationId) {
  const out = await call('POST', settingsAt(at), {
    key: admin(),
    body: { name: 'Dinner', validOnDays: [5, 6], ...body },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}

describe('capacity settings: the happy path', () => {
  it('creates, reads, lists, updates and deletes a setting, with an event for each change', async () => {
    const since = new Date().toISOString();
    const body = {
      name: 'Friday dinner',
      validOnDays: [6, 5],
      orderCapacity: 20,
      itemCapacity: 120,
      priority: 3,
      enabled: true,
      timeStart: '18:00:00',
      timeEnd: '01:30:00',
      validFrom: '2030-05-01T00:00:00+02:00',
      validTo: '2030-09-01T00:00:00Z',
    };
    const created = await call('POST', settingsAt(locationId), { key: admin(), body });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const setting = created.body.data;
    // Days sorted, instants in UTC.
    expect(setting).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      locationId,
      ...body,
      validOnDays: [5, 6],
      validFrom: '2030-04-30T22:00:00.000Z',
      validTo: '2030-09-01T00:00:00.000Z',
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: setting.createdAt,
    });
    expect(await read(locationId, setting.id)).toEqual(setting);
    expect((await call('GET', settingsAt(locationId), { key: admin() })).body.data).toContainEqual(setting);

    const updated = await call('PUT', settingAt(locationId, setting.id), {
      key: admin(),
      body: { orderCapacity: null, enabled: false, validOnDays: [7] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({
      ...setting,
      orderCapacity: null,
      enabled: false,
      validOnDays: [7],
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect(await read(locationId, setting.id)).toEqual(updated.body.data);

    const deleted = await call('DELETE', settingAt(locationId, setting.id), { key: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expectRefused(await call('GET', settingAt(locationId, setting.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), { key: admin(), body: { name: 'Gone' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', settingAt(locationId, setting.id), { key: admin() }), 404, 'NOT_FOUND');

    const [createdEvent] = await eventsOf('capacity-setting.created', setting.id, since);
    expect(createdEvent).toMatchObject({
      resource: 'capacity-setting',
      resourceId: setting.id,
      data: setting,
      changes: null,
    });
    const [updatedEvent] = await eventsOf('capacity-setting.updated', setting.id, since);
    expect(updatedEvent).toMatchObject({
      data: updated.body.data,
      changes: { orderCapacity: null, enabled: false, validOnDays: [7] },
    });
    const [deletedEvent] = await eventsOf('capacity-setting.deleted', setting.id, since);
    expect(deletedEvent).toMatchObject({ data: updated.body.data });
  });

  it('fills what is not sent: no limits, priority 0, enabled, the whole day, no dates; an update that changes nothing writes nothing', async () => {
    const since = new Date().toISOString();
    const setting = await newSetting({ name: 'Plain' });
    expect(setting).toMatchObject({
      name: 'Plain',
      validOnDays: [5, 6],
      orderCapacity: null,
      itemCapacity: null,
      priority: 0,
      enabled: true,
      timeStart: null,
      timeEnd: null,
      validFrom: null,
      validTo: null,
    });
    const same = await call('PUT', settingAt(locationId, setting.id), {
      key: admin(),
      body: { name: 'Plain', validOnDays: [6, 5] },
    });
    expect(same.body.data).toEqual(setting);
    expect(await eventsOf('capacity-setting.updated', setting.id, since)).toEqual([]);
  });

  it('lists in the order the effective setting is chosen: priority, then the oldest first, paged', async () => {
    const place = (await newLocation('Capacity list bistro')).id;
    const five = await newSetting({ name: 'Five', priority: 5 }, place);
    const oneOld = await newSetting({ name: 'One (old)', priority: 1 }, place);
    const oneNew = await newSetting({ name: 'One (new)', priority: 1 }, place);
    const first = await call('GET', `${settingsAt(place)}?limit=2`, { key: admin() });
    expect(first.body.data.map((s: { id: string }) => s.id)).toEqual([oneOld.id, oneNew.id]);
    expect(first.body.meta.pagination).toMatchObject({
      page: 1,
      limit: 2,
      total: 3,
      totalPages: 2,
      nextCursor: expect.any(String),
    });
    const next = await call('GET', `${settingsAt(place)}?limit=2&cursor=${first.body.meta.pagination.nextCursor}`, {
      key: admin(),
    });
    expect(next.body.data.map((s: { id: string }) => s.id)).toEqual([five.id]);
    // Raising a priority moves it in the list.
    await call('PUT', settingAt(place, five.id), { key: admin(), body: { priority: 0 } });
    expect((await call('GET', settingsAt(place), { key: admin() })).body.data.map((s: { id: string }) => s.id)).toEqual(
      [five.id, oneOld.id, oneNew.id],
    );
    expect(
      (await call('GET', settingsAt((await newLocation('Empty bistro')).id), { key: admin() })).body,
    ).toMatchObject({ data: [], meta: { pagination: { total: 0 } } });
  });
});

describe('capacity settings: validation, one case per bound', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['empty name', { name: '' }, '/name'],
    ['a blank name', { name: '   ' }, '/name'],
    ['name over 100 characters', { name: 'x'.repeat(101) }, '/name'],
    ['no days', { validOnDays: [] }, '/validOnDays'],
    ['day 0', { validOnDays: [0] }, '/validOnDays/0'],
    ['day 8', { validOnDays: [1, 8] }, '/validOnDays/1'],
    ['a day twice', { validOnDays: [1, 1] }, '/validOnDays'],
    ['a fractional day', { validOnDays: [1.5] }, '/validOnDays/0'],
    ['days as a string', { validOnDays: '1,2' }, '/validOnDays'],
    ['orderCapacity -1', { orderCapacity: -1 }, '/orderCapacity'],
    ['orderCapacity 100001', { orderCapacity: 100_001 }, '/orderCapacity'],
    ['a fractional orderCapacity', { orderCapacity: 2.5 }, '/orderCapacity'],
    ['orderCapacity as a string', { orderCapacity: '5' }, '/orderCapacity'],
    ['itemCapacity -1', { itemCapacity: -1 }, '/itemCapacity'],
    ['itemCapacity 1000001', { itemCapacity: 1_000_001 }, '/itemCapacity'],
    ['priority -1', { priority: -1 }, '/priority'],
    ['priority 1001', { priority: 1001 }, '/priority'],
    ['priority null', { priority: null }, '/priority'],
    ['enabled not boolean', { enabled: 'yes' }, '/enabled'],
    ['enabled null', { enabled: null }, '/enabled'],
    ['timeStart without seconds', { timeStart: '18:00' }, '/timeStart'],
    ['timeStart 24:00:00', { timeStart: '24:00:00' }, '/timeStart'],
    ['timeEnd with second 60', { timeEnd: '18:00:60' }, '/timeEnd'],
    ['equal times', { timeStart: '18:00:00', timeEnd: '18:00:00' }, '/timeEnd'],
    ['an end at midnight with no start', { timeEnd: '00:00:00' }, '/timeEnd'],
    ['validFrom not a date-time', { validFrom: 'tomorrow' }, '/validFrom'],
    ['validFrom a date alone', { validFrom: '2030-05-01' }, '/validFrom'],
    ['validTo without a zone offset', { validTo: '2030-05-01T00:00:00' }, '/validTo'],
    ['validTo before validFrom', { validFrom: '2030-05-02T00:00:00Z', validTo: '2030-05-01T00:00:00Z' }, '/validTo'],
    [
      'validTo equal to validFrom (another offset)',
      { validFrom: '2030-05-01T02:00:00+02:00', validTo: '2030-05-01T00:00:00Z' },
      '/validTo',
    ],
    ['unknown field', { capacity: 5 }, '/capacity'],
  ];

  it.each(cases)('refuses a create with %s (400, details), creating nothing', async (_, change, path) => {
    const before = await total(locationId);
    expectRefused(
      await call('POST', settingsAt(locationId), {
        key: admin(),
        body: { name: 'Bounds', validOnDays: [1], ...change },
      }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect(await total(locationId)).toBe(before);
  });

  it.each(cases)('refuses an update with %s (400, details), changing nothing', async (_, change, path) => {
    const setting = await newSetting();
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), { key: admin(), body: change }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect(await read(locationId, setting.id)).toEqual(setting);
  });

  it('refuses a create without name or validOnDays', async () => {
    expectRefused(
      await call('POST', settingsAt(locationId), { key: admin(), body: { validOnDays: [1] } }),
      400,
      'VALIDATION_FAILED',
      '/name',
    );
    expectRefused(
      await call('POST', settingsAt(locationId), { key: admin(), body: { name: 'No days' } }),
      400,
      'VALIDATION_FAILED',
      '/validOnDays',
    );
  });

  it('judges an update against the setting as it would be: a timeStart equal to the stored timeEnd, a validFrom after the stored validTo', async () => {
    const setting = await newSetting({ timeStart: '18:00:00', timeEnd: '22:00:00', validTo: '2030-05-01T00:00:00Z' });
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), { key: admin(), body: { timeStart: '22:00:00' } }),
      400,
      'VALIDATION_FAILED',
      '/timeStart',
    );
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), {
        key: admin(),
        body: { validFrom: '2030-06-01T00:00:00Z' },
      }),
      400,
      'VALIDATION_FAILED',
      '/validFrom',
    );
    expect(await read(locationId, setting.id)).toEqual(setting);
  });

  it("accepts every bound's edge value", async () => {
    const edges = {
      name: 'x'.repeat(100),
      validOnDays: [7, 6, 5, 4, 3, 2, 1],
      orderCapacity: 100_000,
      itemCapacity: 1_000_000,
      priority: 1000,
      timeStart: '23:59:59',
      timeEnd: '00:00:00',
    };
    expect(await newSetting(edges)).toMatchObject({ ...edges, validOnDays: [1, 2, 3, 4, 5, 6, 7] });
    expect(
      await newSetting({ orderCapacity: 0, itemCapacity: 0, priority: 0, timeStart: '00:00:00', timeEnd: '23:59:59' }),
    ).toMatchObject({ orderCapacity: 0, itemCapacity: 0, priority: 0 });
  });

  it('refuses an empty update, malformed ids and paging out of bounds', async () => {
    const setting = await newSetting();
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(
      await call('GET', settingAt(locationId, 'dinner'), { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/id',
    );
    expectRefused(await call('GET', settingsAt(0), { key: admin() }), 400, 'VALIDATION_FAILED', '/locationId');
    expectRefused(
      await call('GET', `${settingsAt(locationId)}?limit=101`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expectRefused(
      await call('GET', `${settingsAt(locationId)}?page=0`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/page',
    );
    expect(await read(locationId, setting.id)).toEqual(setting);
  });

  it('takes at most 100 settings a location (422 past that), and one again once one is deleted', async () => {
    const place = (await newLocation('Full bistro')).id;
    const made: string[] = [];
    for (let i = 0; i < 100; i++) made.push((await newSetting({ name: `S${i}` }, place)).id);
    expect(await total(place)).toBe(100);
    expectRefused(
      await call('POST', settingsAt(place), { key: admin(), body: { name: 'One too many', validOnDays: [1] } }),
      422,
      'UNPROCESSABLE',
    );
    expect(await total(place)).toBe(100);
    expect((await call('DELETE', settingAt(place, made[0]!), { key: admin() })).status).toBe(200);
    expect((await newSetting({ name: 'Room again' }, place)).name).toBe('Room again');
  });
});

describe('capacity settings: refusals, permissions and the tenant wall', () => {
  it('refuses to delete the location while it has settings (409), and lets it go once they are deleted', async () => {
    const place = (await newLocation('Closing bistro')).id;
    const setting = await newSetting({}, place);
    expectRefused(await call('DELETE', `/api/v1/locations/${place}`, { key: admin() }), 409, 'CONFLICT');
    expect((await call('GET', `/api/v1/locations/${place}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', settingAt(place, setting.id), { key: admin() })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/locations/${place}`, { key: admin() })).status).toBe(200);
  });

  it('answers 404 for a location the company does not have', async () => {
    expectRefused(await call('GET', settingsAt(999_999_999), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', settingsAt(999_999_999), { key: admin(), body: { name: 'Nowhere', validOnDays: [1] } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('GET', settingAt(locationId, unknownUuid), { key: admin() }), 404, 'NOT_FOUND');
  });

  it('answers 403 without capacity_settings.read or capacity_settings.manage, changing nothing', async () => {
    const setting = await newSetting();
    const reader = await keyWith(['capacity_settings.read']);
    const none = await keyWith(['locations.read', 'locations.manage']);
    expectRefused(await call('GET', settingsAt(locationId), { key: none }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', settingAt(locationId, setting.id), { key: none }), 403, 'FORBIDDEN');
    expect((await call('GET', settingAt(locationId, setting.id), { key: reader })).body.data).toEqual(setting);
    expect((await call('GET', settingsAt(locationId), { key: reader })).status).toBe(200);
    expectRefused(
      await call('POST', settingsAt(locationId), { key: reader, body: { name: 'x', validOnDays: [1] } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), { key: reader, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('DELETE', settingAt(locationId, setting.id), { key: reader }), 403, 'FORBIDDEN');
    expect(await read(locationId, setting.id)).toEqual(setting);
  });

  it("hides the company's settings from another company's key behind 404 on every operation, changing nothing", async () => {
    const setting = await newSetting();
    const before = await total(locationId);
    expectRefused(await call('GET', settingsAt(locationId), { key: theirAdmin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', settingsAt(locationId), { key: theirAdmin(), body: { name: 'Intruder', validOnDays: [1] } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('GET', settingAt(locationId, setting.id), { key: theirAdmin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PUT', settingAt(locationId, setting.id), { key: theirAdmin(), body: { orderCapacity: 0 } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', settingAt(locationId, setting.id), { key: theirAdmin() }), 404, 'NOT_FOUND');
    // Under their own location's path, our id is not theirs either.
    expectRefused(await call('GET', settingAt(theirLocation(), setting.id), { key: theirAdmin() }), 404, 'NOT_FOUND');
    expect(await read(locationId, setting.id)).toEqual(setting);
    expect(await total(locationId)).toBe(before);
    // And the other way round: their location is not ours.
    expectRefused(await call('GET', settingsAt(theirLocation()), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', settingsAt(theirLocation()), { key: admin(), body: { name: 'Intruder', validOnDays: [1] } }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 404 for a setting of another location of the company under this path', async () => {
    const elsewhere = (await newLocation('Other capacity bistro')).id;
    const setting = await newSetting({}, elsewhere);
    expectRefused(await call('GET', settingAt(locationId, setting.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('DELETE', settingAt(locationId, setting.id), { key: admin() }), 404, 'NOT_FOUND');
    expect(await read(elsewhere, setting.id)).toEqual(setting);
  });

  it('lets a location-limited key work at its location only', async () => {
    const setting = await newSetting();
    const key = await keyWith(['capacity_settings.read', 'capacity_settings.manage'], [seededLocation(0).locationId]);
    expectRefused(await call('GET', settingsAt(locationId), { key }), 403, 'FORBIDDEN');
    expectRefused(
      await call('POST', settingsAt(locationId), { key, body: { name: 'x', validOnDays: [1] } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('GET', settingAt(locationId, setting.id), { key }), 403, 'FORBIDDEN');
    expectRefused(await call('PUT', settingAt(locationId, setting.id), { key, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectRefused(await call('DELETE', settingAt(locationId, setting.id), { key }), 403, 'FORBIDDEN');
    expect(await read(locationId, setting.id)).toEqual(setting);
  });
});
