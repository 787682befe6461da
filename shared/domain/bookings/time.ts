/**
 * A booking's local date and wall times (in its location's zone) as instants, by the zone's rules
 * (Luxon, IANA data). Decisions, documented in docs/bookings.md:
 * - A wall time that does not exist (the hour skipped when clocks go forward) is refused: 422.
 * - A wall time that happens twice (the hour repeated when clocks go back) means its first
 *   occurrence, the one on summer time.
 * - An end time at or before the start time ends on the next day (22:00-01:00).
 */
import { DateTime, IANAZone } from 'luxon';
import type { Booking } from '../../data/bookings';
import { unprocessable } from '../../errors';

/** A half-open range of instants [startMs, endMs). */
export interface Interval {
  startMs: number;
  endMs: number;
}

/** A booking's interval as instants. */
export const intervalOf = (b: Pick<Booking, 'startsAt' | 'endsAt'>): Interval => ({
  startMs: Date.parse(b.startsAt),
  endMs: Date.parse(b.endsAt),
});

export interface Slot extends Interval {
  /** ISO 8601 UTC with Z. */
  startsAt: string;
  endsAt: string;
  durationMinutes: number;
}

function parts(date: string, time: string) {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { year, month, day, hour, minute };
}

/** Every instant whose wall time in `zone` is date + time: none in a gap, two in an overlap. */
export function instantsOf(date: string, time: string, zone: string): number[] {
  const p = parts(date, time);
  const wallAsUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  // The zone's offset a day either side covers both offsets of any transition on this date.
  const offsets = new Set([-1, 0, 1].map((d) => IANAZone.create(zone).offset(wallAsUtc + d * 86_400_000)));
  const found = [...offsets]
    .map((offsetMinutes) => wallAsUtc - offsetMinutes * 60_000)
    .filter((ms) => {
      const back = DateTime.fromMillis(ms, { zone });
      return (
        back.year === p.year &&
        back.month === p.month &&
        back.day === p.day &&
        back.hour === p.hour &&
        back.minute === p.minute
      );
    });
  return [...new Set(found)].sort((a, b) => a - b);
}

/**
 * instantsOf for many wall times of one date: when the zone keeps one offset from the day before
 * to the day after (no clock change near the date, most days), each wall time is one instant at
 * that offset, found without asking the zone again; otherwise each asks instantsOf.
 */
export function instantsOfDate(date: string, zone: string): (time: string) => number[] {
  const p = parts(date, '00:00');
  const midnightAsUtc = Date.UTC(p.year, p.month - 1, p.day);
  const z = IANAZone.create(zone);
  const offsets = new Set([-1, 0, 1, 2].map((d) => z.offset(midnightAsUtc + d * 86_400_000)));
  if (offsets.size > 1) return (time) => instantsOf(date, time, zone);
  const [offsetMinutes] = [...offsets];
  return (time) => {
    const [hour, minute] = time.split(':').map(Number) as [number, number];
    return [midnightAsUtc + (hour * 60 + minute) * 60_000 - offsetMinutes! * 60_000];
  };
}

/** The instant of a local wall time: its first occurrence; 422 when the zone skips it. */
export function instantOf(date: string, time: string, zone: string, field = 'startTime'): number {
  const [first] = instantsOf(date, time, zone);
  if (first === undefined) {
    throw unprocessable(`${date} ${time} does not exist in ${zone}: the clocks skip it`, [
      { path: `/${field}`, message: `does not exist on ${date} in ${zone} (daylight saving time starts)` },
    ]);
  }
  return first;
}

/** The booking's start and end instants; an end at or before the start is on the next day. */
export function slotOf(date: string, startTime: string, endTime: string, zone: string): Slot {
  const startMs = instantOf(date, startTime, zone, 'startTime');
  const endDate = endTime <= startTime ? DateTime.fromISO(date, { zone: 'UTC' }).plus({ days: 1 }).toISODate()! : date;
  const endMs = instantOf(endDate, endTime, zone, 'endTime');
  return {
    startMs,
    endMs,
    startsAt: new Date(startMs).toISOString(),
    endsAt: new Date(endMs).toISOString(),
    durationMinutes: Math.round((endMs - startMs) / 60_000),
  };
}

/** The slot of a booking given its length instead of its end: the end is `minutes` of real time later, at whatever wall time that is. */
export function slotLasting(
  date: string,
  startTime: string,
  minutes: number,
  zone: string,
): Slot & { endTime: string } {
  const startMs = instantOf(date, startTime, zone, 'startTime');
  const endMs = startMs + minutes * 60_000;
  return {
    startMs,
    endMs,
    startsAt: new Date(startMs).toISOString(),
    endsAt: new Date(endMs).toISOString(),
    durationMinutes: minutes,
    endTime: localDateTime(endMs, zone).time,
  };
}

/** A local day as a half-open range of instants (23 or 25 hours long on DST days). */
export function localDay(date: string, zone: string): { startMs: number; endMs: number } {
  const start = DateTime.fromISO(date, { zone }).startOf('day');
  return { startMs: start.toMillis(), endMs: start.plus({ days: 1 }).toMillis() };
}

/** The local date and HH:MM wall time of an instant. */
export function localDateTime(ms: number, zone: string): { date: string; time: string } {
  const t = DateTime.fromMillis(ms, { zone });
  return { date: t.toISODate()!, time: t.toFormat('HH:mm') };
}
