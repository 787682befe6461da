/**
 * Whether a location re-optimizes a date after each change (`autoOptimizeEnabled`), as this
 * container last saw it (docs/bookings.md, "Re-optimizing after a change"). A create and a move
 * read the settings anyway and note what they saw; a settings PUT notes the new value; a cancel,
 * which reads no settings, asks here and reads them (one GetItem) only when nothing was seen for
 * the location in the last minute. Another container's PUT is seen within that minute.
 */
import { putBounded } from '../../boundedMap';
import { bookingSettings } from '../../data/bookingSettings';

const TTL_MS = 60_000;
/** Locations remembered per container at most (the oldest noted is dropped first). */
const MAX_LOCATIONS = 10_000;
const seen = new Map<string, { on: boolean; until: number }>();
const keyOf = (companyId: number, locationId: number) => `${companyId}:${locationId}`;

/** Notes the setting as just read or written. */
export function noteAutoOptimize(companyId: number, locationId: number, on: boolean): void {
  putBounded(seen, keyOf(companyId, locationId), { on, until: Date.now() + TTL_MS }, MAX_LOCATIONS);
}

/** The setting as noted within the last minute, else read (and noted). */
export async function autoOptimizes(companyId: number, locationId: number): Promise<boolean> {
  const hit = seen.get(keyOf(companyId, locationId));
  if (hit && hit.until > Date.now()) return hit.on;
  const on = (await bookingSettings.get(companyId, locationId))?.autoOptimizeEnabled === true;
  noteAutoOptimize(companyId, locationId, on);
  return on;
}
