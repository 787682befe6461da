/**
 * Whether an entity is available at a moment, from its schedules and their rules: a pure rule, no
 * I/O (docs/schedules.md "The decision rule").
 *
 * - Only active, live (not soft-deleted) schedules count.
 * - A rule *applies* at `checkTime` when the moment's wall time in the location's zone falls in one
 *   of the rule's occurrences (below) and that occurrence's day is within validFrom..validTo (both
 *   included; null: unbounded).
 * - Among the rules that apply, the highest schedule priority wins; at equal priority a rule with
 *   `isAvailable: false` beats one with `isAvailable: true` (ties after that go to the lowest
 *   schedule id, then rule id, so the answer names one rule deterministically).
 * - When no rule applies: unavailable if the counted schedules have at least one available rule
 *   (the entity is offered only in its windows and this moment is outside them); available
 *   otherwise (no schedules, no rules, or only unavailable rules: exceptions to "always").
 *
 * An occurrence is a day D the rule names (its weekday; each day of its date range) and a window
 * on that day: startTime inclusive to endTime exclusive, in wall time. A window whose end is at or
 * before its start runs past midnight into D + 1 (a Friday 22:00-02:00 covers Saturday 01:00; the
 * weekday, the date range and validFrom/validTo all speak of D, the day the window starts). A rule
 * without times covers D whole (00:00 to the next 00:00).
 *
 * Daylight saving: everything is wall time in the location's zone. The check turns `checkTime`
 * into the zone's wall time (which always exists) and compares that. On a spring-forward day the
 * wall times the clocks skip never occur: a 02:00-03:00 window that day never applies, a window
 * starting at 02:30 begins at the jump (03:00 local), one ending at 02:30 ends at the jump. On a
 * fall-back day the repeated hour occurs twice, and a window covering it applies both times.
 */
import { DateTime } from 'luxon';
import type { AvailabilityReason, RuleTiming } from '../../schemas/schedules';

export interface RuleLike extends RuleTiming {
  id: number;
}

export interface ScheduleLike {
  id: number;
  isActive: boolean;
  priority: number;
  deletedAt?: string | null;
  rules: readonly RuleLike[];
}

export interface Availability {
  isAvailable: boolean;
  /**
   * Why the answer is what it is:
   * - `rule`: a rule applies; `decidedBy` names the winner;
   * - `no_schedules`: no active schedule with rules: available;
   * - `outside_schedule`: no rule applies, and some rule is an available window: unavailable;
   * - `no_exception`: no rule applies, and every rule is an unavailable one: available.
   */
  reason: AvailabilityReason;
  decidedBy: { scheduleId: number; ruleId: number; priority: number; isAvailable: boolean } | null;
  /** The wall time the rules were compared with: `checkTime` in the location's zone (ISO, with its offset). */
  localTime: string;
}

/** "HH:MM" or "HH:MM:SS" as minutes of the day, the seconds stripped. */
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** "HH:MM" of "HH:MM" or "HH:MM:SS" (the seconds stripped). */
export const stripSeconds = (time: string): string => time.slice(0, 5);

/** The day before a YYYY-MM-DD date, as YYYY-MM-DD. */
const dayBefore = (date: string): string => DateTime.fromISO(date, { zone: 'UTC' }).minus({ days: 1 }).toISODate()!;

/** 0 = Sunday … 6 = Saturday of a YYYY-MM-DD date. */
const weekdayOf = (date: string): number => DateTime.fromISO(date, { zone: 'UTC' }).weekday % 7;

/** Whether the rule names day D (its weekday or its date range) and D is within its validity. */
function namesDay(rule: RuleLike, day: string): boolean {
  if (rule.validFrom !== null && day < rule.validFrom) return false;
  if (rule.validTo !== null && day > rule.validTo) return false;
  if (rule.ruleType === 'weekly') return rule.weekday === weekdayOf(day);
  return rule.startDate !== null && rule.endDate !== null && rule.startDate <= day && day <= rule.endDate;
}

/**
 * Whether the rule applies at local date `date`, local time `minute` (minutes of the day, with the
 * seconds as a fraction): an occurrence starting that day, or one starting the day before that
 * runs past midnight.
 */
export function ruleApplies(rule: RuleLike, date: string, minute: number): boolean {
  if (rule.startTime === null || rule.endTime === null) return namesDay(rule, date);
  const start = minutesOf(rule.startTime);
  const end = minutesOf(rule.endTime);
  if (end > start) return minute >= start && minute < end && namesDay(rule, date);
  // Past midnight: from start to 24:00 on D, from 00:00 to end on D + 1.
  return (minute >= start && namesDay(rule, date)) || (minute < end && namesDay(rule, dayBefore(date)));
}

/** The local date and minute of the day of an instant in a zone (a wall time that exists). */
function wallTime(checkTime: Date, zone: string): { date: string; minute: number; iso: string } {
  const local = DateTime.fromJSDate(checkTime, { zone });
  if (!local.isValid) throw new Error(`Unknown time zone ${zone}`);
  return {
    date: local.toISODate()!,
    minute: local.hour * 60 + local.minute + local.second / 60 + local.millisecond / 60000,
    iso: local.toISO()!,
  };
}

/** Higher priority first; at equal priority unavailable first; then lowest schedule id, then rule id. */
function beats(a: { schedule: ScheduleLike; rule: RuleLike }, b: { schedule: ScheduleLike; rule: RuleLike }): boolean {
  if (a.schedule.priority !== b.schedule.priority) return a.schedule.priority > b.schedule.priority;
  if (a.rule.isAvailable !== b.rule.isAvailable) return !a.rule.isAvailable;
  if (a.schedule.id !== b.schedule.id) return a.schedule.id < b.schedule.id;
  return a.rule.id < b.rule.id;
}

/** Whether an entity with these schedules is available at `checkTime` in `zone`, and why. */
export function availabilityAt(schedules: readonly ScheduleLike[], zone: string, checkTime: Date): Availability {
  const { date, minute, iso } = wallTime(checkTime, zone);
  const counted = schedules.filter((s) => s.isActive && !s.deletedAt && s.rules.length > 0);
  let winner: { schedule: ScheduleLike; rule: RuleLike } | undefined;
  for (const schedule of counted) {
    for (const rule of schedule.rules) {
      if (!ruleApplies(rule, date, minute)) continue;
      const candidate = { schedule, rule };
      if (!winner || beats(candidate, winner)) winner = candidate;
    }
  }
  if (winner) {
    const { schedule, rule } = winner;
    return {
      isAvailable: rule.isAvailable,
      reason: 'rule',
      decidedBy: {
        scheduleId: schedule.id,
        ruleId: rule.id,
        priority: schedule.priority,
        isAvailable: rule.isAvailable,
      },
      localTime: iso,
    };
  }
  if (counted.length === 0) return { isAvailable: true, reason: 'no_schedules', decidedBy: null, localTime: iso };
  const hasWindows = counted.some((s) => s.rules.some((r) => r.isAvailable));
  return hasWindows
    ? { isAvailable: false, reason: 'outside_schedule', decidedBy: null, localTime: iso }
    : { isAvailable: true, reason: 'no_exception', decidedBy: null, localTime: iso };
}
