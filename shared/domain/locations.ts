/** Locations: a company's restaurants, each with its time zone and its week of operating hours. */
import { IANAZone } from 'luxon';
import type { Principal } from '../auth/principal';
import { nextId } from '../data/ids';
import { contentNames, locationContents, locations, type Location } from '../data/locations';
import { AppError, forbidden, notFound, validationFailed, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CreateLocationBody, ListLocationsQuery, OperatingHours, UpdateLocationBody } from '../schemas/locations';
import { assertLocationAllowed } from './access';
import { changedFields } from './changes';
import { parsePhone } from './contact';
import { isCountryCode } from './countries';
import { bookingsInUse, inUseConflict } from './inUse';
import { hoursProblems, normalizeHours } from './openingHours';

/**
 * An IANA zone name. Fixed offsets (+01:00), which the runtime also accepts, are refused: a
 * restaurant's clock follows its region's daylight-saving rules.
 */
export const isIanaTimeZone = (name: string) => /^[A-Za-z]/.test(name) && IANAZone.isValidZone(name);

function assertValid(input: { timezone?: string; operatingHours?: OperatingHours }): void {
  const problems: FieldProblem[] = [];
  if (input.timezone !== undefined && !isIanaTimeZone(input.timezone))
    problems.push({ path: '/timezone', message: 'is not an IANA time zone name (e.g. Europe/Stockholm)' });
  if (input.operatingHours) problems.push(...hoursProblems(input.operatingHours, '/operatingHours'));
  if (problems.length) throw validationFailed('The location is not valid', problems);
}

/**
 * The contact fields the input names, as stored: `country` an assigned ISO 3166-1 alpha-2 code in
 * upper case, `phone` in E.164 (a local number read in the country the location has after the
 * change); 400 naming each problem.
 */
function checkedContact(
  input: { phone?: string | null; country?: string | null },
  was?: Pick<Location, 'country'>,
): Partial<Pick<Location, 'phone' | 'country'>> {
  const problems: FieldProblem[] = [];
  const out: Partial<Pick<Location, 'phone' | 'country'>> = {};
  if (input.country !== undefined) {
    out.country = input.country === null ? null : input.country.toUpperCase();
    if (out.country !== null && !isCountryCode(out.country))
      problems.push({ path: '/country', message: 'is not an ISO 3166-1 alpha-2 country code (e.g. SE)' });
  }
  if (typeof input.phone === 'string') {
    const parsed = parsePhone(input.phone, out.country !== undefined ? out.country : (was?.country ?? null));
    if (parsed.ok) out.phone = parsed.e164;
    else problems.push({ path: '/phone', message: parsed.problem });
  } else if (input.phone === null) out.phone = null;
  if (problems.length) throw validationFailed('The location is not valid', problems);
  return out;
}

async function current(principal: Principal, locationId: number): Promise<Location> {
  assertLocationAllowed(principal, locationId);
  const found = await locations.get(principal.companyId, locationId);
  if (!found) throw notFound(`Location ${locationId}`);
  return found;
}

/** The company's locations; a credential limited to some locations sees only those. */
export function listLocations(principal: Principal, query: ListLocationsQuery): Promise<Page<Location>> {
  return principal.locationIds
    ? locations.listByIds(principal.companyId, principal.locationIds, query)
    : locations.list(principal.companyId, query);
}

export const getLocation = (principal: Principal, locationId: number): Promise<Location> =>
  current(principal, locationId);

/**
 * Adds a location under the next location id (the seed passes its fixed ids). A credential
 * limited to some locations may not: the new location would not be one of them.
 */
export async function createLocation(principal: Principal, input: CreateLocationBody, id?: number): Promise<Location> {
  if (principal.locationIds) throw forbidden('This credential is limited to some locations and cannot create one');
  assertValid(input);
  const contact = checkedContact(input);
  const now = new Date().toISOString();
  const location: Location = {
    id: id ?? (await nextId('location')),
    name: input.name,
    timezone: input.timezone,
    operatingHours: normalizeHours(input.operatingHours ?? {}),
    address: input.address ?? null,
    phone: contact.phone ?? null,
    country: contact.country ?? null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.create(
    principal.companyId,
    location,
    newEvent(principal.companyId, 'location.created', String(location.id), { ...location }),
  );
  return location;
}

/**
 * Changes the fields given; `operatingHours` replaces the whole week. A change of hours also
 * emits `location.hours.updated` with the new hours, in the same transaction. No change, no write.
 */
export async function updateLocation(
  principal: Principal,
  locationId: number,
  input: UpdateLocationBody,
): Promise<Location> {
  const prev = await current(principal, locationId);
  assertValid(input);
  const contact = checkedContact(input, prev);
  const next: Location = {
    ...prev,
    ...input,
    ...contact,
    operatingHours: input.operatingHours ? normalizeHours(input.operatingHours) : prev.operatingHours,
    version: prev.version + 1,
    updatedAt: new Date().toISOString(),
  };
  const changes = changedFields(prev, next, ['name', 'timezone', 'operatingHours', 'address', 'phone', 'country']);
  if (Object.keys(changes).length === 0) return prev;
  const { companyId } = principal;
  const events = [newEvent(companyId, 'location.updated', String(locationId), { ...next }, changes)];
  if (changes.operatingHours) {
    const hours = { id: locationId, timezone: next.timezone, operatingHours: next.operatingHours };
    events.push(
      newEvent(companyId, 'location.hours.updated', String(locationId), hours, { operatingHours: next.operatingHours }),
    );
  }
  await locations.update(companyId, next, prev.version, events);
  return next;
}

/**
 * 409 naming what keeps the location, read once its delete was refused: its tables, booking
 * groups, coursings, capacity settings, items and variant groups (their counters), and the bookings that use it or its tables from a little
 * before today on (a bounded read; the bookings without a table are also counted). Undefined
 * when nothing does (the refusal was a concurrent change of the location).
 */
async function locationInUse(companyId: number, location: Location): Promise<AppError | undefined> {
  const [contents, inUse] = await Promise.all([
    locations.contents(companyId, location.id),
    bookingsInUse(companyId, { by: 'location', locationId: location.id }),
  ]);
  const held = locationContents.filter((kind) => kind !== 'BOOKING' && contents[kind] > 0);
  const count = Math.max(inUse.found.length, contents.BOOKING);
  if (held.length === 0 && count === 0) return undefined;
  const blockers = held.length
    ? [`it still has ${held.map((k) => `${contentNames[k]} (${contents[k]})`).join(', ')}: delete them`]
    : [];
  return inUseConflict(`Location ${location.id}`, blockers, {
    count,
    atLeast: inUse.more,
    inUse,
    listing: `/api/v1/bookings?locationId=${location.id}`,
  });
}

/**
 * Deletes an empty location: 409 naming what it still has (tables, booking groups, coursings) and
 * the bookings that still use it. Answers what was deleted.
 */
export async function deleteLocation(principal: Principal, locationId: number): Promise<Location> {
  const { companyId } = principal;
  const location = await current(principal, locationId);
  try {
    await locations.remove(
      companyId,
      location,
      newEvent(companyId, 'location.deleted', String(locationId), { ...location }),
    );
  } catch (err) {
    throw (err instanceof AppError && err.code === 'CONFLICT' && (await locationInUse(companyId, location))) || err;
  }
  return location;
}
