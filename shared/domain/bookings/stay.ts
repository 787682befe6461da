/**
 * The stay a request names by its start and end wall times, held to what a stay can be
 * (docs/bookings.md, "Time"). Pure:
 * - An `endTime` at or before `startTime` ends the next day only where the booking hours go past
 *   that midnight (an evening that closes after it: 18:00–02:00); anywhere else it is a mistake
 *   (20:00 → 19:00 is not a 23-hour stay): 400 on `/endTime`.
 * - A stay lasts at most MAX_STAY_MINUTES, the longest default duration the booking settings
 *   allow: 400 on `/endTime` naming the cap.
 */
import { validationFailed } from '../../errors';
import type { OperatingHours } from '../../schemas/locations';
import { MAX_DEFAULT_DURATION_MINUTES } from './holds';
import { openSpans } from './serviceHours';
import { localDay, slotOf, type Slot } from './time';

/** The longest stay a booking may name: the bound of `defaultDurationMinutes` (8 hours). */
export const MAX_STAY_MINUTES = MAX_DEFAULT_DURATION_MINUTES;

/** Whether the booking hours keep the location open across the midnight that ends `date` (local). */
export function openPastMidnight(hours: OperatingHours, date: string, zone: string): boolean {
  const midnight = localDay(date, zone).endMs;
  return openSpans(hours, date, zone).some((s) => s.startMs < midnight && midnight < s.endMs);
}

/** The slot from `startTime` to `endTime` on `date`: 400 on `/endTime` for a stay that cannot be (above). */
export function stayOf(
  date: string,
  startTime: string,
  endTime: string,
  zone: string,
  hours: OperatingHours,
): Slot & { endTime: string } {
  if (endTime <= startTime && !openPastMidnight(hours, date, zone)) {
    throw validationFailed(`The booking ends (${endTime}) before it starts (${startTime})`, [
      {
        path: '/endTime',
        message: `must be after startTime (${startTime}): the booking hours on ${date} do not go past midnight, so a stay cannot end the next day`,
      },
    ]);
  }
  const slot = slotOf(date, startTime, endTime, zone);
  if (slot.durationMinutes > MAX_STAY_MINUTES) {
    throw validationFailed(`A booking lasts at most ${MAX_STAY_MINUTES / 60} hours`, [
      {
        path: '/endTime',
        message: `makes a stay of ${slot.durationMinutes} minutes: a stay lasts at most ${MAX_STAY_MINUTES} minutes (${MAX_STAY_MINUTES / 60} hours)`,
      },
    ]);
  }
  return { ...slot, endTime };
}
