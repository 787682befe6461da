/** Booking groups over HTTP against the local stage: every operation, its bounds, its refusals. */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, company } from '../support/http';
import {
  admin,
  expectRefused,
  keyWith,
  newLocation,
  newTable,
  seededLocation,
  theirAdmin,
  theirLocation,
  unknownUuid,
} from './setup-helpers';

const groupsAt = (locationId: number) => `/api/v1/locations/${locationId}/booking-groups`;
const groupAt = (locationId: number, id: string) => `${groupsAt(locationId)}/${id}`;
const read = async (locationId: number, id: string) =>
  (await call('GET', groupAt(locationId, id), { key: admin() })).body.data;
const total = async (locationId: number) =>
  (await call('GET', `${groupsAt(locationId)}?limit=1`, { key: admin() })).body.meta.pagination.total as number;

/** A location of its own with three tables, for the tests of this file. */
let locationId: number;
let tableIds: string[];
beforeAll(async () => {
  locationId = (await newLocation('Groups bistro')).id;
  tableIds = [];
  for (const name of ['T1', 'T2', 'T3']) tableIds.push((await newTable(locationId, { name })).id);
});

async function newGroup(body: Record<string, unknown> = {}) {
  const out = await call('POST', groupsAt(locationId), {
    key: admin(),
    body: { name: 'Group', tableIds: [tableIds[0]], ...body },
  });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}

describe('booking groups: the happy path', () => {
  it('creates, reads, lists, updates and deletes a group', async () => {
    const schedule = { saturday: [{ open: '12:00', close: '16:00' }] };
    const created = await call('POST', groupsAt(locationId), {
      key: admin(),
      body: {
        name: 'Terrace',
        tableIds: [tableIds[1], tableIds[0]],
        schedule,
        settingsOverride: {
          maxPartySize: 8,
          slotIntervalMinutes: 30,
          confirmationMode: 'request_based',
          autoNoShowDelayMinutes: null,
        },
      },
    });
    expect(created.status).toBe(200);
    const group = created.body.data;
    expect(group).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      locationId,
      name: 'Terrace',
      tableIds: [tableIds[1], tableIds[0]],
      schedule: {
        monday: [],
        tuesday: [],
        wednesday: [],
        thursday: [],
        friday: [],
        saturday: schedule.saturday,
        sunday: [],
      },
      settingsOverride: {
        maxPartySize: 8,
        slotIntervalMinutes: 30,
        confirmationMode: 'request_based',
        autoNoShowDelayMinutes: null,
      },
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: group.createdAt,
    });
    expect(await read(locationId, group.id)).toEqual(group);

    const listed = await call('GET', groupsAt(locationId), { key: admin() });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual(group);

    const updated = await call('PATCH', groupAt(locationId, group.id), {
      key: admin(),
      body: { name: 'Roof terrace', tableIds: [tableIds[2]], schedule: null, settingsOverride: { bufferMinutes: 15 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'Roof terrace',
      tableIds: [tableIds[2]],
      schedule: null,
      settingsOverride: { bufferMinutes: 15 },
      version: 2,
    });
    expect(await read(locationId, group.id)).toEqual(updated.body.data);

    const deleted = await call('DELETE', groupAt(locationId, group.id), { key: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expectRefused(await call('GET', groupAt(locationId, group.id), { key: admin() }), 404, 'NOT_FOUND');
  });

  it("defaults to the location's hours and no override", async () => {
    const group = await newGroup();
    expect(group).toMatchObject({ schedule: null, settingsOverride: null });
    // An empty override is no override.
    const emptied = await call('PATCH', groupAt(locationId, group.id), {
      key: admin(),
      body: { settingsOverride: {}, schedule: null },
    });
    expect(emptied.body.data).toEqual(group);
  });
});

describe('booking groups: validation, one case per bound', () => {
  const override = (settingsOverride: Record<string, unknown>) => ({ settingsOverride });
  const cases: [string, Record<string, unknown>, string][] = [
    ['empty name', { name: '' }, '/name'],
    ['name over 100 characters', { name: 'x'.repeat(101) }, '/name'],
    ['no tables', { tableIds: [] }, '/tableIds'],
    ['a table twice', { tableIds: [unknownUuid, unknownUuid] }, '/tableIds'],
    [
      'over 40 tables',
      { tableIds: Array.from({ length: 41 }, (_, i) => `6f1c2d3e-4b5a-4c6d-8e7f-${String(i).padStart(12, '0')}`) },
      '/tableIds',
    ],
    ['a table id that is no UUID', { tableIds: ['T1'] }, '/tableIds/0'],
    ['schedule time not HH:MM', { schedule: { monday: [{ open: '12', close: '14:00' }] } }, '/schedule/monday/0/open'],
    [
      'overlapping schedule',
      {
        schedule: {
          monday: [
            { open: '12:00', close: '14:00' },
            { open: '13:00', close: '15:00' },
          ],
        },
      },
      '/schedule/monday/1',
    ],
    ['unknown override field', override({ colour: 'red' }), '/settingsOverride/colour'],
    ['bufferMinutes -1', override({ bufferMinutes: -1 }), '/settingsOverride/bufferMinutes'],
    ['bufferMinutes 121', override({ bufferMinutes: 121 }), '/settingsOverride/bufferMinutes'],
    ['defaultDurationMinutes 14', override({ defaultDurationMinutes: 14 }), '/settingsOverride/defaultDurationMinutes'],
    [
      'defaultDurationMinutes 481',
      override({ defaultDurationMinutes: 481 }),
      '/settingsOverride/defaultDurationMinutes',
    ],
    [
      'autoOptimizeEnabled not boolean',
      override({ autoOptimizeEnabled: 'yes' }),
      '/settingsOverride/autoOptimizeEnabled',
    ],
    ['maxPartySize 0', override({ maxPartySize: 0 }), '/settingsOverride/maxPartySize'],
    ['maxPartySize 101', override({ maxPartySize: 101 }), '/settingsOverride/maxPartySize'],
    ['minAdvanceHours -1', override({ minAdvanceHours: -1 }), '/settingsOverride/minAdvanceHours'],
    ['minAdvanceHours 169', override({ minAdvanceHours: 169 }), '/settingsOverride/minAdvanceHours'],
    ['maxAdvanceDays 0', override({ maxAdvanceDays: 0 }), '/settingsOverride/maxAdvanceDays'],
    ['maxAdvanceDays 366', override({ maxAdvanceDays: 366 }), '/settingsOverride/maxAdvanceDays'],
    ['allowedPartySizes with 0', override({ allowedPartySizes: [0, 2] }), '/settingsOverride/allowedPartySizes/0'],
    [
      'allowedPartySizes repeating a size',
      override({ allowedPartySizes: [2, 2] }),
      '/settingsOverride/allowedPartySizes',
    ],
    [
      'override hours overlapping',
      override({
        operatingHours: {
          friday: [
            { open: '17:00', close: '23:00' },
            { open: '22:00', close: '23:30' },
          ],
        },
      }),
      '/settingsOverride/operatingHours/friday/1',
    ],
    ['slotIntervalMinutes 20', override({ slotIntervalMinutes: 20 }), '/settingsOverride/slotIntervalMinutes'],
    [
      'overbookingBufferPercentage -1',
      override({ overbookingBufferPercentage: -1 }),
      '/settingsOverride/overbookingBufferPercentage',
    ],
    [
      'overbookingBufferPercentage 51',
      override({ overbookingBufferPercentage: 51 }),
      '/settingsOverride/overbookingBufferPercentage',
    ],
    ['confirmationMode unknown', override({ confirmationMode: 'manual' }), '/settingsOverride/confirmationMode'],
    ['autoNoShowDelayMinutes 4', override({ autoNoShowDelayMinutes: 4 }), '/settingsOverride/autoNoShowDelayMinutes'],
    [
      'autoNoShowDelayMinutes 121',
      override({ autoNoShowDelayMinutes: 121 }),
      '/settingsOverride/autoNoShowDelayMinutes',
    ],
    [
      'cancellationPolicyHours -1',
      override({ cancellationPolicyHours: -1 }),
      '/settingsOverride/cancellationPolicyHours',
    ],
    [
      'cancellationPolicyHours 169',
      override({ cancellationPolicyHours: 169 }),
      '/settingsOverride/cancellationPolicyHours',
    ],
    ['bookingWindowDays 0', override({ bookingWindowDays: 0 }), '/settingsOverride/bookingWindowDays'],
    ['bookingWindowDays 366', override({ bookingWindowDays: 366 }), '/settingsOverride/bookingWindowDays'],
    [
      'maxActiveBookingsPerGuest 0',
      override({ maxActiveBookingsPerGuest: 0 }),
      '/settingsOverride/maxActiveBookingsPerGuest',
    ],
    [
      'maxActiveBookingsPerGuest 51',
      override({ maxActiveBookingsPerGuest: 51 }),
      '/settingsOverride/maxActiveBookingsPerGuest',
    ],
    ['unknown field', { color: '#fff' }, '/color'],
  ];

  it.each(cases)('refuses a create with %s (400, details), creating nothing', async (_, change, path) => {
    const before = await total(locationId);
    expectRefused(
      await call('POST', groupsAt(locationId), {
        key: admin(),
        body: { name: 'Bounds', tableIds: [tableIds[0]], ...change },
      }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect(await total(locationId)).toBe(before);
  });

  it.each(cases)('refuses an update with %s (400, details), changing nothing', async (_, change, path) => {
    const group = await newGroup();
    expectRefused(
      await call('PATCH', groupAt(locationId, group.id), { key: admin(), body: change }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect(await read(locationId, group.id)).toEqual(group);
  });

  it("accepts every bound's edge value", async () => {
    const edges = {
      bufferMinutes: 120,
      defaultDurationMinutes: 15,
      maxPartySize: 100,
      minAdvanceHours: 168,
      maxAdvanceDays: 365,
      slotIntervalMinutes: 90,
      overbookingBufferPercentage: 50,
      autoNoShowDelayMinutes: 5,
      cancellationPolicyHours: 0,
      bookingWindowDays: 365,
      maxActiveBookingsPerGuest: 50,
    };
    const group = await newGroup({ settingsOverride: edges });
    expect(group.settingsOverride).toEqual(edges);
  });

  it('refuses an empty update and malformed ids', async () => {
    const group = await newGroup();
    expectRefused(
      await call('PATCH', groupAt(locationId, group.id), { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(await call('GET', groupAt(locationId, 'terrace'), { key: admin() }), 400, 'VALIDATION_FAILED', '/id');
    expectRefused(
      await call('GET', `${groupsAt(locationId)}?limit=101`, { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expect(await read(locationId, group.id)).toEqual(group);
  });
});

describe('booking groups: refusals', () => {
  it('refuses tables the location does not have (404, naming the place), creating and changing nothing', async () => {
    const otherTable = seededLocation(0).tables[0]!.id;
    const before = await total(locationId);
    expectRefused(
      await call('POST', groupsAt(locationId), {
        key: admin(),
        body: { name: 'Bad', tableIds: [tableIds[0], unknownUuid] },
      }),
      404,
      'NOT_FOUND',
      '/tableIds/1',
    );
    expectRefused(
      await call('POST', groupsAt(locationId), { key: admin(), body: { name: 'Bad', tableIds: [otherTable] } }),
      404,
      'NOT_FOUND',
      '/tableIds/0',
    );
    expect(await total(locationId)).toBe(before);
    const group = await newGroup();
    expectRefused(
      await call('PATCH', groupAt(locationId, group.id), {
        key: admin(),
        body: { tableIds: [tableIds[0], tableIds[1], unknownUuid] },
      }),
      404,
      'NOT_FOUND',
      '/tableIds/2',
    );
    expect(await read(locationId, group.id)).toEqual(group);
    // The refused update left no membership behind: the spare table can still be deleted.
    const t = await newTable(locationId, { name: 'Spare' });
    expectRefused(
      await call('PATCH', groupAt(locationId, group.id), { key: admin(), body: { tableIds: [t.id, unknownUuid] } }),
      404,
      'NOT_FOUND',
    );
    expect((await call('DELETE', `/api/v1/locations/${locationId}/tables/${t.id}`, { key: admin() })).status).toBe(200);
  });

  it('refuses to delete the location while it has groups (409)', async () => {
    await newGroup();
    expectRefused(await call('DELETE', `/api/v1/locations/${locationId}`, { key: admin() }), 409, 'CONFLICT');
    expect((await call('GET', `/api/v1/locations/${locationId}`, { key: admin() })).status).toBe(200);
  });
});

describe('booking groups: permissions, tenancy and location-limited keys', () => {
  it('answers 403 without booking_groups.read or booking_groups.manage, changing nothing', async () => {
    const group = await newGroup();
    const reader = await keyWith(['booking_groups.read']);
    const none = await keyWith(['tables.read']);
    expectRefused(await call('GET', groupsAt(locationId), { key: none }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', groupAt(locationId, group.id), { key: none }), 403, 'FORBIDDEN');
    expect((await call('GET', groupAt(locationId, group.id), { key: reader })).status).toBe(200);
    expectRefused(
      await call('POST', groupsAt(locationId), { key: reader, body: { name: 'x', tableIds: [tableIds[0]] } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(
      await call('PATCH', groupAt(locationId, group.id), { key: reader, body: { name: 'x' } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('DELETE', groupAt(locationId, group.id), { key: reader }), 403, 'FORBIDDEN');
    expect(await read(locationId, group.id)).toEqual(group);
  });

  it("hides another company's location and groups behind 404 on every operation", async () => {
    const theirs = theirLocation();
    const theirTable = company(2).locations[0]!.tables[0]!.id;
    const created = await call('POST', groupsAt(theirs), {
      key: theirAdmin(),
      body: { name: 'Their group', tableIds: [theirTable] },
    });
    expect(created.status).toBe(200);
    const theirGroup = created.body.data;
    expectRefused(await call('GET', groupsAt(theirs), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', groupsAt(theirs), { key: admin(), body: { name: 'Intruder', tableIds: [theirTable] } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('GET', groupAt(theirs, theirGroup.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PATCH', groupAt(theirs, theirGroup.id), { key: admin(), body: { name: 'Mine now' } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('DELETE', groupAt(theirs, theirGroup.id), { key: admin() }), 404, 'NOT_FOUND');
    // Their ids under our location's path.
    expectRefused(await call('GET', groupAt(locationId, theirGroup.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('POST', groupsAt(locationId), { key: admin(), body: { name: 'Bridge', tableIds: [theirTable] } }),
      404,
      'NOT_FOUND',
      '/tableIds/0',
    );
    expect((await call('GET', groupAt(theirs, theirGroup.id), { key: theirAdmin() })).body.data).toEqual(theirGroup);
    expect(await call('DELETE', groupAt(theirs, theirGroup.id), { key: theirAdmin() })).toMatchObject({ status: 200 });
  });

  it('answers 404 for a group of another location of the company under this path', async () => {
    const seededGroup = await call('POST', groupsAt(seededLocation(1).locationId), {
      key: admin(),
      body: { name: 'Elsewhere', tableIds: [seededLocation(1).tables[0]!.id] },
    });
    expect(seededGroup.status).toBe(200);
    expectRefused(await call('GET', groupAt(locationId, seededGroup.body.data.id), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('DELETE', groupAt(locationId, seededGroup.body.data.id), { key: admin() }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await call('DELETE', groupAt(seededLocation(1).locationId, seededGroup.body.data.id), { key: admin() })).status,
    ).toBe(200);
  });

  it('lets a location-limited key work at its location only', async () => {
    const group = await newGroup();
    const key = await keyWith(['booking_groups.read', 'booking_groups.manage'], [seededLocation(0).locationId]);
    expect((await call('GET', groupsAt(seededLocation(0).locationId), { key })).status).toBe(200);
    expectRefused(await call('GET', groupsAt(locationId), { key }), 403, 'FORBIDDEN');
    expectRefused(
      await call('POST', groupsAt(locationId), { key, body: { name: 'x', tableIds: [tableIds[0]] } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('GET', groupAt(locationId, group.id), { key }), 403, 'FORBIDDEN');
    expectRefused(await call('PATCH', groupAt(locationId, group.id), { key, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectRefused(await call('DELETE', groupAt(locationId, group.id), { key }), 403, 'FORBIDDEN');
    expect(await read(locationId, group.id)).toEqual(group);
  });
});
