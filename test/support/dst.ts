/**
 * Spring-forward and fall-back days computed from the zone's rules (Luxon), so tests about the
 * skipped or repeated hour never name a date that one day lies in the past.
 */
import { DateTime } from 'luxon';

/** How far ahead to look: every zone that skips an hour does so once a year. */
const SEARCH_DAYS = 2 * 366;

/** Whether local 02:30 exists on the day of `date` in its zone: Luxon moves a time the clocks skip forward. */
const halfPastTwoExists = (date: DateTime) => {
  const t = DateTime.fromObject(
    { year: date.year, month: date.month, day: date.day, hour: 2, minute: 30 },
    { zone: date.zone },
  );
  return t.hour === 2 && t.minute === 30;
};

/** The first local date after `from`'s own local date in `zone` that `changes` says the clocks change on; undefined within two years. */
function firstChangeDay(zone: string, from: Date, changes: (day: DateTime) => boolean): string | undefined {
  const start = DateTime.fromJSDate(from, { zone }).startOf('day');
  if (!start.isValid) throw new Error(`Unknown time zone ${zone}`);
  // Week by week (a zone changes its offset at most twice a year), then day by day in a week whose offset changes.
  for (let week = 0; week * 7 < SEARCH_DAYS; week++) {
    const first = start.plus({ days: week * 7 + 1 });
    if (first.offset === first.plus({ days: 7 }).offset) continue;
    for (let i = 0; i < 7; i++) {
      const day = first.plus({ days: i });
      if (changes(day)) return day.toISODate()!;
    }
  }
  return undefined;
}

/**
 * The first local date after `from`'s own local date in `zone` whose 02:30 does not exist (the
 * clocks jump over it), as YYYY-MM-DD; undefined when the zone skips no such hour within two years.
 */
export const nextSpringForward = (zone: string, from: Date = new Date()): string | undefined =>
  firstChangeDay(zone, from, (day) => !halfPastTwoExists(day));

/**
 * The first local date after `from`'s own local date in `zone` on which the clocks go back (the
 * day is longer than 24 hours, a wall time happens twice), as YYYY-MM-DD; undefined within two years.
 */
export const nextFallBack = (zone: string, from: Date = new Date()): string | undefined =>
  firstChangeDay(zone, from, (day) => day.plus({ days: 1 }).diff(day, 'hours').hours > 24);

/**
 * Of `zones`, the one whose next spring-forward after `from` comes first, and that date. With a
 * northern and a southern zone the answer is never more than about seven months away, so it fits a
 * booking window of a year whatever today is (one zone alone can be 371 days away).
 */
export function soonestSpringForward(zones: string[], from: Date = new Date()): { zone: string; date: string } {
  const found = zones.flatMap((zone) => {
    const date = nextSpringForward(zone, from);
    return date ? [{ zone, date }] : [];
  });
  if (found.length === 0)
    throw new Error(`None of ${zones.join(', ')} skips 02:30 within two years of ${from.toISOString()}`);
  return found.reduce((a, b) => (b.date < a.date ? b : a));
}
