/**
 * Weeks of opening hours (a location's operating hours, a booking group's schedule, the booking
 * settings' override). Pure. An interval is local wall time: `open` HH:MM, `close` HH:MM later the
 * same day, or earlier than `open` when it closes after midnight (18:00–02:00 ends Tuesday 02:00 for
 * a Monday interval), or 24:00 for the end of the day. `open` equal to `close` is refused: it
 * could mean nothing or all day (00:00–24:00 says all day).
 */
import type { FieldProblem } from '../errors';
import { weekdays, type HoursInterval, type OperatingHours, type WeekHours, type Weekday } from '../schemas/locations';

const DAY = 24 * 60;
const WEEK = 7 * DAY;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** One interval placed on the week: minutes from Monday 00:00; `end` may pass the week's end (Sunday night). */
interface Span {
  day: Weekday;
  index: number;
  start: number;
  end: number;
}

function spanOf(day: Weekday, index: number, interval: HoursInterval): Span {
  const open = minutes(interval.open);
  const close = minutes(interval.close);
  const start = weekdays.indexOf(day) * DAY + open;
  return { day, index, start, end: start + (close > open ? close - open : close + DAY - open) };
}

/** Whether two spans share a minute, on a week that wraps from Sunday into Monday. */
const overlap = (a: Span, b: Span) =>
  [-WEEK, 0, WEEK].some((shift) => a.start < b.end + shift && b.start + shift < a.end);

const label = (s: Span, hours: OperatingHours) => {
  const i = hours[s.day]![s.index]!;
  return `${s.day} ${i.open}-${i.close}`;
};

/** The field problems of a week of hours whose shape the schema has checked; `at` is its JSON pointer. */
export function hoursProblems(hours: OperatingHours, at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const spans: Span[] = [];
  for (const day of weekdays) {
    (hours[day] ?? []).forEach((interval, index) => {
      if (interval.open === interval.close) {
        problems.push({
          path: `${at}/${day}/${index}/close`,
          message: 'must differ from open (00:00-24:00 is the whole day)',
        });
      } else {
        spans.push(spanOf(day, index, interval));
      }
    });
  }
  spans.forEach((later, j) => {
    const earlier = spans.slice(0, j).find((s) => overlap(s, later));
    if (earlier)
      problems.push({ path: `${at}/${later.day}/${later.index}`, message: `overlaps ${label(earlier, hours)}` });
  });
  return problems;
}

/** The stored form: all seven days, each day's intervals in order of opening. */
export function normalizeHours(hours: OperatingHours): WeekHours {
  const week = {} as WeekHours;
  for (const day of weekdays) week[day] = [...(hours[day] ?? [])].sort((a, b) => minutes(a.open) - minutes(b.open));
  return week;
}
