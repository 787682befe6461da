/**
 * What availability keeps of a location between calls, in one container (docs/availability.md,
 * “The layout cache”): the location, its settings in force, its tables and the booking groups
 * asked for, kept under the location's layout token (shared/data/layout.ts); with them, the
 * answers re-seating gave on the floors last asked about (the bookings around a date as read). Every write of those
 * writes a new token in the same transaction, and what is kept was read, strongly consistent,
 * after the token it is kept under: so a kept layout whose token is still the location's is the
 * layout as it is now. The bookings, offers and guests are never kept: they are read on every call.
 *
 * At most 500 locations per container, the least recently used dropped first (a 60-table floor is
 * about 30 KB).
 */
import type { BookingGroup } from '../../data/bookingGroups';
import type { BookingSettings } from '../../data/bookingSettings';
import type { Location } from '../../data/locations';
import type { DiningTable } from '../../data/tables';

export interface Layout {
  location: Location;
  settings: BookingSettings;
  tables: DiningTable[];
  /** The booking groups read so far, by id: only those that exist (a group asked for in vain is asked again). */
  groups: Map<string, BookingGroup>;
}

export const LAYOUT_CACHE_LOCATIONS = 500;
/** Floors (the bookings around a date, as read) whose re-seating answers are kept, per location. */
export const ANSWERED_FLOORS = 16;

/** Re-seating's answers on one floor, by stay (`<startMs>/<endMs>`). */
export type ReseatAnswers = Map<string, boolean>;

const kept = new Map<string, { token: string; layout: Layout; answers: Map<string, ReseatAnswers> }>();
const keyOf = (companyId: number, locationId: number) => `${companyId}:${locationId}`;

export const layoutCache = {
  /** The layout kept for the location under this token, if any (it becomes the most recently used). */
  get(companyId: number, locationId: number, token: string): Layout | undefined {
    const key = keyOf(companyId, locationId);
    const entry = kept.get(key);
    if (!entry) return undefined;
    kept.delete(key);
    if (entry.token !== token) return undefined;
    kept.set(key, entry);
    return entry.layout;
  },

  /** Keeps a layout read after `token` was (never one read before it, or alongside). */
  keep(companyId: number, locationId: number, token: string, layout: Layout): void {
    const key = keyOf(companyId, locationId);
    // Shared by every call that finds it: frozen, so no caller can change it for the next.
    for (const t of layout.tables) Object.freeze(t);
    Object.freeze(layout.tables);
    Object.freeze(layout.location);
    Object.freeze(layout.settings);
    kept.delete(key);
    kept.set(key, { token, layout, answers: new Map() });
    if (kept.size > LAYOUT_CACHE_LOCATIONS) kept.delete(kept.keys().next().value!);
  },

  /**
   * The re-seating answers kept for a floor under the layout kept with this token (empty at first),
   * or undefined when the location's layout is not kept under it. `floor` names everything else the
   * answers depend on (floor.ts `floorDigest`): so they are exact while the token is the location's.
   */
  reseatAnswers(companyId: number, locationId: number, token: string, floor: string): ReseatAnswers | undefined {
    const entry = kept.get(keyOf(companyId, locationId));
    if (!entry || entry.token !== token) return undefined;
    const answers = entry.answers.get(floor) ?? new Map<string, boolean>();
    entry.answers.delete(floor);
    entry.answers.set(floor, answers);
    if (entry.answers.size > ANSWERED_FLOORS) entry.answers.delete(entry.answers.keys().next().value!);
    return answers;
  },

  /** How many locations are kept. */
  size: () => kept.size,

  clear: () => kept.clear(),
};
