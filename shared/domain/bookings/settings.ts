/**
 * A location's booking settings (docs/bookings.md): read (the defaults are stored on first read) and
 * changed field by field. Booking operations read them with everything else and take
 * `settingsInForce`, which falls back to the defaults without writing.
 */
import type { Principal } from '../../auth/principal';
import { bookingSettings, DEFAULT_SLOT_INTERVAL_MINUTES, type BookingSettings } from '../../data/bookingSettings';
import { validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import { bookingSettingsFields } from '../../schemas/bookingSettings';
import type { PutBookingSettingsBody } from '../../schemas/bookings';
import { assertLocationAllowed } from '../access';
import { changedFields } from '../changes';
import { hoursProblems, normalizeHours } from '../openingHours';
import { noteAutoOptimize } from './autoOptimize';

/** What a location has before anyone sets its booking settings (confirmation is instant: docs/bookings.md). */
export function defaultSettings(locationId: number, now: string): BookingSettings {
  return {
    locationId,
    bufferMinutes: 15,
    defaultDurationMinutes: 120,
    autoOptimizeEnabled: false,
    sellingPolicyEnabled: false,
    maxPartySize: 20,
    minAdvanceHours: 0,
    maxAdvanceDays: 90,
    allowedPartySizes: [],
    operatingHours: null,
    slotIntervalMinutes: DEFAULT_SLOT_INTERVAL_MINUTES,
    overbookingBufferPercentage: 0,
    confirmationMode: 'instant',
    autoNoShowDelayMinutes: null,
    cancellationPolicyHours: null,
    bookingWindowDays: null,
    maxActiveBookingsPerGuest: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

const settingFields = Object.keys(bookingSettingsFields) as (keyof PutBookingSettingsBody)[];

/** The settings in force at a location, given those stored (the defaults when none are); nothing is written. */
export const settingsInForce = (stored: BookingSettings | undefined, locationId: number): BookingSettings =>
  stored ?? defaultSettings(locationId, new Date().toISOString());

/** GET: the stored settings; a location without any gets the defaults stored (404 for a location the company does not have). */
export async function getBookingSettings(principal: Principal, locationId: number): Promise<BookingSettings> {
  assertLocationAllowed(principal, locationId);
  const stored = await bookingSettings.get(principal.companyId, locationId);
  return (
    stored ?? bookingSettings.storeDefaults(principal.companyId, defaultSettings(locationId, new Date().toISOString()))
  );
}

/** PUT: sets the fields sent, keeps the others; `operatingHours: null` returns to the location's hours. No change, no write. */
export async function putBookingSettings(
  principal: Principal,
  locationId: number,
  input: PutBookingSettingsBody,
): Promise<BookingSettings> {
  assertLocationAllowed(principal, locationId);
  if (input.operatingHours) {
    const problems = hoursProblems(input.operatingHours, '/operatingHours');
    if (problems.length) throw validationFailed('The booking hours are not valid', problems);
  }
  const stored = await bookingSettings.get(principal.companyId, locationId);
  const now = new Date().toISOString();
  const prev = stored ?? defaultSettings(locationId, now);
  const next: BookingSettings = {
    ...prev,
    ...input,
    operatingHours:
      input.operatingHours === undefined
        ? prev.operatingHours
        : input.operatingHours && normalizeHours(input.operatingHours),
    allowedPartySizes: input.allowedPartySizes
      ? [...input.allowedPartySizes].sort((a, b) => a - b)
      : prev.allowedPartySizes,
    version: stored ? prev.version + 1 : 1,
    updatedAt: now,
  };
  const changes = changedFields(prev, next, settingFields);
  if (Object.keys(changes).length === 0) return stored ?? bookingSettings.storeDefaults(principal.companyId, prev);
  const event = newEvent(principal.companyId, 'booking-settings.updated', String(locationId), { ...next }, changes);
  await bookingSettings.put(principal.companyId, next, stored?.version, event);
  noteAutoOptimize(principal.companyId, locationId, next.autoOptimizeEnabled);
  return next;
}
