/**
 * When a location takes bookings on a local date, as instants (docs/availability.md, "Hours").
 * Pure. A week of hours (the location's, the booking settings' override, a booking group's
 * override or schedule) is local wall time; an interval that closes at or before it opens ends
 * the next day (18:00–02:00), 24:00 is the end of the day. On a day the clocks change, a
 * boundary the clocks skip is the moment they jump (the first wall time that exists after it),
 * and one that happens twice is its first occurrence, as a booking's own times are (time.ts).
 */
import { DateTime } from 'luxon';
import { weekdays, type OperatingHours } from '../../schemas/locations';
import { instantsOf, localDay, type Interval } from './time';

const DAY_MINUTES = 24 * 60;

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The local date `days` after `date` (YYYY-MM-DD; negative: before). */
export const addDays = (date: string, days: number) =>
  DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate()!;

const weekdayOf = (date: string) => weekdays[DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1]!;

/**
 * The instant of the wall time `minutes` after midnight of `date` (from 24:00 on, of the days
 * after): its first occurrence; in a gap the clocks skip, the first wall time after it that exists.
 */
function wallClockInstant(date: string, minutes: number, zone: string): number {
  // Minute by minute only inside a gap (an hour, rarely more): the loop ends at the first wall time that exists.
  for (let m = minutes; ; m++) {
    const [first] = instantsOf(addDays(date, Math.floor(m / DAY_MINUTES)), hhmm(m % DAY_MINUTES), zone);
    if (first !== undefined) return first;
  }
}

/** Intervals that overlap or touch joined into one (Monday 18:00–24:00 and Tuesday 00:00–02:00 are one evening). */
function merged(spans: Interval[]): Interval[] {
  const out: Interval[] = [];
  for (const s of [...spans].sort((a, b) => a.startMs - b.startMs)) {
    const last = out.at(-1);
    if (last && s.startMs <= last.endMs) last.endMs = Math.max(last.endMs, s.endMs);
    else out.push({ ...s });
  }
  return out;
}

/**
 * The open spans that touch `date`: the intervals of the day before (an evening that goes past
 * midnight), of the day, and of the day after (an evening that goes on into it), merged.
 */
export function openSpans(week: OperatingHours, date: string, zone: string): Interval[] {
  const spans: Interval[] = [];
  for (const offset of [-1, 0, 1]) {
    const day = addDays(date, offset);
    for (const { open, close } of week[weekdayOf(day)] ?? []) {
      const from = minutesOf(open);
      const to = minutesOf(close) > from ? minutesOf(close) : minutesOf(close) + DAY_MINUTES;
      spans.push({ startMs: wallClockInstant(day, from, zone), endMs: wallClockInstant(day, to, zone) });
    }
  }
  return merged(spans).filter((s) => s.endMs > s.startMs);
}

/** Whether the stay lies wholly within one of the spans. */
export const within = (spans: readonly Interval[], stay: Interval) =>
  spans.some((s) => s.startMs <= stay.startMs && stay.endMs <= s.endMs);

/**
 * The date's service: from local midnight on, every span that begins that day, to its close even
 * past midnight (the span of the evening before is cut at midnight). What the objective counts as
 * still sellable (sellable.ts).
 */
export function serviceOf(spans: readonly Interval[], date: string, zone: string): Interval[] {
  const day = localDay(date, zone);
  return spans
    .filter((s) => s.startMs < day.endMs && s.endMs > day.startMs)
    .map((s) => ({ startMs: Math.max(s.startMs, day.startMs), endMs: s.endMs }));
}

/** The wall times of a local date every `stepMinutes` from 00:00, as HH:MM (those the clocks skip included: the caller finds they have no instant). */
export const wallTimesOfDay = (stepMinutes: number): string[] =>
  Array.from({ length: Math.ceil(DAY_MINUTES / stepMinutes) }, (_, i) => hhmm(i * stepMinutes));
