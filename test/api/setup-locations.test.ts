/**
 * Locations over HTTP against the local stage: every operation, its bounds, its refusals. The file
 * acts as a company of its own, so the lists and counts below see only the locations it made.
 */
import { describe, expect, it } from 'vitest';
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
  useOwnCompany,
  weekHours,
} from './setup-helpers';

useOwnCompany('Locations test company');

const at = (id: number | string) => `/api/v1/locations/${id}`;
const read = async (id: number) => (await call('GET', at(id), { key: admin() })).body.data;

describe('locations: the happy path', () => {
  it('creates, reads, lists, updates and deletes a location', async () => {
    const created = await call('POST', '/api/v1/locations', {
      key: admin(),
      body: {
        name: 'Bistro Norr',
        timezone: 'Europe/Stockholm',
        operatingHours: weekHours,
        address: 'Odengatan 1, Stockholm',
        phone: '08-123 456 78',
        country: 'se',
      },
    });
    expect(created.status).toBe(200);
    const location = created.body.data;
    expect(location).toEqual({
      id: expect.any(Number),
      name: 'Bistro Norr',
      timezone: 'Europe/Stockholm',
      operatingHours: { ...weekHours, tuesday: [], wednesday: [], thursday: [], saturday: [], sunday: [] },
      address: 'Odengatan 1, Stockholm',
      phone: '+46812345678',
      country: 'SE',
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: location.createdAt,
    });
    expect(location.id).toBeGreaterThanOrEqual(1000);
    expect(await read(location.id)).toEqual(location);

    const listed = await call('GET', '/api/v1/locations?limit=100', { key: admin() });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual(location);
    expect(listed.body.meta.pagination).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });

    const updated = await call('PATCH', at(location.id), {
      key: admin(),
      body: { name: 'Bistro Söder', operatingHours: { sunday: [{ open: '12:00', close: '20:00' }] }, phone: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      name: 'Bistro Söder',
      phone: null,
      version: 2,
      operatingHours: { monday: [], sunday: [{ open: '12:00', close: '20:00' }] },
    });
    expect(await read(location.id)).toEqual(updated.body.data);

    const deleted = await call('DELETE', at(location.id), { key: admin() });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual(updated.body.data);
    expectRefused(await call('GET', at(location.id), { key: admin() }), 404, 'NOT_FOUND');
  });

  it('pages the list with page and with the cursor alike', async () => {
    await newLocation('Paging A');
    await newLocation('Paging B');
    const all = await call('GET', '/api/v1/locations?limit=100', { key: admin() });
    expect(all.body.meta.pagination.total).toBe(all.body.data.length);
    const first = await call('GET', '/api/v1/locations?limit=1', { key: admin() });
    const second = await call('GET', '/api/v1/locations?limit=1&page=2', { key: admin() });
    const byCursor = await call('GET', `/api/v1/locations?limit=1&cursor=${first.body.meta.pagination.nextCursor}`, {
      key: admin(),
    });
    expect(first.body.data).toEqual([all.body.data[0]]);
    expect(second.body.data).toEqual([all.body.data[1]]);
    expect(byCursor.body.data).toEqual(second.body.data);
    expect(byCursor.body.meta.pagination.page).toBe(2);
    expect(first.body.meta.pagination).toMatchObject({ total: all.body.data.length, totalPages: all.body.data.length });
    expect(all.body.data.map((l: { name: string }) => l.name)).toEqual(
      expect.arrayContaining(['Paging A', 'Paging B']),
    );
  });

  it('keeps a country (ISO 3166-1 alpha-2, null by default) and reads local phone numbers in it', async () => {
    const location = await newLocation('Country bistro');
    expect(location).toMatchObject({ country: null, phone: null });
    const set = await call('PATCH', at(location.id), { key: admin(), body: { country: 'GB', phone: '020 7946 0958' } });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ country: 'GB', phone: '+442079460958', version: 2 });
    // A later local number is read in the stored country; an international one anywhere.
    expect(
      (await call('PATCH', at(location.id), { key: admin(), body: { phone: '0161 234 5678' } })).body.data.phone,
    ).toBe('+441612345678');
    expect(
      (await call('PATCH', at(location.id), { key: admin(), body: { phone: '+46 8 123 456 78' } })).body.data.phone,
    ).toBe('+46812345678');
    const cleared = await call('PATCH', at(location.id), { key: admin(), body: { country: null } });
    expect(cleared.body.data).toMatchObject({ country: null, phone: '+46812345678' });
    expect(await read(location.id)).toEqual(cleared.body.data);
  });

  it('answers an update that changes nothing with the location as it is', async () => {
    const location = await newLocation();
    const same = await call('PATCH', at(location.id), { key: admin(), body: { name: location.name } });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(location);
  });
});

describe('locations: validation, one case per bound', () => {
  const base = { name: 'Bounds', timezone: 'Europe/Stockholm', operatingHours: {} };
  const cases: [string, Record<string, unknown>, string][] = [
    ['empty name', { name: '' }, '/name'],
    ['blank name', { name: '   ' }, '/name'],
    ['name over 200 characters', { name: 'x'.repeat(201) }, '/name'],
    ['unknown time zone', { timezone: 'Mars/Olympus_Mons' }, '/timezone'],
    ['fixed offset instead of a zone', { timezone: '+01:00' }, '/timezone'],
    [
      'open not HH:MM',
      { operatingHours: { monday: [{ open: '9:00', close: '17:00' }] } },
      '/operatingHours/monday/0/open',
    ],
    [
      'open hour 24',
      { operatingHours: { monday: [{ open: '24:00', close: '02:00' }] } },
      '/operatingHours/monday/0/open',
    ],
    [
      'close past 24:00',
      { operatingHours: { monday: [{ open: '09:00', close: '24:01' }] } },
      '/operatingHours/monday/0/close',
    ],
    [
      'close minutes 60',
      { operatingHours: { monday: [{ open: '09:00', close: '17:60' }] } },
      '/operatingHours/monday/0/close',
    ],
    [
      'open equal to close',
      { operatingHours: { monday: [{ open: '09:00', close: '09:00' }] } },
      '/operatingHours/monday/0/close',
    ],
    [
      'overlapping intervals',
      {
        operatingHours: {
          monday: [
            { open: '09:00', close: '15:00' },
            { open: '14:00', close: '22:00' },
          ],
        },
      },
      '/operatingHours/monday/1',
    ],
    [
      'overnight interval over the next day',
      {
        operatingHours: { friday: [{ open: '20:00', close: '03:00' }], saturday: [{ open: '01:00', close: '04:00' }] },
      },
      '/operatingHours/saturday/0',
    ],
    ['unknown weekday', { operatingHours: { funday: [] } }, '/operatingHours/funday'],
    [
      'more than 6 intervals a day',
      { operatingHours: { monday: Array.from({ length: 7 }, (_, i) => ({ open: `0${i}:00`, close: `0${i}:30` })) } },
      '/operatingHours/monday',
    ],
    [
      'unknown interval field',
      { operatingHours: { monday: [{ open: '09:00', close: '10:00', note: 'x' }] } },
      '/operatingHours/monday/0/note',
    ],
    ['address over 500 characters', { address: 'x'.repeat(501) }, '/address'],
    ['phone with letters', { phone: 'call us' }, '/phone'],
    ['phone that cannot exist', { phone: '+46 00 123 4567' }, '/phone'],
    ['local phone without a country', { phone: '08-123 456 78' }, '/phone'],
    ['local phone impossible in its country', { phone: '08-12', country: 'SE' }, '/phone'],
    ['country of three letters', { country: 'SWE' }, '/country'],
    ['country code not assigned', { country: 'XX' }, '/country'],
    ['region that is no country', { country: 'EU' }, '/country'],
    ['unknown field', { confirmationMode: 'instant' }, '/confirmationMode'],
  ];

  it.each(cases)('refuses a create with %s (400, details), creating nothing', async (_, change, path) => {
    const before = (await call('GET', '/api/v1/locations?limit=1', { key: admin() })).body.meta.pagination.total;
    expectRefused(
      await call('POST', '/api/v1/locations', { key: admin(), body: { ...base, ...change } }),
      400,
      'VALIDATION_FAILED',
      path,
    );
    expect((await call('GET', '/api/v1/locations?limit=1', { key: admin() })).body.meta.pagination.total).toBe(before);
  });

  it('requires name and timezone on create', async () => {
    const out = await call('POST', '/api/v1/locations', { key: admin(), body: {} });
    expectRefused(out, 400, 'VALIDATION_FAILED');
    expect(out.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/name', '/timezone']);
  });

  it('creates a location without operatingHours: every day closed until hours are set', async () => {
    const created = await call('POST', '/api/v1/locations', {
      key: admin(),
      body: { name: 'No hours yet', timezone: 'Europe/Stockholm' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const closed = { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: [] };
    expect(created.body.data).toMatchObject({
      name: 'No hours yet',
      operatingHours: closed,
      address: null,
      phone: null,
      version: 1,
    });
    expect(await read(created.body.data.id)).toEqual(created.body.data);
    const hours = await call('PATCH', at(created.body.data.id), { key: admin(), body: { operatingHours: weekHours } });
    expect(hours.body.data).toMatchObject({ operatingHours: { ...closed, ...weekHours }, version: 2 });
  });

  it.each(cases)('refuses an update with %s (400, details), changing nothing', async (_, change, path) => {
    const location = await newLocation();
    expectRefused(await call('PATCH', at(location.id), { key: admin(), body: change }), 400, 'VALIDATION_FAILED', path);
    expect(await read(location.id)).toEqual(location);
  });

  it('refuses an empty update, malformed ids and list bounds', async () => {
    const location = await newLocation();
    expectRefused(await call('PATCH', at(location.id), { key: admin(), body: {} }), 400, 'VALIDATION_FAILED');
    expectRefused(await call('GET', at('abc'), { key: admin() }), 400, 'VALIDATION_FAILED', '/locationId');
    expectRefused(await call('GET', at(0), { key: admin() }), 400, 'VALIDATION_FAILED', '/locationId');
    expectRefused(await call('GET', '/api/v1/locations?limit=0', { key: admin() }), 400, 'VALIDATION_FAILED', '/limit');
    expectRefused(
      await call('GET', '/api/v1/locations?limit=101', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/limit',
    );
    expectRefused(await call('GET', '/api/v1/locations?page=0', { key: admin() }), 400, 'VALIDATION_FAILED', '/page');
    expectRefused(
      await call('GET', '/api/v1/locations?cursor=garbage', { key: admin() }),
      400,
      'VALIDATION_FAILED',
      '/cursor',
    );
    expect(await read(location.id)).toEqual(location);
  });
});

describe('locations: refusals', () => {
  it('refuses to delete a location that has tables (409), and deletes it once they are gone', async () => {
    const location = await newLocation();
    const table = await newTable(location.id, { name: 'T1' });
    expectRefused(await call('DELETE', at(location.id), { key: admin() }), 409, 'CONFLICT');
    expect(await read(location.id)).toEqual(location);
    expect((await call('DELETE', `${at(location.id)}/tables/${table.id}`, { key: admin() })).status).toBe(200);
    expect((await call('DELETE', at(location.id), { key: admin() })).status).toBe(200);
  });

  it('refuses to delete a location that has coursings (409)', async () => {
    const location = await newLocation();
    expect(
      (
        await call('POST', '/api/v1/coursings', {
          key: admin(),
          body: { locationId: location.id, title: 'Starters', order: 1 },
        })
      ).status,
    ).toBe(200);
    expectRefused(await call('DELETE', at(location.id), { key: admin() }), 409, 'CONFLICT');
    expect(await read(location.id)).toEqual(location);
  });

  it('refuses to delete a seeded location with its tables (409)', async () => {
    const seeded = seededLocation(1);
    const seedAdmin = company(1).keys.admin;
    expectRefused(await call('DELETE', at(seeded.locationId), { key: seedAdmin }), 409, 'CONFLICT');
    expect((await call('GET', at(seeded.locationId), { key: seedAdmin })).body.data.name).toBe(seeded.name);
  });
});

describe('locations: permissions, tenancy and location-limited keys', () => {
  it('answers 403 without locations.read or locations.manage, changing nothing', async () => {
    const location = await newLocation();
    const reader = await keyWith(['locations.read']);
    const none = await keyWith(['tables.read']);
    expectRefused(await call('GET', '/api/v1/locations', { key: none }), 403, 'FORBIDDEN');
    expectRefused(await call('GET', at(location.id), { key: none }), 403, 'FORBIDDEN');
    expect((await call('GET', at(location.id), { key: reader })).status).toBe(200);
    expectRefused(
      await call('POST', '/api/v1/locations', {
        key: reader,
        body: { name: 'x', timezone: 'UTC', operatingHours: {} },
      }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await call('PATCH', at(location.id), { key: reader, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectRefused(await call('DELETE', at(location.id), { key: reader }), 403, 'FORBIDDEN');
    expect(await read(location.id)).toEqual(location);
  });

  it("hides another company's location: 404 on every operation, absent from the list", async () => {
    const theirs = theirLocation();
    expectRefused(await call('GET', at(theirs), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(await call('PATCH', at(theirs), { key: admin(), body: { name: 'Taken over' } }), 404, 'NOT_FOUND');
    expectRefused(await call('DELETE', at(theirs), { key: admin() }), 404, 'NOT_FOUND');
    const listed = await call('GET', '/api/v1/locations?limit=100', { key: admin() });
    expect(listed.body.data.map((l: { id: number }) => l.id)).not.toContain(theirs);
    const unchanged = await call('GET', at(theirs), { key: theirAdmin() });
    expect(unchanged.body.data).toMatchObject({
      id: theirs,
      name: expect.not.stringContaining('Taken over'),
      version: 1,
    });
  });

  it('lets a location-limited key see and change only its locations, and create none', async () => {
    const [older, mine, other] = [
      await newLocation('Also mine'),
      await newLocation('Mine'),
      await newLocation('Not mine'),
    ];
    const key = await keyWith(['locations.read', 'locations.manage'], [mine.id, older.id]);
    const listed = await call('GET', '/api/v1/locations?limit=1', { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((l: { id: number }) => l.id)).toEqual([older.id]);
    expect(listed.body.meta.pagination).toMatchObject({ total: 2, totalPages: 2, nextCursor: expect.any(String) });
    const next = await call('GET', `/api/v1/locations?limit=1&cursor=${listed.body.meta.pagination.nextCursor}`, {
      key,
    });
    expect(next.body.data.map((l: { id: number }) => l.id)).toEqual([mine.id]);
    expect(next.body.meta.pagination).toMatchObject({ page: 2, nextCursor: null });

    expect((await call('GET', at(mine.id), { key })).status).toBe(200);
    expect((await call('PATCH', at(mine.id), { key, body: { name: 'Still mine' } })).status).toBe(200);
    expectRefused(await call('GET', at(other.id), { key }), 403, 'FORBIDDEN');
    expectRefused(await call('PATCH', at(other.id), { key, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectRefused(await call('DELETE', at(other.id), { key }), 403, 'FORBIDDEN');
    expectRefused(
      await call('POST', '/api/v1/locations', { key, body: { name: 'New', timezone: 'UTC', operatingHours: {} } }),
      403,
      'FORBIDDEN',
    );
    expect(await read(other.id)).toEqual(other);
  });
});
