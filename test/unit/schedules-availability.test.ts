/**
 * The availability rule (shared/domain/schedules/availability.ts, docs/schedules.md): a table of
 * cases with hand-worked answers, in Europe/Stockholm around its next spring-forward and fall-back
 * Sundays (computed from the zone's rules, test/support/dst.ts: both are always Sundays, the clocks
 * change at 01:00 UTC: 02:00 CET → 03:00 CEST in spring, 03:00 CEST → 02:00 CET in autumn). Every
 * other day is named relative to the spring Sunday S (S-2 is a Friday, S-1 a Saturday, S+1 a
 * Monday), so no date is written for a day that will one day be past. Then the rule's shape
 * checks, and a property test against a brute-force reading of the occurrences.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  availabilityAt,
  ruleApplies,
  type RuleLike,
  type ScheduleLike,
} from '../../shared/domain/schedules/availability';
import { seeded } from '../../shared/domain/bookings/optimizer';
import { normalizedRule, ruleProblems } from '../../shared/domain/schedules/rules';
import { nextFallBack, nextSpringForward } from '../support/dst';

const ZONE = 'Europe/Stockholm';
const S = nextSpringForward(ZONE)!;
const F = nextFallBack(ZONE, DateTime.fromISO(S).toJSDate())!;

/** S + n days (or F + n), as YYYY-MM-DD. */
const s = (n: number) => DateTime.fromISO(S, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
const f = (n: number) => DateTime.fromISO(F, { zone: 'UTC' }).plus({ days: n }).toISODate()!;
/** The instant of a wall time in Stockholm (a time that exists, and the first of a repeated one). */
const local = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toJSDate();
/** The instant of a UTC time on a date (for the wall times a DST change skips or repeats). */
const utc = (date: string, time: string) => new Date(`${date}T${time}Z`);

let nextRuleId = 1;
type RuleOpts = Partial<Pick<RuleLike, 'validFrom' | 'validTo' | 'isAvailable' | 'id'>>;
const weekly = (
  weekday: number,
  startTime: string | null = null,
  endTime: string | null = null,
  o: RuleOpts = {},
): RuleLike => ({
  id: o.id ?? nextRuleId++,
  ruleType: 'weekly',
  weekday,
  startTime,
  endTime,
  startDate: null,
  endDate: null,
  validFrom: o.validFrom ?? null,
  validTo: o.validTo ?? null,
  isAvailable: o.isAvailable ?? true,
});
const range = (
  startDate: string,
  endDate: string,
  startTime: string | null = null,
  endTime: string | null = null,
  o: RuleOpts = {},
): RuleLike => ({
  ...weekly(0, startTime, endTime, o),
  ruleType: 'date_range',
  weekday: null,
  startDate,
  endDate,
});
const off = { isAvailable: false };
const schedule = (
  id: number,
  rules: RuleLike[],
  o: Partial<Pick<ScheduleLike, 'priority' | 'isActive' | 'deletedAt'>> = {},
): ScheduleLike => ({
  id,
  rules,
  priority: o.priority ?? 0,
  isActive: o.isActive ?? true,
  deletedAt: o.deletedAt ?? null,
});

interface Case {
  name: string;
  schedules: ScheduleLike[];
  at: Date;
  available: boolean;
  reason: 'rule' | 'no_schedules' | 'outside_schedule' | 'no_exception';
  /** The rule that decides, when one does: [scheduleId, ruleId]. */
  by?: [number, number];
  zone?: string;
}

const lunchFri = () => [schedule(1, [weekly(5, '11:00', '14:00', { id: 10 })])];
const lateFri = (o: RuleOpts = {}) => [schedule(1, [weekly(5, '22:00', '02:00', { id: 10, ...o })])];

const cases: Case[] = [
  // A weekly window: start included, end excluded.
  {
    name: 'Friday lunch 11:00-14:00, Friday 12:00',
    schedules: lunchFri(),
    at: local(s(-2), '12:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday lunch, at 11:00 (start included)',
    schedules: lunchFri(),
    at: local(s(-2), '11:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday lunch, at 14:00 (end excluded)',
    schedules: lunchFri(),
    at: local(s(-2), '14:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday lunch, at 10:59:59',
    schedules: lunchFri(),
    at: local(s(-2), '10:59:59'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday lunch, the Friday before, 13:59:59',
    schedules: lunchFri(),
    at: local(s(-9), '13:59:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday lunch, Saturday 12:00',
    schedules: lunchFri(),
    at: local(s(-1), '12:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday lunch, Friday 12:00 Stockholm is 06:00 in New York',
    schedules: lunchFri(),
    at: local(s(-2), '12:00'),
    zone: 'America/New_York',
    available: false,
    reason: 'outside_schedule',
  },

  // Past midnight: the weekday is the day the window starts.
  {
    name: 'Friday 22:00-02:00, Friday 23:00',
    schedules: lateFri(),
    at: local(s(-2), '23:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday 22:00-02:00, Saturday 01:00',
    schedules: lateFri(),
    at: local(s(-1), '01:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday 22:00-02:00, Saturday 01:59:59',
    schedules: lateFri(),
    at: local(s(-1), '01:59:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday 22:00-02:00, Saturday 02:00 (end excluded)',
    schedules: lateFri(),
    at: local(s(-1), '02:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday 22:00-02:00, Friday 01:00 (that is Thursday night)',
    schedules: lateFri(),
    at: local(s(-2), '01:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday 22:00-02:00, Saturday 22:30',
    schedules: lateFri(),
    at: local(s(-1), '22:30'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday 18:00-00:00 (until midnight), Friday 23:59',
    schedules: [schedule(1, [weekly(5, '18:00', '00:00', { id: 10 })])],
    at: local(s(-2), '23:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday 18:00-00:00, Saturday 00:00',
    schedules: [schedule(1, [weekly(5, '18:00', '00:00', { id: 10 })])],
    at: local(s(-1), '00:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Monday 06:00-06:00 (24 hours), Tuesday 05:59',
    schedules: [schedule(1, [weekly(1, '06:00', '06:00', { id: 10 })])],
    at: local(s(2), '05:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Monday 06:00-06:00, Tuesday 06:00',
    schedules: [schedule(1, [weekly(1, '06:00', '06:00', { id: 10 })])],
    at: local(s(2), '06:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Monday 06:00-06:00, Monday 05:59',
    schedules: [schedule(1, [weekly(1, '06:00', '06:00', { id: 10 })])],
    at: local(s(1), '05:59'),
    available: false,
    reason: 'outside_schedule',
  },

  // Whole days, and schedules of unavailable rules only.
  {
    name: 'closed on Sundays (only an unavailable rule), Sunday noon',
    schedules: [schedule(1, [weekly(0, null, null, { id: 10, ...off })])],
    at: local(s(-7), '12:00'),
    available: false,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'closed on Sundays, Monday noon: no rule applies, none is a window',
    schedules: [schedule(1, [weekly(0, null, null, { id: 10, ...off })])],
    at: local(s(1), '12:00'),
    available: true,
    reason: 'no_exception',
  },
  {
    name: 'open all Sunday, Saturday 23:59:59',
    schedules: [schedule(1, [weekly(0, null, null, { id: 10 })])],
    at: local(s(-1), '23:59:59'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'open all Sunday, Sunday 00:00',
    schedules: [schedule(1, [weekly(0, null, null, { id: 10 })])],
    at: local(s(-7), '00:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },

  // Date ranges: both ends included; a window past midnight belongs to the day it starts.
  {
    name: 'range S-10..S-3, S-3 23:59 (end day included)',
    schedules: [schedule(1, [range(s(-10), s(-3), null, null, { id: 10 })])],
    at: local(s(-3), '23:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'range S-10..S-3, S-2 00:00',
    schedules: [schedule(1, [range(s(-10), s(-3), null, null, { id: 10 })])],
    at: local(s(-2), '00:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'range S-10..S-3, S-10 00:00 (start day included)',
    schedules: [schedule(1, [range(s(-10), s(-3), null, null, { id: 10 })])],
    at: local(s(-10), '00:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'range S-10..S-3 10:00-12:00, S-5 11:00',
    schedules: [schedule(1, [range(s(-10), s(-3), '10:00', '12:00', { id: 10 })])],
    at: local(s(-5), '11:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'range S-10..S-3 10:00-12:00, S-5 12:30',
    schedules: [schedule(1, [range(s(-10), s(-3), '10:00', '12:00', { id: 10 })])],
    at: local(s(-5), '12:30'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'one-day range S-5 22:00-02:00, S-4 01:00 (spills past its end day)',
    schedules: [schedule(1, [range(s(-5), s(-5), '22:00', '02:00', { id: 10 })])],
    at: local(s(-4), '01:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'one-day range S-5 22:00-02:00, S-5 01:00 (S-6 is not in the range)',
    schedules: [schedule(1, [range(s(-5), s(-5), '22:00', '02:00', { id: 10 })])],
    at: local(s(-5), '01:00'),
    available: false,
    reason: 'outside_schedule',
  },

  // validFrom / validTo: both included, judged on the day an occurrence starts.
  {
    name: 'validFrom the Friday itself, Friday 12:00',
    schedules: [schedule(1, [weekly(5, '11:00', '14:00', { id: 10, validFrom: s(-2) })])],
    at: local(s(-2), '12:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'validFrom the Saturday after, Friday 12:00',
    schedules: [schedule(1, [weekly(5, '11:00', '14:00', { id: 10, validFrom: s(-1) })])],
    at: local(s(-2), '12:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'validTo the Friday itself, Friday 13:59',
    schedules: [schedule(1, [weekly(5, '11:00', '14:00', { id: 10, validTo: s(-2) })])],
    at: local(s(-2), '13:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'validTo the Friday before, Friday 12:00',
    schedules: [schedule(1, [weekly(5, '11:00', '14:00', { id: 10, validTo: s(-9) })])],
    at: local(s(-2), '12:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'Friday 22:00-02:00 validTo Friday, Saturday 01:00 (the occurrence starts Friday)',
    schedules: lateFri({ validTo: s(-2) }),
    at: local(s(-1), '01:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'Friday 22:00-02:00 validFrom Saturday, Saturday 01:00 (its occurrence started Friday)',
    schedules: lateFri({ validFrom: s(-1) }),
    at: local(s(-1), '01:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'range with validTo inside it, the day after validTo',
    schedules: [schedule(1, [range(s(-10), s(-3), null, null, { id: 10, validTo: s(-6) })])],
    at: local(s(-5), '12:00'),
    available: false,
    reason: 'outside_schedule',
  },

  // Priority between schedules; unavailable beats available at equal priority.
  {
    name: 'priority 10 unavailable 12-13 over priority 0 available all Friday, 12:30',
    schedules: [
      schedule(1, [weekly(5, null, null, { id: 10 })]),
      schedule(2, [weekly(5, '12:00', '13:00', { id: 20, ...off })], { priority: 10 }),
    ],
    at: local(s(-2), '12:30'),
    available: false,
    reason: 'rule',
    by: [2, 20],
  },
  {
    name: 'the same, 14:00: only the priority 0 rule applies',
    schedules: [
      schedule(1, [weekly(5, null, null, { id: 10 })]),
      schedule(2, [weekly(5, '12:00', '13:00', { id: 20, ...off })], { priority: 10 }),
    ],
    at: local(s(-2), '14:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'priority 10 available over priority 0 unavailable, 12:30',
    schedules: [
      schedule(1, [weekly(5, null, null, { id: 10 })], { priority: 10 }),
      schedule(2, [weekly(5, '12:00', '13:00', { id: 20, ...off })]),
    ],
    at: local(s(-2), '12:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'equal priority 5: unavailable beats available, 12:30',
    schedules: [
      schedule(1, [weekly(5, '11:00', '14:00', { id: 10 })], { priority: 5 }),
      schedule(2, [weekly(5, '12:00', '13:00', { id: 20, ...off })], { priority: 5 }),
    ],
    at: local(s(-2), '12:30'),
    available: false,
    reason: 'rule',
    by: [2, 20],
  },
  {
    name: 'equal priority within one schedule: its unavailable rule beats its available one',
    schedules: [schedule(1, [weekly(5, null, null, { id: 10 }), weekly(5, '12:00', '13:00', { id: 11, ...off })])],
    at: local(s(-2), '12:30'),
    available: false,
    reason: 'rule',
    by: [1, 11],
  },
  {
    name: 'equal priority, both available: the lowest schedule id names the decision',
    schedules: [
      schedule(7, [weekly(5, null, null, { id: 70 })]),
      schedule(3, [weekly(5, '12:00', '13:00', { id: 30 })]),
    ],
    at: local(s(-2), '12:30'),
    available: true,
    reason: 'rule',
    by: [3, 30],
  },
  {
    name: 'an inactive schedule of higher priority counts for nothing',
    schedules: [
      schedule(1, [weekly(5, null, null, { id: 10 })]),
      schedule(2, [weekly(5, null, null, { id: 20, ...off })], { priority: 99, isActive: false }),
    ],
    at: local(s(-2), '12:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'a soft-deleted schedule counts for nothing',
    schedules: [
      schedule(1, [weekly(5, null, null, { id: 10 })]),
      schedule(2, [weekly(5, null, null, { id: 20, ...off })], { priority: 99, deletedAt: '2020-01-01T00:00:00.000Z' }),
    ],
    at: local(s(-2), '12:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'an inactive window does not make other times unavailable',
    schedules: [schedule(1, [weekly(5, '11:00', '14:00', { id: 10 })], { isActive: false })],
    at: local(s(-2), '20:00'),
    available: true,
    reason: 'no_schedules',
  },
  { name: 'no schedules at all', schedules: [], at: local(s(-2), '12:00'), available: true, reason: 'no_schedules' },
  {
    name: 'an active schedule without rules',
    schedules: [schedule(1, [])],
    at: local(s(-2), '12:00'),
    available: true,
    reason: 'no_schedules',
  },

  // Spring forward (S: 01:00 UTC is 02:00 CET → 03:00 CEST; 02:00-02:59 local never happens).
  {
    name: 'spring: Sunday 02:00-03:00, at 01:59 CET (00:59Z)',
    schedules: [schedule(1, [weekly(0, '02:00', '03:00', { id: 10 })])],
    at: utc(S, '00:59'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'spring: Sunday 02:00-03:00, at the jump (01:00Z = 03:00 CEST): the window never happens',
    schedules: [schedule(1, [weekly(0, '02:00', '03:00', { id: 10 })])],
    at: utc(S, '01:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'spring: Sunday 02:30-04:00 starts at the jump (01:00Z = 03:00 CEST)',
    schedules: [schedule(1, [weekly(0, '02:30', '04:00', { id: 10 })])],
    at: utc(S, '01:00'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'spring: Sunday 01:00-02:30, at 01:59 CET (00:59Z)',
    schedules: [schedule(1, [weekly(0, '01:00', '02:30', { id: 10 })])],
    at: utc(S, '00:59'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'spring: Sunday 01:00-02:30 ends at the jump (01:00Z = 03:00 CEST)',
    schedules: [schedule(1, [weekly(0, '01:00', '02:30', { id: 10 })])],
    at: utc(S, '01:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'spring: Saturday 22:00-03:00, 01:30 CET (00:30Z)',
    schedules: [schedule(1, [weekly(6, '22:00', '03:00', { id: 10 })])],
    at: utc(S, '00:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'spring: Saturday 22:00-03:00, at the jump (01:00Z = 03:00 CEST, end excluded)',
    schedules: [schedule(1, [weekly(6, '22:00', '03:00', { id: 10 })])],
    at: utc(S, '01:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'spring: Sunday 09:00-10:00, 07:30Z is 09:30 CEST',
    schedules: [schedule(1, [weekly(0, '09:00', '10:00', { id: 10 })])],
    at: utc(S, '07:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'spring: Sunday 09:00-10:00, 08:30Z is 10:30 CEST',
    schedules: [schedule(1, [weekly(0, '09:00', '10:00', { id: 10 })])],
    at: utc(S, '08:30'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'spring: Sunday 09:00-10:00, the Sunday before 08:30Z is 09:30 CET',
    schedules: [schedule(1, [weekly(0, '09:00', '10:00', { id: 10 })])],
    at: utc(s(-7), '08:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },

  // Fall back (F: 01:00 UTC is 03:00 CEST → 02:00 CET; 02:00-02:59 local happens twice).
  {
    name: 'autumn: Sunday 02:00-03:00, 02:30 CEST (00:30Z, first pass)',
    schedules: [schedule(1, [weekly(0, '02:00', '03:00', { id: 10 })])],
    at: utc(F, '00:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'autumn: Sunday 02:00-03:00, 02:30 CET (01:30Z, second pass)',
    schedules: [schedule(1, [weekly(0, '02:00', '03:00', { id: 10 })])],
    at: utc(F, '01:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'autumn: Sunday 02:00-03:00, 03:00 CET (02:00Z)',
    schedules: [schedule(1, [weekly(0, '02:00', '03:00', { id: 10 })])],
    at: utc(F, '02:00'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'autumn: Saturday 23:00-02:30, 02:45 CEST (00:45Z)',
    schedules: [schedule(1, [weekly(6, '23:00', '02:30', { id: 10 })])],
    at: utc(F, '00:45'),
    available: false,
    reason: 'outside_schedule',
  },
  {
    name: 'autumn: Saturday 23:00-02:30, 02:15 CET (01:15Z, the hour again)',
    schedules: [schedule(1, [weekly(6, '23:00', '02:30', { id: 10 })])],
    at: utc(F, '01:15'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'autumn: range F..F whole day, 23:30Z the day before is 01:30 CEST on F',
    schedules: [schedule(1, [range(F, F, null, null, { id: 10 })])],
    at: utc(f(-1), '23:30'),
    available: true,
    reason: 'rule',
    by: [1, 10],
  },
  {
    name: 'autumn: range F..F whole day, 23:30Z on F is 00:30 CET the day after',
    schedules: [schedule(1, [range(F, F, null, null, { id: 10 })])],
    at: utc(F, '23:30'),
    available: false,
    reason: 'outside_schedule',
  },
];

describe('availability: the table of hand-worked cases', () => {
  it('has the days it assumes: S and F are Sundays, S-2 a Friday', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(DateTime.fromISO(S).weekday).toBe(7);
    expect(DateTime.fromISO(F).weekday).toBe(7);
    expect(DateTime.fromISO(s(-2)).weekday).toBe(5);
    // The clocks do change at 01:00 UTC on those days.
    expect(DateTime.fromJSDate(utc(S, '00:59'), { zone: ZONE }).toFormat('HH:mm ZZ')).toBe('01:59 +01:00');
    expect(DateTime.fromJSDate(utc(S, '01:00'), { zone: ZONE }).toFormat('HH:mm ZZ')).toBe('03:00 +02:00');
    expect(DateTime.fromJSDate(utc(F, '00:30'), { zone: ZONE }).toFormat('HH:mm ZZ')).toBe('02:30 +02:00');
    expect(DateTime.fromJSDate(utc(F, '01:30'), { zone: ZONE }).toFormat('HH:mm ZZ')).toBe('02:30 +01:00');
  });

  it.each(cases)('$name', (c) => {
    const out = availabilityAt(c.schedules, c.zone ?? ZONE, c.at);
    expect(out.isAvailable).toBe(c.available);
    expect(out.reason).toBe(c.reason);
    expect(out.decidedBy && [out.decidedBy.scheduleId, out.decidedBy.ruleId]).toEqual(c.by ?? null);
    expect(out.localTime).toBe(DateTime.fromJSDate(c.at, { zone: c.zone ?? ZONE }).toISO());
  });
});

describe('rule shapes', () => {
  const problems = (body: Record<string, unknown>) =>
    ruleProblems(normalizedRule(body as never), '/rules/0').map((p) => p.path);

  it('strips seconds and fills unset fields with null, available by default', () => {
    expect(normalizedRule({ ruleType: 'weekly', weekday: 5, startTime: '22:00:59', endTime: '02:00' })).toEqual({
      ruleType: 'weekly',
      weekday: 5,
      startTime: '22:00',
      endTime: '02:00',
      startDate: null,
      endDate: null,
      validFrom: null,
      validTo: null,
      isAvailable: true,
    });
  });

  it('accepts a weekly rule, a date range, with or without a window', () => {
    expect(problems({ ruleType: 'weekly', weekday: 0 })).toEqual([]);
    expect(
      problems({
        ruleType: 'weekly',
        weekday: 6,
        startTime: '22:00',
        endTime: '02:00',
        validFrom: '2026-01-01',
        validTo: '2026-01-01',
      }),
    ).toEqual([]);
    expect(
      problems({
        ruleType: 'date_range',
        startDate: '2026-02-28',
        endDate: '2026-02-28',
        startTime: '10:00',
        endTime: '11:00',
      }),
    ).toEqual([]);
  });

  it('names what each rule type needs or may not have', () => {
    expect(problems({ ruleType: 'weekly' })).toEqual(['/rules/0/weekday']);
    expect(problems({ ruleType: 'weekly', weekday: 1, startDate: '2026-01-01', endDate: '2026-01-02' })).toEqual([
      '/rules/0/startDate',
      '/rules/0/endDate',
    ]);
    expect(problems({ ruleType: 'date_range', weekday: 1 })).toEqual([
      '/rules/0/weekday',
      '/rules/0/startDate',
      '/rules/0/endDate',
    ]);
    expect(problems({ ruleType: 'weekly', weekday: 1, startTime: '10:00' })).toEqual(['/rules/0/endTime']);
    expect(problems({ ruleType: 'weekly', weekday: 1, endTime: '10:00' })).toEqual(['/rules/0/startTime']);
  });

  it('refuses days that do not exist and ranges that end before they start', () => {
    expect(problems({ ruleType: 'date_range', startDate: '2026-02-29', endDate: '2026-13-01' })).toEqual([
      '/rules/0/startDate',
      '/rules/0/endDate',
    ]);
    expect(problems({ ruleType: 'date_range', startDate: '2026-03-02', endDate: '2026-03-01' })).toEqual([
      '/rules/0/endDate',
    ]);
    expect(problems({ ruleType: 'weekly', weekday: 2, validFrom: '2026-03-02', validTo: '2026-03-01' })).toEqual([
      '/rules/0/validTo',
    ]);
    expect(problems({ ruleType: 'date_range', startDate: '2028-02-29', endDate: '2028-02-29' })).toEqual([]);
  });
});

describe('availability: property against a brute-force reading of the occurrences', () => {
  /**
   * The reference: list every occurrence of the rule as an interval of wall minutes counted from a
   * fixed day (day D's window [start, end) shifted by a day when end ≤ start), and test whether the
   * wall minute falls in one. In UTC wall time is the instant, so any instant can be checked.
   */
  const base = DateTime.fromISO('2030-01-01', { zone: 'UTC' });
  const dateOf = (i: number) => base.plus({ days: i }).toISODate()!;
  const hm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

  function reference(rule: RuleLike, at: Date): boolean {
    const wall = (at.getTime() - base.toMillis()) / 60000;
    for (let d = Math.floor(wall / 1440) - 1; d <= Math.floor(wall / 1440); d++) {
      const date = dateOf(d);
      const named =
        rule.ruleType === 'weekly'
          ? DateTime.fromISO(date, { zone: 'UTC' }).weekday % 7 === rule.weekday
          : rule.startDate! <= date && date <= rule.endDate!;
      const valid =
        (rule.validFrom === null || rule.validFrom <= date) && (rule.validTo === null || date <= rule.validTo);
      if (!named || !valid) continue;
      const start =
        rule.startTime === null ? 0 : Number(rule.startTime.slice(0, 2)) * 60 + Number(rule.startTime.slice(3));
      let end = rule.endTime === null ? 1440 : Number(rule.endTime.slice(0, 2)) * 60 + Number(rule.endTime.slice(3));
      if (rule.startTime !== null && end <= start) end += 1440;
      if (wall >= d * 1440 + start && wall < d * 1440 + end) return true;
    }
    return false;
  }

  it('ruleApplies agrees with the reference on 2,000 random rules and instants', { timeout: 60_000 }, () => {
    const rnd = seeded(20301);
    const pick = (n: number) => Math.floor(rnd() * n);
    for (let i = 0; i < 2000; i++) {
      const withTimes = rnd() < 0.8;
      const startMinute = pick(24 * 4) * 15;
      const endMinute = rnd() < 0.1 ? startMinute : pick(24 * 4) * 15;
      const first = pick(60);
      const o: RuleOpts = {
        validFrom: rnd() < 0.3 ? dateOf(pick(60)) : null,
        validTo: rnd() < 0.3 ? dateOf(30 + pick(60)) : null,
      };
      const rule =
        rnd() < 0.5
          ? weekly(pick(7), withTimes ? hm(startMinute) : null, withTimes ? hm(endMinute) : null, o)
          : range(
              dateOf(first),
              dateOf(first + pick(10)),
              withTimes ? hm(startMinute) : null,
              withTimes ? hm(endMinute) : null,
              o,
            );
      const at = new Date(base.toMillis() + pick(100 * 1440) * 60000 + pick(60) * 1000);
      const wall = DateTime.fromJSDate(at, { zone: 'UTC' });
      const minute = wall.hour * 60 + wall.minute + wall.second / 60;
      expect(ruleApplies(rule, wall.toISODate()!, minute), JSON.stringify({ rule, at })).toBe(reference(rule, at));
    }
  });

  it('an unavailable rule that applies, at a priority above all others, always decides unavailable', () => {
    const rnd = seeded(77);
    for (let i = 0; i < 500; i++) {
      const at = new Date(base.toMillis() + Math.floor(rnd() * 30 * 1440) * 60000);
      const others = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, k) =>
        schedule(k + 1, [weekly(Math.floor(rnd() * 7), null, null, { isAvailable: rnd() < 0.5 })], {
          priority: Math.floor(rnd() * 10),
        }),
      );
      const top = Math.max(...others.map((o) => o.priority));
      const blocker = schedule(
        99,
        [weekly(DateTime.fromJSDate(at, { zone: 'UTC' }).weekday % 7, null, null, { ...off, id: 999 })],
        { priority: top + (rnd() < 0.5 ? 0 : 1) },
      );
      const out = availabilityAt([...others, blocker], 'UTC', at);
      expect(out.isAvailable).toBe(false);
      expect(out.decidedBy?.isAvailable).toBe(false);
    }
  });
});
