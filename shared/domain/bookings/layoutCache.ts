/**
 * What availability keeps of a location between calls, in one container (docs/availability.md,
 * “The layout cache”): the location, its settings in force, its tables and the booking groups
 * asked for, kept under the location's layout token (shared/data/layout.ts). Every write of those
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

const kept = new Map<string, { token: string; layout: Layout }>();
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
    kept.set(key, { token, layout });
    if (kept.size > LAYOUT_CACHE_LOCATIONS) kept.delete(kept.keys().next().value!);
  },

  /** How many locations are kept. */
  size: () => kept.size,

  clear: () => kept.clear(),
};
