/**
 * Schedules and their rules over HTTP (docs/conventions.md, “Permissions”, docs/schedules.md): every
 * operation's happy path, the bounds, permissions, the tenant wall, the events (whole object on
 * created, only the modified fields on updated, the downstream menu-layout and location-hours
 * events), and the availability check end to end on a few cases (the table of cases is the unit
 * test's). The file acts as a company of its own.
 */
import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { nextSpringForward } from '../support/dst';
import { call } from '../support/http';
import { eventsOf } from './bookings-helpers';
import { admin, expectRefused, keyWith, newLocation, theirAdmin, theirLocation, useOwnCompany } from './setup-helpers';
import type { Schemas } from '../support/client';

useOwnCompany('Schedules test company');

let here: number;
let there: number;
let itemId: number;
beforeAll(async () => {
  here = (await newLocation('Schedules bistro')).id;
  there = (await newLocation('Schedules annex')).id;
  itemId = await newItem(here);
});

async function newItem(locationId: number): Promise<number> {
  const out = await call('POST', '/api/v1/items', {
    key: admin(),
    body: { locationId, name: 'Brunch plate', price: 14500, vatRate: 12, categoryHandle: 'brunch' },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data.id;
}

const lunch = { ruleType: 'weekly', weekday: 5, startTime: '11:00', endTime: '14:00' };
const scheduleBody = (extra: Record<string, unknown> = {}) => ({
  locationId: here,
  entityType: 'item',
  entityId: String(itemId),
  name: 'Lunch',
  rules: [lunch],
  ...extra,
});
async function newSchedule(extra: Record<string, unknown> = {}, key = admin()) {
  const out = await call('POST', '/api/v1/schedules', { key, body: scheduleBody(extra) });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data as Schemas['Schedule'];
}
const create = (body: unknown, key = admin()) => call('POST', '/api/v1/schedules', { key, body });
const get = (id: number, key = admin()) => call('GET', `/api/v1/schedules/${id}`, { key });
const patch = (id: number, body: unknown, key = admin()) => call('PATCH', `/api/v1/schedules/${id}`, { key, body });
const remove = (id: number, key = admin()) => call('DELETE', `/api/v1/schedules/${id}`, { key });
const replaceRules = (id: number, rules: unknown, key = admin()) =>
  call('PUT', `/api/v1/schedules/${id}/rules`, { key, body: { rules } });
const addRule = (id: number, body: unknown, key = admin()) =>
  call('POST', `/api/v1/schedules/${id}/rules`, { key, body });
const patchRule = (id: number, body: unknown, key = admin()) =>
  call('PATCH', `/api/v1/schedule-rules/${id}`, { key, body });
const removeRule = (id: number, key = admin()) => call('DELETE', `/api/v1/schedule-rules/${id}`, { key });
const list = async (query: string, key = admin()) => {
  const out = await call('GET', `/api/v1/schedules?${query}`, { key });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body;
};
const check = (query: Record<string, string | number>, key = admin()) =>
  call(
    'GET',
    `/api/v1/schedules/availability?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`,
    { key },
  );

const ruleShape = (scheduleId: number, fields: Record<string, unknown>) => ({
  id: expect.any(Number),
  scheduleId,
  locationId: here,
  ruleType: 'weekly',
  weekday: null,
  startTime: null,
  endTime: null,
  startDate: null,
  endDate: null,
  validFrom: null,
  validTo: null,
  isAvailable: true,
  createdAt: expect.stringMatching(/Z$/),
  updatedAt: expect.stringMatching(/Z$/),
  ...fields,
});

describe('schedules: the happy path', () => {
  it('creates a schedule with its rules, reads, updates and soft deletes it, with an event for each change', async () => {
    const since = new Date().toISOString();
    const created = await create(
      scheduleBody({
        description: 'Weekday lunch',
        priority: 5,
        rules: [
          { ...lunch, startTime: '11:00:45' },
          { ruleType: 'date_range', startDate: '2030-12-24', endDate: '2030-12-26', isAvailable: false },
        ],
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const s = created.body.data;
    expect(s).toEqual({
      id: expect.any(Number),
      locationId: here,
      entityType: 'item',
      entityId: String(itemId),
      name: 'Lunch',
      description: 'Weekday lunch',
      isActive: true,
      priority: 5,
      rules: [
        ruleShape(s.id, { weekday: 5, startTime: '11:00', endTime: '14:00' }),
        ruleShape(s.id, { ruleType: 'date_range', startDate: '2030-12-24', endDate: '2030-12-26', isAvailable: false }),
      ],
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: s.createdAt,
    });
    expect((await get(s.id)).body.data).toEqual(s);

    const updated = await patch(s.id, { name: 'Lunch', isActive: false, priority: 7, description: null });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data).toEqual({
      ...s,
      isActive: false,
      priority: 7,
      description: null,
      version: 2,
      updatedAt: expect.stringMatching(/Z$/),
    });
    expect((await get(s.id)).body.data).toEqual(updated.body.data);
    // Nothing changes, nothing is written.
    expect((await patch(s.id, { name: 'Lunch' })).body.data).toEqual(updated.body.data);

    const deleted = await remove(s.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expectRefused(await get(s.id), 404, 'NOT_FOUND');
    expectRefused(await patch(s.id, { name: 'Back' }), 404, 'NOT_FOUND');
    expectRefused(await remove(s.id), 404, 'NOT_FOUND');
    expectRefused(await addRule(s.id, lunch), 404, 'NOT_FOUND');
    expectRefused(await replaceRules(s.id, []), 404, 'NOT_FOUND');
    expectRefused(await patchRule(s.rules[0].id, { weekday: 1 }), 404, 'NOT_FOUND');
    expectRefused(await removeRule(s.rules[0].id), 404, 'NOT_FOUND');
    expect((await list(`locationId=${here}&limit=100`)).data.map((x: { id: number }) => x.id)).not.toContain(s.id);

    const [createdEvent] = await eventsOf('schedule.created', String(s.id), since);
    expect(createdEvent).toMatchObject({ resource: 'schedule', resourceId: String(s.id), data: s, changes: null });
    const updatedEvents = await eventsOf('schedule.updated', String(s.id), since);
    expect(updatedEvents).toHaveLength(1);
    expect(updatedEvents[0]!.changes).toEqual({ isActive: false, priority: 7, description: null });
    expect(updatedEvents[0]!.data).toEqual(updated.body.data);
    const [deletedEvent] = await eventsOf('schedule.deleted', String(s.id), since);
    expect(deletedEvent).toMatchObject({ data: updated.body.data });
  });

  it('adds, updates and deletes a rule, and replaces every rule at once, with their events', async () => {
    const since = new Date().toISOString();
    const s = await newSchedule();
    const added = await addRule(s.id, {
      ruleType: 'weekly',
      weekday: 6,
      startTime: '22:00',
      endTime: '02:00:59',
      validFrom: '2030-01-01',
      validTo: '2030-06-30',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const rule = added.body.data;
    expect(rule).toEqual(
      ruleShape(s.id, {
        weekday: 6,
        startTime: '22:00',
        endTime: '02:00',
        validFrom: '2030-01-01',
        validTo: '2030-06-30',
      }),
    );
    expect((await get(s.id)).body.data).toMatchObject({ version: 2, rules: [s.rules[0], rule] });

    const changed = await patchRule(rule.id, { isAvailable: false, endTime: '03:00', weekday: 6 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toEqual({ ...rule, isAvailable: false, endTime: '03:00', updatedAt: expect.any(String) });
    expect((await patchRule(rule.id, { isAvailable: false })).body.data).toEqual(changed.body.data);
    // Changing the type must leave a whole rule.
    expectRefused(await patchRule(rule.id, { ruleType: 'date_range' }), 400, 'VALIDATION_FAILED', '/weekday');
    const retyped = await patchRule(rule.id, {
      ruleType: 'date_range',
      weekday: null,
      startDate: '2030-02-01',
      endDate: '2030-02-03',
    });
    expect(retyped.status, JSON.stringify(retyped.body)).toBe(200);

    const deleted = await removeRule(rule.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(retyped.body.data);
    expect((await get(s.id)).body.data.rules).toEqual([s.rules[0]]);
    expectRefused(await removeRule(rule.id), 404, 'NOT_FOUND');
    expectRefused(await patchRule(rule.id, { weekday: 1 }), 404, 'NOT_FOUND');

    const replaced = await replaceRules(s.id, [
      { ruleType: 'weekly', weekday: 1 },
      { ruleType: 'weekly', weekday: 2, isAvailable: false },
    ]);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data.rules).toEqual([
      ruleShape(s.id, { weekday: 1 }),
      ruleShape(s.id, { weekday: 2, isAvailable: false }),
    ]);
    expect((await get(s.id)).body.data).toEqual(replaced.body.data);
    // The old rules are gone: their ids lead nowhere.
    expectRefused(await patchRule(s.rules[0]!.id, { weekday: 3 }), 404, 'NOT_FOUND');
    const emptied = await replaceRules(s.id, []);
    expect(emptied.body.data.rules).toEqual([]);

    const [createdEvent] = await eventsOf('schedule-rule.created', String(rule.id), since);
    expect(createdEvent).toMatchObject({ resource: 'schedule-rule', data: rule, changes: null });
    const ruleUpdates = await eventsOf('schedule-rule.updated', String(rule.id), since);
    expect(ruleUpdates.map((e) => e.changes)).toEqual([
      { isAvailable: false, endTime: '03:00' },
      { ruleType: 'date_range', weekday: null, startDate: '2030-02-01', endDate: '2030-02-03' },
    ]);
    const [deletedEvent] = await eventsOf('schedule-rule.deleted', String(rule.id), since);
    expect(deletedEvent).toMatchObject({ data: retyped.body.data });
    const replacements = await eventsOf('schedule.updated', String(s.id), since);
    expect(replacements.map((e) => e.changes)).toEqual([{ rules: replaced.body.data.rules }, { rules: [] }]);
  });

  it('sends menu-layouts.updated and location.hours.updated downstream of the schedules of those entities', async () => {
    const since = new Date().toISOString();
    const layout = await newSchedule({ entityType: 'menu_layout', entityId: 'brunch-layout_2' });
    await addRule(layout.id, { ruleType: 'weekly', weekday: 0 });
    const layoutEvents = await eventsOf('menu-layouts.updated', 'brunch-layout_2', since);
    expect(layoutEvents.map((e) => e.data)).toEqual([
      { id: 'brunch-layout_2', locationId: here, scheduleId: layout.id, cause: 'schedule.created' },
      { id: 'brunch-layout_2', locationId: here, scheduleId: layout.id, cause: 'schedule-rule.created' },
    ]);
    expect(layoutEvents[0]).toMatchObject({ resource: 'menu-layout', changes: null });

    const hours = await newSchedule({ entityType: 'location_hours', entityId: String(here), name: 'Summer hours' });
    await patch(hours.id, { priority: 3 });
    const location = (await call('GET', `/api/v1/locations/${here}`, { key: admin() })).body.data;
    const hoursEvents = (await eventsOf('location.hours.updated', String(here), since)).filter(
      (e) => e.data.scheduleId === hours.id,
    );
    expect(hoursEvents.map((e) => e.data)).toEqual([
      {
        id: here,
        locationId: here,
        timezone: location.timezone,
        operatingHours: location.operatingHours,
        scheduleId: hours.id,
        cause: 'schedule.created',
      },
      {
        id: here,
        locationId: here,
        timezone: location.timezone,
        operatingHours: location.operatingHours,
        scheduleId: hours.id,
        cause: 'schedule.updated',
      },
    ]);
    // An item's schedule sends neither.
    const before = (await eventsOf('menu-layouts.updated', String(itemId), since)).length;
    await newSchedule();
    expect(await eventsOf('menu-layouts.updated', String(itemId), since)).toHaveLength(before);
  });
});

describe('schedules: entities', () => {
  it('needs an item or a live variant group of the location, the location itself for its hours; a menu layout by id only', async () => {
    const group = await call('POST', '/api/v1/variant-groups', {
      key: admin(),
      body: { locationId: here, name: 'Size', type: 'quantity' },
    });
    expect(group.status).toBe(200);
    expect(
      (await create(scheduleBody({ entityType: 'variant_group', entityId: String(group.body.data.id) }))).status,
    ).toBe(200);
    expect((await create(scheduleBody({ entityType: 'location_hours', entityId: String(here) }))).status).toBe(200);
    expect((await create(scheduleBody({ entityType: 'menu_layout', entityId: 'anything-at-all' }))).status).toBe(200);

    const elsewhere = await newItem(there);
    expectRefused(await create(scheduleBody({ entityId: String(elsewhere) })), 404, 'NOT_FOUND', '/entityId');
    expectRefused(await create(scheduleBody({ entityId: '999999999' })), 404, 'NOT_FOUND', '/entityId');
    expectRefused(
      await create(scheduleBody({ entityType: 'location_hours', entityId: String(there) })),
      404,
      'NOT_FOUND',
      '/entityId',
    );
    expect((await call('DELETE', `/api/v1/variant-groups/${group.body.data.id}`, { key: admin() })).status).toBe(200);
    expectRefused(
      await create(scheduleBody({ entityType: 'variant_group', entityId: String(group.body.data.id) })),
      404,
      'NOT_FOUND',
      '/entityId',
    );
    // Malformed ids: 400.
    expectRefused(await create(scheduleBody({ entityId: 'brunch' })), 400, 'VALIDATION_FAILED', '/entityId');
    expectRefused(
      await create(scheduleBody({ entityType: 'menu_layout', entityId: 'has space' })),
      400,
      'VALIDATION_FAILED',
      '/entityId',
    );
    expectRefused(
      await create(scheduleBody({ entityType: 'menu_layout', entityId: 'x'.repeat(65) })),
      400,
      'VALIDATION_FAILED',
      '/entityId',
    );
    expectRefused(await create(scheduleBody({ entityType: 'menu' })), 400, 'VALIDATION_FAILED', '/entityType');
  });
});

describe('schedules: their location', () => {
  it('keeps a location from deletion while it has live schedules (409 naming them)', async () => {
    const place = (await newLocation('Schedules only bistro')).id;
    const s = await newSchedule({ locationId: place, entityType: 'menu_layout', entityId: 'only' });
    const refused = await call('DELETE', `/api/v1/locations/${place}`, { key: admin() });
    expectRefused(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toMatch(/schedules \(1\)/);
    expect((await remove(s.id)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/locations/${place}`, { key: admin() })).status).toBe(200);
  });
});

describe('schedules: listing', () => {
  it('filters by location, entity type, entity and isActive, counts and pages', async () => {
    const place = (await newLocation('Schedules list bistro')).id;
    const item = await newItem(place);
    const a = await newSchedule({ locationId: place, entityId: String(item) });
    const b = await newSchedule({ locationId: place, entityId: String(item), isActive: false });
    const c = await newSchedule({ locationId: place, entityType: 'menu_layout', entityId: 'dinner' });
    await newSchedule({ locationId: there, entityType: 'menu_layout', entityId: 'dinner' });

    const first = await list(`locationId=${place}&limit=2`);
    expect(first.data.map((s: { id: number }) => s.id)).toEqual([a.id, b.id]);
    expect(first.meta.pagination).toMatchObject({ total: 3, totalPages: 2, nextCursor: expect.any(String) });
    const rest = await list(`locationId=${place}&limit=2&cursor=${first.meta.pagination.nextCursor}`);
    expect(rest.data.map((s: { id: number }) => s.id)).toEqual([c.id]);

    expect((await list(`locationId=${place}&entityType=item&entityId=${item}`)).data).toEqual([a, b]);
    expect((await list(`locationId=${place}&entityType=item&entityId=${item}`)).meta.pagination.total).toBe(2);
    expect((await list(`locationId=${place}&entityType=menu_layout`)).data).toEqual([c]);
    expect((await list(`locationId=${place}&isActive=false`)).data).toEqual([b]);
    expect((await list(`locationId=${place}&entityType=item&entityId=${item}&isActive=true`)).data).toEqual([a]);
    expect(
      (await list(`entityType=menu_layout&entityId=dinner`)).data
        .map((s: { locationId: number }) => s.locationId)
        .sort(),
    ).toEqual([place, there].sort());
    expectRefused(
      await call('GET', `/api/v1/schedules?entityId=${item}`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/entityId',
    );

    expect((await remove(a.id)).status).toBe(200);
    expect((await list(`locationId=${place}`)).meta.pagination.total).toBe(2);
    expect((await list(`locationId=${place}&entityType=item&entityId=${item}`)).data).toEqual([b]);
  });
});

describe('schedules: bounds', () => {
  it('refuses rule fields out of bounds, naming each', async () => {
    const bad = async (rule: Record<string, unknown>, path: string) =>
      expectRefused(await create(scheduleBody({ rules: [lunch, rule] })), 400, 'VALIDATION_FAILED', `/rules/1${path}`);
    await bad({ ...lunch, startTime: '24:00' }, '/startTime');
    await bad({ ...lunch, startTime: '7:00' }, '/startTime');
    await bad({ ...lunch, endTime: '12:60' }, '/endTime');
    await bad({ ...lunch, endTime: '12:00:60' }, '/endTime');
    await bad({ ...lunch, weekday: 7 }, '/weekday');
    await bad({ ...lunch, weekday: -1 }, '/weekday');
    await bad({ ...lunch, weekday: 1.5 }, '/weekday');
    await bad({ ruleType: 'weekly' }, '/weekday');
    await bad({ ruleType: 'monthly', weekday: 1 }, '/ruleType');
    await bad({ ruleType: 'weekly', weekday: 1, startTime: '10:00' }, '/endTime');
    await bad({ ruleType: 'weekly', weekday: 1, startDate: '2030-01-01' }, '/startDate');
    await bad({ ruleType: 'date_range', startDate: '2030-02-30', endDate: '2030-03-01' }, '/startDate');
    await bad({ ruleType: 'date_range', startDate: '20300101', endDate: '2030-03-01' }, '/startDate');
    await bad({ ruleType: 'date_range', startDate: '2030-03-02', endDate: '2030-03-01' }, '/endDate');
    await bad({ ruleType: 'date_range', startDate: '2030-03-01' }, '/endDate');
    await bad({ ruleType: 'date_range', weekday: 2, startDate: '2030-03-01', endDate: '2030-03-01' }, '/weekday');
    await bad({ ...lunch, validFrom: '2030-05-02', validTo: '2030-05-01' }, '/validTo');
    await bad({ ...lunch, validFrom: '2030-13-01' }, '/validFrom');
    await bad({ ...lunch, isAvailable: 'yes' }, '/isAvailable');
    await bad({ ...lunch, colour: 'red' }, '/colour');
  });

  it('refuses schedule fields out of bounds', async () => {
    expectRefused(await create(scheduleBody({ name: '' })), 400, 'VALIDATION_FAILED', '/name');
    expectRefused(await create(scheduleBody({ name: '   ' })), 400, 'VALIDATION_FAILED', '/name');
    expectRefused(await create(scheduleBody({ name: 'x'.repeat(201) })), 400, 'VALIDATION_FAILED', '/name');
    expect(
      (await create(scheduleBody({ name: 'x'.repeat(200), description: 'd'.repeat(1000), priority: 1000 }))).status,
    ).toBe(200);
    expectRefused(
      await create(scheduleBody({ description: 'd'.repeat(1001) })),
      400,
      'VALIDATION_FAILED',
      '/description',
    );
    expectRefused(await create(scheduleBody({ priority: -1 })), 400, 'VALIDATION_FAILED', '/priority');
    expectRefused(await create(scheduleBody({ priority: 1001 })), 400, 'VALIDATION_FAILED', '/priority');
    expectRefused(await create(scheduleBody({ isActive: 'no' })), 400, 'VALIDATION_FAILED', '/isActive');
    expectRefused(await create(scheduleBody({ locationId: 0 })), 400, 'VALIDATION_FAILED', '/locationId');
    const s = await newSchedule();
    expectRefused(await patch(s.id, {}), 400, 'VALIDATION_FAILED');
    expectRefused(await patch(s.id, { entityId: '1' }), 400, 'VALIDATION_FAILED');
    expectRefused(await patch(s.id, { priority: 1001 }), 400, 'VALIDATION_FAILED', '/priority');
    expectRefused(await patchRule(s.rules[0]!.id, {}), 400, 'VALIDATION_FAILED');
    expectRefused(await patchRule(s.rules[0]!.id, { weekday: 7 }), 400, 'VALIDATION_FAILED', '/weekday');
    expectRefused(await get('abc' as never), 400, 'VALIDATION_FAILED', '/id');
    expectRefused(
      await call('PATCH', '/api/v1/schedule-rules/x1', { key: admin(), body: { weekday: 1 } }),
      400,
      'VALIDATION_FAILED',
      '/ruleId',
    );
    expectRefused(await get(999_999_999), 404, 'NOT_FOUND');
    expectRefused(await patchRule(999_999_999, { weekday: 1 }), 404, 'NOT_FOUND');
  });

  it('holds at most 40 rules: create and replace refuse 41, add refuses the 41st', async () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => ({ ruleType: 'weekly', weekday: i % 7 }));
    expectRefused(await create(scheduleBody({ rules: rules(41) })), 400, 'VALIDATION_FAILED', '/rules');
    const s = await newSchedule({ rules: rules(40) });
    expect(s.rules).toHaveLength(40);
    expectRefused(await replaceRules(s.id, rules(41)), 400, 'VALIDATION_FAILED', '/rules');
    const full = await replaceRules(s.id, rules(40));
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expectRefused(await addRule(s.id, lunch), 400, 'VALIDATION_FAILED', '/rules');
    expect((await get(s.id)).body.data).toEqual(full.body.data);
    expect((await removeRule(full.body.data.rules[0].id)).status).toBe(200);
    expect((await addRule(s.id, lunch)).status).toBe(200);
  });

  it('bounds the list query and the availability query', async () => {
    expectRefused(await call('GET', '/api/v1/schedules?limit=0', { key: admin() }), 400, 'VALIDATION_FAILED', '/limit');
    expectRefused(
      await call('GET', '/api/v1/schedules?limit=101', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expectRefused(await call('GET', '/api/v1/schedules?page=0', { key: admin() }), 400, 'VALIDATION_FAILED', '/page');
    expectRefused(
      await call('GET', '/api/v1/schedules?page=11&limit=100', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/page',
    );
    expectRefused(
      await call('GET', '/api/v1/schedules?isActive=maybe', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/isActive',
    );
    expectRefused(
      await call('GET', '/api/v1/schedules?cursor=bm9wZQ', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/cursor',
    );
    expectRefused(
      await check({ locationId: here, entityType: 'item', entityId: '1', checkTime: 'tomorrow' }),
      400,
      'VALIDATION_FAILED',
      '/checkTime',
    );
    expectRefused(
      await check({ locationId: here, entityType: 'item', entityId: '1', checkTime: '2030-01-01T12:00:00' }),
      400,
      'VALIDATION_FAILED',
      '/checkTime',
    );
    expectRefused(await check({ locationId: here, entityType: 'item' }), 400, 'VALIDATION_FAILED', '/entityId');
    expectRefused(await check({ entityType: 'item', entityId: '1' }), 400, 'VALIDATION_FAILED', '/locationId');
  });
});

describe('schedules: permissions and the tenant wall', () => {
  it('needs schedules.* for each operation', async () => {
    const s = await newSchedule();
    const reader = await keyWith(['schedules.read']);
    expect((await get(s.id, reader)).status).toBe(200);
    expect((await check({ locationId: here, entityType: 'item', entityId: String(itemId) }, reader)).status).toBe(200);
    expectRefused(await create(scheduleBody(), reader), 403, 'FORBIDDEN');
    expectRefused(await patch(s.id, { name: 'x' }, reader), 403, 'FORBIDDEN');
    expectRefused(await remove(s.id, reader), 403, 'FORBIDDEN');
    expectRefused(await replaceRules(s.id, [], reader), 403, 'FORBIDDEN');
    expectRefused(await addRule(s.id, lunch, reader), 403, 'FORBIDDEN');
    expectRefused(await patchRule(s.rules[0]!.id, { weekday: 1 }, reader), 403, 'FORBIDDEN');
    expectRefused(await removeRule(s.rules[0]!.id, reader), 403, 'FORBIDDEN');
    const writer = await keyWith(['schedules.create', 'schedules.update']);
    expectRefused(await call('GET', '/api/v1/schedules', { key: writer }), 403, 'FORBIDDEN');
    expectRefused(await check({ locationId: here, entityType: 'item', entityId: '1' }, writer), 403, 'FORBIDDEN');
    expectRefused(await remove(s.id, writer), 403, 'FORBIDDEN');
    expect((await addRule(s.id, lunch, writer)).status).toBe(200);
    expect((await get(s.id)).body.data.rules).toHaveLength(2);
  });

  it('keeps a key limited to other locations out (403), and another company out (404)', async () => {
    const s = await newSchedule();
    const annexOnly = await keyWith(
      ['schedules.read', 'schedules.create', 'schedules.update', 'schedules.delete'],
      [there],
    );
    expectRefused(await get(s.id, annexOnly), 403, 'FORBIDDEN');
    expectRefused(await create(scheduleBody(), annexOnly), 403, 'FORBIDDEN');
    expectRefused(await patchRule(s.rules[0]!.id, { weekday: 2 }, annexOnly), 403, 'FORBIDDEN');
    expectRefused(
      await check({ locationId: here, entityType: 'item', entityId: String(itemId) }, annexOnly),
      403,
      'FORBIDDEN',
    );
    expect((await list('', annexOnly)).data.every((x: { locationId: number }) => x.locationId === there)).toBe(true);

    expectRefused(await get(s.id, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await patch(s.id, { name: 'Theirs' }, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await remove(s.id, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await addRule(s.id, lunch, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await replaceRules(s.id, [], theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await patchRule(s.rules[0]!.id, { weekday: 2 }, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(await removeRule(s.rules[0]!.id, theirAdmin()), 404, 'NOT_FOUND');
    expectRefused(
      await create(scheduleBody({ locationId: theirLocation(), entityType: 'menu_layout', entityId: 'x' })),
      404,
      'NOT_FOUND',
    );
    expectRefused(await check({ locationId: theirLocation(), entityType: 'item', entityId: '1' }), 404, 'NOT_FOUND');
    expectRefused(await call('GET', `/api/v1/schedules?locationId=${here}`, { key: theirAdmin() }), 404, 'NOT_FOUND');
    expect((await get(s.id)).body.data).toEqual(s);
  });
});

describe('schedules: the availability check', () => {
  const zone = 'Europe/Stockholm';
  const S = nextSpringForward(zone)!;
  /** S + n days, a wall time in Stockholm, as ISO with its offset. */
  const wall = (n: number, time: string) =>
    DateTime.fromISO(`${DateTime.fromISO(S).plus({ days: n }).toISODate()}T${time}`, { zone }).toISO()!;

  it('answers from the schedules, the priorities and the location zone, across the spring-forward night', async () => {
    const place = (await newLocation('Availability bistro', zone)).id;
    const item = String(await newItem(place));
    const at = (checkTime: string) => check({ locationId: place, entityType: 'item', entityId: item, checkTime });
    const answer = async (checkTime: string) => {
      const out = await at(checkTime);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      return out.body.data;
    };

    expect(await answer(wall(-2, '12:00'))).toEqual({
      entityType: 'item',
      entityId: item,
      locationId: place,
      timezone: zone,
      checkTime: new Date(wall(-2, '12:00')).toISOString(),
      localTime: DateTime.fromISO(wall(-2, '12:00'), { zone }).toISO(),
      isAvailable: true,
      reason: 'no_schedules',
      decidedBy: null,
    });

    const open = await newSchedule({
      locationId: place,
      entityId: item,
      rules: [lunch, { ruleType: 'weekly', weekday: 6, startTime: '22:00', endTime: '03:00' }],
    });
    expect(await answer(wall(-2, '12:00'))).toMatchObject({
      isAvailable: true,
      reason: 'rule',
      decidedBy: { scheduleId: open.id, ruleId: open.rules[0]!.id, priority: 0, isAvailable: true },
    });
    expect(await answer(wall(-2, '14:00'))).toMatchObject({
      isAvailable: false,
      reason: 'outside_schedule',
      decidedBy: null,
    });
    // Saturday 22:00-03:00 into the spring-forward Sunday: 01:30 CET is in, 03:00 CEST (the jump) is out.
    expect(await answer(`${S}T00:30:00Z`)).toMatchObject({
      isAvailable: true,
      decidedBy: { ruleId: open.rules[1]!.id },
    });
    expect(await answer(`${S}T01:00:00Z`)).toMatchObject({ isAvailable: false, reason: 'outside_schedule' });

    const closed = await newSchedule({
      locationId: place,
      entityId: item,
      priority: 10,
      rules: [{ ruleType: 'weekly', weekday: 5, startTime: '12:00', endTime: '13:00', isAvailable: false }],
    });
    expect(await answer(wall(-2, '12:30'))).toMatchObject({
      isAvailable: false,
      decidedBy: { scheduleId: closed.id, priority: 10, isAvailable: false },
    });
    expect(await answer(wall(-2, '11:30'))).toMatchObject({ isAvailable: true, decidedBy: { scheduleId: open.id } });
    expect((await patch(closed.id, { isActive: false })).status).toBe(200);
    expect(await answer(wall(-2, '12:30'))).toMatchObject({ isAvailable: true, decidedBy: { scheduleId: open.id } });
    expect((await remove(open.id)).status).toBe(200);
    expect(await answer(wall(-2, '14:00'))).toMatchObject({ isAvailable: true, reason: 'no_schedules' });

    // Without checkTime: now.
    const before = Date.now();
    const out = await check({ locationId: place, entityType: 'item', entityId: item });
    expect(out.status).toBe(200);
    expect(Date.parse(out.body.data.checkTime)).toBeGreaterThanOrEqual(before - 1000);
    expect(out.body.data.isAvailable).toBe(true);
  });
});
