/**
 * Booking groups: pools of a location's tables (a terrace, a private room) that take bookings on
 * their own schedule and with their own booking settings where these differ from the location's.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { bookingGroups, type BookingGroup, type MissingTable } from '../data/bookingGroups';
import { AppError, notFound, validationFailed } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CreateBookingGroupBody, ListBookingGroupsQuery, UpdateBookingGroupBody } from '../schemas/bookingGroups';
import { bookingSettingsFields, type BookingSettingsOverride } from '../schemas/bookingSettings';
import type { OperatingHours } from '../schemas/locations';
import { assertLocationAllowed } from './access';
import { changedFields } from './changes';
import { hoursProblems, normalizeHours } from './openingHours';
import { listAtLocation } from './tables';

/** The schedule and the override's hours follow the rules of a location's operating hours. */
function assertValid(input: {
  schedule?: OperatingHours | null;
  settingsOverride?: BookingSettingsOverride | null;
}): void {
  const problems = [
    ...(input.schedule ? hoursProblems(input.schedule, '/schedule') : []),
    ...(input.settingsOverride?.operatingHours
      ? hoursProblems(input.settingsOverride.operatingHours, '/settingsOverride/operatingHours')
      : []),
  ];
  if (problems.length) throw validationFailed('The booking group is not valid', problems);
}

/**
 * The stored override: fields in the settings' order, hours in their stored form, so equal
 * overrides compare equal; an empty one is no override (null), as an absent schedule is null.
 */
function normalizeOverride(o: BookingSettingsOverride | null): BookingSettingsOverride | null {
  const fields = Object.keys(bookingSettingsFields).filter((f) => o && f in o) as (keyof BookingSettingsOverride)[];
  if (!o || fields.length === 0) return null;
  return Object.fromEntries(fields.map((f) => [f, f === 'operatingHours' ? normalizeHours(o.operatingHours!) : o[f]]));
}

/** 404 for a table id the location does not have, naming its place in the request's `tableIds`. */
const missingTable =
  (locationId: number, tableIds: string[]): MissingTable =>
  (tableId) =>
    new AppError('NOT_FOUND', `Table ${tableId} not found at location ${locationId}`, [
      { path: `/tableIds/${tableIds.indexOf(tableId)}`, message: 'no table with this id at this location' },
    ]);

async function current(principal: Principal, locationId: number, id: string): Promise<BookingGroup> {
  assertLocationAllowed(principal, locationId);
  const found = await bookingGroups.get(principal.companyId, locationId, id);
  if (!found) throw notFound(`Booking group ${id}`);
  return found;
}

/** The location's booking groups, by name. */
export function listBookingGroups(
  principal: Principal,
  locationId: number,
  query: ListBookingGroupsQuery,
): Promise<Page<BookingGroup>> {
  return listAtLocation(principal, locationId, () => bookingGroups.list(principal.companyId, locationId, query));
}

export const getBookingGroup = (principal: Principal, locationId: number, id: string): Promise<BookingGroup> =>
  current(principal, locationId, id);

export async function createBookingGroup(
  principal: Principal,
  locationId: number,
  input: CreateBookingGroupBody,
): Promise<BookingGroup> {
  assertLocationAllowed(principal, locationId);
  assertValid(input);
  const now = new Date().toISOString();
  const group: BookingGroup = {
    id: randomUUID(),
    locationId,
    name: input.name,
    tableIds: input.tableIds,
    schedule: input.schedule ? normalizeHours(input.schedule) : null,
    settingsOverride: normalizeOverride(input.settingsOverride ?? null),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const { companyId } = principal;
  await bookingGroups.create(
    companyId,
    group,
    missingTable(locationId, input.tableIds),
    newEvent(companyId, 'booking-group.created', group.id, { ...group }),
  );
  return group;
}

/** Changes the fields given; `tableIds`, `schedule` and `settingsOverride` each replace the whole value. No change, no write. */
export async function updateBookingGroup(
  principal: Principal,
  locationId: number,
  id: string,
  input: UpdateBookingGroupBody,
): Promise<BookingGroup> {
  const prev = await current(principal, locationId, id);
  assertValid(input);
  const next: BookingGroup = {
    ...prev,
    ...input,
    schedule: input.schedule === undefined ? prev.schedule : input.schedule && normalizeHours(input.schedule),
    settingsOverride:
      input.settingsOverride === undefined ? prev.settingsOverride : normalizeOverride(input.settingsOverride),
    version: prev.version + 1,
    updatedAt: new Date().toISOString(),
  };
  const changes = changedFields(prev, next, ['name', 'tableIds', 'schedule', 'settingsOverride']);
  if (Object.keys(changes).length === 0) return prev;
  const { companyId } = principal;
  await bookingGroups.update(
    companyId,
    prev,
    next,
    missingTable(locationId, next.tableIds),
    newEvent(companyId, 'booking-group.updated', id, { ...next }, changes),
  );
  return next;
}

/** Deletes the group (its tables stay); answers what was deleted. */
export async function deleteBookingGroup(principal: Principal, locationId: number, id: string): Promise<BookingGroup> {
  const group = await current(principal, locationId, id);
  await bookingGroups.remove(
    principal.companyId,
    group,
    newEvent(principal.companyId, 'booking-group.deleted', id, { ...group }),
  );
  return group;
}
