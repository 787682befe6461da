/** What the bookings API tests share: a fresh location with tables, bookings made over HTTP, reads back. */
import { expect } from 'vitest';
import { soonestSpringForward } from '../support/dst';
import { call } from '../support/http';
import { admin, newLocation, newTable } from './setup-helpers';
import type { Schemas } from '../support/client';

export { admin, expectRefused, keyWith, theirAdmin, theirLocation, unknownUuid } from './setup-helpers';

export interface Place {
  id: number;
  timezone: string;
  tables: { id: string; name: string }[];
}

/** A location of company 1 of its own, with `tables` tables and the booking settings given (any test may change it freely). */
export async function newPlace(
  settings: Record<string, unknown> = {},
  tables = 3,
  timezone = 'Europe/Stockholm',
): Promise<Place> {
  const location = await newLocation('Booking bistro', timezone);
  const made = [];
  for (let i = 1; i <= tables; i++)
    made.push(await newTable(location.id, { name: `B${i}`, minCapacity: 1, maxCapacity: 8 }));
  const all = { maxAdvanceDays: 365, ...settings };
  const put = await call('PUT', `/api/v1/locations/${location.id}/booking-settings`, { key: admin(), body: all });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { id: location.id, timezone, tables: made.map((t) => ({ id: t.id, name: t.name as string })) };
}

/** Opening hours from `open` to `close` on every day of the week. */
export const every = (open: string, close: string) =>
  Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ open, close }]]),
  );

/** A location of its own with the tables given (name, min, max), booking hours 17:00-23:00 every day and the settings given. */
export async function sellingFloor(
  tables: [name: string, min: number, max: number][],
  settings: Record<string, unknown> = {},
) {
  const location = await newLocation('Selling bistro');
  const made: Record<string, string> = {};
  for (const [name, minCapacity, maxCapacity] of tables)
    made[name] = (await newTable(location.id, { name, minCapacity, maxCapacity })).id;
  const put = await call('PUT', `/api/v1/locations/${location.id}/booking-settings`, {
    key: admin(),
    body: { maxAdvanceDays: 365, operatingHours: every('17:00', '23:00'), ...settings },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return {
    id: location.id,
    timezone: 'Europe/Stockholm',
    tables: Object.entries(made).map(([name, id]) => ({ id, name })),
    table: (name: string) => made[name]!,
  };
}

/**
 * The next day on which the clocks skip 02:00-03:00, at least two days ahead, and a zone that has
 * it: Europe/Stockholm or Australia/Sydney, whichever comes first, so it is always well inside a
 * booking window of a year (one zone's next spring-forward can be 371 days away).
 */
export const nextSkippedHour = () =>
  soonestSpringForward(['Europe/Stockholm', 'Australia/Sydney'], new Date(Date.now() + 2 * 86_400_000));

/** A local date `days` from today (UTC calendar), as YYYY-MM-DD. */
export const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A walk-in's stay today (a party seated at the door): three hours at midday. A stay crosses
 * midnight only where the booking hours do, and lasts at most 8 hours (docs/bookings.md, "Time").
 */
export const walkInToday = () => ({ bookingDate: dayAhead(0), startTime: '12:00', endTime: '15:00' });

export const bookingBody = (place: Place, extra: Record<string, unknown> = {}) => ({
  locationId: place.id,
  bookingDate: dayAhead(10),
  startTime: '19:00',
  endTime: '21:00',
  timezone: place.timezone,
  guestCount: 2,
  tableIds: place.tables.slice(0, 1).map((t) => t.id),
  guestName: 'Ada Lovelace',
  ...extra,
});

/** Creates a booking (expects 200) and answers it. */
export async function book(
  place: Place,
  extra: Record<string, unknown> = {},
  key = admin(),
): Promise<Schemas['CreatedBooking']> {
  const out = await call('POST', '/api/v1/bookings', { key, body: bookingBody(place, extra) });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  return out.body.data;
}

export const getBooking = async (id: string, key = admin()) =>
  (await call('GET', `/api/v1/bookings/${id}`, { key })).body.data;

/** POST /api/v1/bookings/{id}/<op> */
export const act = (id: string, op: string, body?: unknown, key = admin()) =>
  call('POST', `/api/v1/bookings/${id}/${op}`, { key, ...(body === undefined ? {} : { body }) });

/** The events of `type` about `resourceId` in company 1's event log from `since` (an ISO time taken before the change) on. */
export async function eventsOf(type: string, resourceId: string, since: string): Promise<Schemas['LoggedEvent'][]> {
  const out = await call('GET', `/api/v1/events?type=${type}&since=${since}&limit=100`, { key: admin() });
  expect(out.status).toBe(200);
  return out.body.data.filter((e: { resourceId: string }) => e.resourceId === resourceId);
}
