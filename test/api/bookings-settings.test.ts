/** Booking settings over HTTP (docs/bookings.md): defaults on first read, every bound and enum, permissions, tenancy. */
import { describe, expect, it } from 'vitest';
import { call } from '../support/http';
import { newLocation, seededLocation } from './setup-helpers';
import { admin, eventsOf, expectRefused, keyWith, theirAdmin, theirLocation } from './bookings-helpers';

const at = (locationId: number | string) => `/api/v1/locations/${locationId}/booking-settings`;
const read = async (locationId: number) => (await call('GET', at(locationId), { key: admin() })).body.data;

describe('booking settings: the happy path', () => {
  it('creates and stores the defaults on the first read (instant confirmation)', async () => {
    const location = await newLocation();
    const first = await call('GET', at(location.id), { key: admin() });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      locationId: location.id,
      bufferMinutes: 15,
      defaultDurationMinutes: 120,
      autoOptimizeEnabled: false,
      sellingPolicyEnabled: false,
      maxPartySize: 20,
      minAdvanceHours: 0,
      maxAdvanceDays: 90,
      allowedPartySizes: [],
      operatingHours: null,
      slotIntervalMinutes: 15,
      overbookingBufferPercentage: 0,
      confirmationMode: 'instant',
      autoNoShowDelayMinutes: null,
      cancellationPolicyHours: null,
      bookingWindowDays: null,
      maxActiveBookingsPerGuest: null,
      version: 1,
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: expect.stringMatching(/Z$/),
    });
    // Stored: a second read answers the same item, not a new default.
    expect(await read(location.id)).toEqual(first.body.data);
  });

  it('sets the fields sent, keeps the others, and records booking-settings.updated with only the changes', async () => {
    const location = await newLocation();
    const before = await read(location.id);
    const since = new Date().toISOString();
    const hours = { friday: [{ open: '17:00', close: '01:00' }] };
    const out = await call('PUT', at(location.id), {
      key: admin(),
      body: {
        bufferMinutes: 30,
        confirmationMode: 'request_based',
        allowedPartySizes: [6, 2, 4],
        operatingHours: hours,
        autoNoShowDelayMinutes: 20,
      },
    });
    expect(out.status).toBe(200);
    const after = out.body.data;
    expect(after).toMatchObject({
      ...before,
      bufferMinutes: 30,
      confirmationMode: 'request_based',
      allowedPartySizes: [2, 4, 6],
      autoNoShowDelayMinutes: 20,
      operatingHours: { monday: [], friday: hours.friday, sunday: [] },
      version: 2,
      updatedAt: expect.any(String),
    });
    expect(await read(location.id)).toEqual(after);
    const [event] = await eventsOf('booking-settings.updated', String(location.id), since);
    expect(event).toMatchObject({ resource: 'booking-settings', data: after });
    expect(Object.keys(event!.changes!).sort()).toEqual([
      'allowedPartySizes',
      'autoNoShowDelayMinutes',
      'bufferMinutes',
      'confirmationMode',
      'operatingHours',
    ]);

    const cleared = await call('PUT', at(location.id), {
      key: admin(),
      body: { operatingHours: null, autoNoShowDelayMinutes: null },
    });
    expect(cleared.body.data).toMatchObject({
      operatingHours: null,
      autoNoShowDelayMinutes: null,
      bufferMinutes: 30,
      version: 3,
    });
  });

  it('stores the settings on a first PUT without a read before it, and writes nothing for a PUT that changes nothing', async () => {
    const location = await newLocation();
    const put = await call('PUT', at(location.id), { key: admin(), body: { maxPartySize: 12 } });
    expect(put.body.data).toMatchObject({ maxPartySize: 12, version: 1 });
    const same = await call('PUT', at(location.id), { key: admin(), body: { maxPartySize: 12 } });
    expect(same.status).toBe(200);
    expect(same.body.data).toEqual(put.body.data);
  });
});

describe('booking settings: validation, one case per bound', () => {
  const cases: [string, unknown, string][] = [
    ['bufferMinutes below 0', { bufferMinutes: -1 }, '/bufferMinutes'],
    ['bufferMinutes above 120', { bufferMinutes: 121 }, '/bufferMinutes'],
    ['defaultDurationMinutes below 15', { defaultDurationMinutes: 14 }, '/defaultDurationMinutes'],
    ['defaultDurationMinutes above 480', { defaultDurationMinutes: 481 }, '/defaultDurationMinutes'],
    ['autoOptimizeEnabled not a boolean', { autoOptimizeEnabled: 'yes' }, '/autoOptimizeEnabled'],
    ['maxPartySize below 1', { maxPartySize: 0 }, '/maxPartySize'],
    ['maxPartySize above 100', { maxPartySize: 101 }, '/maxPartySize'],
    ['minAdvanceHours below 0', { minAdvanceHours: -1 }, '/minAdvanceHours'],
    ['minAdvanceHours above 168', { minAdvanceHours: 169 }, '/minAdvanceHours'],
    ['maxAdvanceDays below 1', { maxAdvanceDays: 0 }, '/maxAdvanceDays'],
    ['maxAdvanceDays above 365', { maxAdvanceDays: 366 }, '/maxAdvanceDays'],
    ['allowedPartySizes with 0', { allowedPartySizes: [0] }, '/allowedPartySizes/0'],
    ['allowedPartySizes above 100', { allowedPartySizes: [101] }, '/allowedPartySizes/0'],
    ['allowedPartySizes repeated', { allowedPartySizes: [2, 2] }, '/allowedPartySizes'],
    [
      'operatingHours overlapping',
      {
        operatingHours: {
          monday: [
            { open: '10:00', close: '15:00' },
            { open: '14:00', close: '20:00' },
          ],
        },
      },
      '/operatingHours/monday/1',
    ],
    [
      'operatingHours not HH:MM',
      { operatingHours: { monday: [{ open: '9:00', close: '15:00' }] } },
      '/operatingHours/monday/0/open',
    ],
    ['slotIntervalMinutes not in 15, 30, 45, 60, 90', { slotIntervalMinutes: 20 }, '/slotIntervalMinutes'],
    ['overbookingBufferPercentage below 0', { overbookingBufferPercentage: -0.5 }, '/overbookingBufferPercentage'],
    ['overbookingBufferPercentage above 50', { overbookingBufferPercentage: 50.5 }, '/overbookingBufferPercentage'],
    ['confirmationMode unknown', { confirmationMode: 'manual' }, '/confirmationMode'],
    ['autoNoShowDelayMinutes below 5', { autoNoShowDelayMinutes: 4 }, '/autoNoShowDelayMinutes'],
    ['autoNoShowDelayMinutes above 120', { autoNoShowDelayMinutes: 121 }, '/autoNoShowDelayMinutes'],
    ['cancellationPolicyHours below 0', { cancellationPolicyHours: -1 }, '/cancellationPolicyHours'],
    ['cancellationPolicyHours above 168', { cancellationPolicyHours: 169 }, '/cancellationPolicyHours'],
    ['bookingWindowDays below 1', { bookingWindowDays: 0 }, '/bookingWindowDays'],
    ['bookingWindowDays above 365', { bookingWindowDays: 366 }, '/bookingWindowDays'],
    ['maxActiveBookingsPerGuest below 1', { maxActiveBookingsPerGuest: 0 }, '/maxActiveBookingsPerGuest'],
    ['maxActiveBookingsPerGuest above 50', { maxActiveBookingsPerGuest: 51 }, '/maxActiveBookingsPerGuest'],
    ['an unknown field', { maxGuests: 4 }, ''],
  ];

  it.each(cases)('refuses %s with 400 and changes nothing', async (_, body, path) => {
    const location = seededLocation(1).locationId;
    const before = await read(location);
    const out = await call('PUT', at(location), { key: admin(), body });
    expectRefused(out, 400, 'VALIDATION_FAILED');
    if (path) expect(out.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await read(location)).toEqual(before);
  });

  it('refuses an empty body and a malformed location id with 400', async () => {
    expectRefused(
      await call('PUT', at(seededLocation(1).locationId), { key: admin(), body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectRefused(await call('GET', at('abc'), { key: admin() }), 400, 'VALIDATION_FAILED');
  });
});

describe('booking settings: permissions and tenancy', () => {
  it('needs bookings.read to read and bookings.manage to change', async () => {
    const location = seededLocation(0).locationId;
    expectRefused(await call('GET', at(location), { key: await keyWith(['bookings.manage']) }), 403, 'FORBIDDEN');
    const reader = await keyWith(['bookings.read']);
    expect((await call('GET', at(location), { key: reader })).status).toBe(200);
    expectRefused(await call('PUT', at(location), { key: reader, body: { maxPartySize: 9 } }), 403, 'FORBIDDEN');
  });

  it("answers 404 for another company's location and for an unknown one, storing nothing", async () => {
    expectRefused(await call('GET', at(theirLocation()), { key: admin() }), 404, 'NOT_FOUND');
    expectRefused(
      await call('PUT', at(theirLocation()), { key: admin(), body: { maxPartySize: 9 } }),
      404,
      'NOT_FOUND',
    );
    expectRefused(await call('GET', at(999_999), { key: admin() }), 404, 'NOT_FOUND');
    // Company 2 reads its own settings: company 1's PUT did not land there.
    const theirs = await call('GET', at(theirLocation()), { key: theirAdmin() });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.maxPartySize).not.toBe(9);
  });

  it('refuses a key limited to other locations with 403', async () => {
    const [here, there] = [seededLocation(0).locationId, seededLocation(1).locationId];
    const key = await keyWith(['bookings.read', 'bookings.manage'], [here]);
    expect((await call('GET', at(here), { key })).status).toBe(200);
    expectRefused(await call('GET', at(there), { key }), 403, 'FORBIDDEN');
    expectRefused(await call('PUT', at(there), { key, body: { maxPartySize: 9 } }), 403, 'FORBIDDEN');
  });
});
