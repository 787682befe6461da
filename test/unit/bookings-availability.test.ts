/**
 * A day's availability (shared/domain/bookings/availability.ts), case by case with answers worked
 * out by hand: hours (midnight-crossing, split, none), clock changes, buffers, party sizes at every
 * bound, combinable tables, booking-group pools, schedules and overrides, advance windows, the
 * guest's limit and the overbooking buffer. Dates come from the zone's rules (test/support/dst.ts).
 *
 * Unless a case says otherwise: Europe/Stockholm, an ordinary day (two weeks after the next
 * spring-forward), hours 17:00-23:00 every day, stays of 120 minutes every 15 minutes, a buffer of
 * 15 minutes, one table T1 for 1-4, a party of 2, asked two days ahead.
 */
import { describe, expect, it } from 'vitest';
import type { BookingGroup } from '../../shared/data/bookingGroups';
import type { BookingSettings } from '../../shared/data/bookingSettings';
import type { DiningTable } from '../../shared/data/tables';
import {
  daySlots,
  inForce,
  nextAvailable,
  slotReasons,
  type AvailabilitySlot,
  type BookingAround,
  type SlotReason,
} from '../../shared/domain/bookings/availability';
import { addDays } from '../../shared/domain/bookings/serviceHours';
import { defaultSettings } from '../../shared/domain/bookings/settings';
import { instantOf, instantsOf, instantsOfDate, localDay, slotOf } from '../../shared/domain/bookings/time';
import { weekdays, type WeekHours } from '../../shared/schemas/locations';
import { nextFallBack, nextSpringForward } from '../support/dst';
import { table } from '../support/floors';

const zone = 'Europe/Stockholm';
const springForward = nextSpringForward(zone)!;
const fallBack = nextFallBack(zone)!;
const day = addDays(springForward, 14);
const HOUR = 3_600_000;

const every = (...intervals: [string, string][]): WeekHours =>
  Object.fromEntries(weekdays.map((d) => [d, intervals.map(([open, close]) => ({ open, close }))])) as WeekHours;
const closed = every();

let n = 0;
/** A booking at `date` from `from` to `to` (local; an end at or before the start is the next day). */
const booking = (
  tableIds: string[],
  date: string,
  from: string,
  to: string,
  extra: Partial<BookingAround> = {},
): BookingAround => {
  const slot = slotOf(date, from, to, zone);
  return {
    id: `b${++n}`,
    tableIds,
    startsAt: slot.startsAt,
    endsAt: slot.endsAt,
    guestCount: 2,
    status: 'confirmed',
    ...extra,
  };
};

/** The instant of a local wall time on a date. */
const local = (date: string, time: string) => instantOf(date, time, zone);

type Outcome = 'available' | 'overbooked' | SlotReason | 'absent';

interface Case {
  name: string;
  date?: string;
  hours?: WeekHours;
  settings?: Partial<BookingSettings>;
  tables?: DiningTable[];
  bookings?: BookingAround[];
  group?: Partial<BookingGroup>;
  now?: number;
  party?: number;
  guestActive?: number;
  expect: Record<string, Outcome>;
}

function slotsOf(c: Case): AvailabilitySlot[] {
  const date = c.date ?? day;
  const settings = { ...defaultSettings(1, ''), maxAdvanceDays: 365, ...c.settings };
  const tables = c.tables ?? [table('T1', 1, 4)];
  const group =
    c.group &&
    ({
      id: 'g',
      locationId: 1,
      name: 'G',
      tableIds: tables.map((t) => t.id),
      schedule: null,
      settingsOverride: null,
      createdAt: '',
      updatedAt: '',
      version: 1,
      ...c.group,
    } as BookingGroup);
  return daySlots({
    date,
    zone,
    nowMs: c.now ?? localDay(date, zone).startMs - 48 * HOUR,
    partySize: c.party ?? 2,
    rules: inForce(c.hours ?? every(['17:00', '23:00']), settings, tables, group),
    bookings: c.bookings ?? [],
    ...(c.guestActive !== undefined ? { activeBookingsOfGuest: c.guestActive } : {}),
  });
}

const outcome = (slots: AvailabilitySlot[], time: string): Outcome => {
  const s = slots.find((x) => x.time === time);
  return !s ? 'absent' : s.overbooked ? 'overbooked' : s.available ? 'available' : s.reason!;
};

const two = table('T2', 2, 4);
const six = table('T6', 3, 6);
const pair = [table('A', 2, 4, ['B']), table('B', 2, 4, ['A'])];
const chain = [table('C1', 2, 4, ['C2']), table('C2', 2, 4, ['C1', 'C3']), table('C3', 2, 4, ['C2'])];

const cases: Case[] = [
  // Hours
  { name: 'the first slot is at opening', expect: { '17:00': 'available', '16:45': 'closed' } },
  {
    name: 'the last stay ends at closing; a later one would run past it',
    expect: { '21:00': 'available', '21:15': 'closed', '23:00': 'closed' },
  },
  { name: 'nothing before opening, midnight included', expect: { '00:00': 'closed', '12:00': 'closed' } },
  {
    name: "the settings' booking hours override the location's",
    settings: { operatingHours: every(['18:00', '22:00']) },
    expect: { '17:30': 'closed', '18:00': 'available', '20:00': 'available', '20:15': 'closed' },
  },
  {
    name: 'a split day: lunch and dinner',
    hours: every(['11:00', '14:00'], ['17:00', '23:00']),
    expect: { '11:00': 'available', '12:00': 'available', '12:15': 'closed', '15:00': 'closed', '19:00': 'available' },
  },
  {
    name: 'hours past midnight: a late stay runs into the next day',
    hours: every(['18:00', '02:00']),
    expect: { '23:45': 'available', '23:30': 'available' },
  },
  {
    name: 'hours past midnight: the small hours of the date belong to the evening before',
    hours: every(['18:00', '02:00']),
    expect: { '00:00': 'available', '00:15': 'closed', '02:00': 'closed' },
  },
  {
    name: 'an evening to 24:00 and the next day from 00:00 are one evening',
    hours: every(['00:00', '03:00'], ['18:00', '24:00']),
    expect: { '23:00': 'available', '01:00': 'available', '01:15': 'closed' },
  },
  {
    name: 'a location with no hours: every slot closed',
    hours: closed,
    expect: { '00:00': 'closed', '12:00': 'closed', '19:00': 'closed', '23:45': 'closed' },
  },
  {
    name: 'slots every 30 minutes',
    settings: { slotIntervalMinutes: 30 },
    expect: { '17:30': 'available', '17:15': 'absent', '21:00': 'available' },
  },
  {
    name: 'slots every 90 minutes from midnight',
    settings: { slotIntervalMinutes: 90 },
    expect: { '16:30': 'closed', '18:00': 'available', '19:30': 'available', '21:00': 'available', '17:00': 'absent' },
  },
  {
    name: 'a shorter default stay sells later',
    settings: { defaultDurationMinutes: 90 },
    expect: { '21:30': 'available', '21:45': 'closed' },
  },

  // Clock changes
  {
    name: 'spring forward: the skipped hour has no slots',
    date: springForward,
    hours: every(['00:00', '24:00']),
    expect: { '01:45': 'available', '02:00': 'absent', '02:30': 'absent', '02:45': 'absent', '03:00': 'available' },
  },
  {
    name: 'spring forward: hours that end at 03:00 end an hour after 01:00 by the clock, two in real time',
    date: springForward,
    hours: every(['22:00', '03:00']),
    expect: { '00:00': 'available', '00:15': 'closed' },
  },
  {
    name: 'spring forward: hours that open at a time the clocks skip open when they jump',
    date: springForward,
    hours: every(['02:30', '06:00']),
    expect: { '03:00': 'available', '04:00': 'available', '04:15': 'closed' },
  },
  {
    name: 'fall back: the repeated hour is offered once',
    date: fallBack,
    hours: every(['00:00', '24:00']),
    expect: { '02:00': 'available', '02:30': 'available', '03:00': 'available' },
  },
  // 00:00-03:00 lasts four hours that night: the last stay of 120 minutes starts at 02:00 (its first occurrence).
  {
    name: 'fall back: hours across the repeated hour sell it too',
    date: fallBack,
    hours: every(['00:00', '03:00']),
    expect: { '00:00': 'available', '01:00': 'available', '02:00': 'available', '02:15': 'closed' },
  },

  // Buffers and holds
  {
    name: 'a booking 19:00-21:00 takes the table, with 15 minutes either side',
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    hours: every(['17:00', '24:00']),
    expect: {
      '16:45': 'closed',
      '17:00': 'no_table_fits',
      '19:00': 'no_table_fits',
      '21:00': 'no_table_fits',
      '21:15': 'available',
    },
  },
  {
    name: 'without a buffer, back to back fits',
    settings: { bufferMinutes: 0 },
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    hours: every(['17:00', '24:00']),
    expect: { '17:00': 'available', '17:15': 'no_table_fits', '21:00': 'available' },
  },
  {
    name: 'a buffer of 30 minutes',
    settings: { bufferMinutes: 30 },
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    hours: every(['16:00', '24:00']),
    expect: { '16:30': 'available', '16:45': 'no_table_fits', '21:15': 'no_table_fits', '21:30': 'available' },
  },
  {
    name: 'a cancelled or no-show booking holds nothing',
    bookings: [
      booking(['T1'], day, '19:00', '21:00', { status: 'cancelled' }),
      booking(['T1'], day, '17:00', '19:00', { status: 'no_show' }),
    ],
    expect: { '17:00': 'available', '19:00': 'available' },
  },
  {
    name: 'a seated booking holds its table',
    bookings: [booking(['T1'], day, '19:00', '21:00', { status: 'seated' })],
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: 'a booking of the evening before that runs past midnight holds the table',
    hours: every(['00:00', '24:00']),
    bookings: [booking(['T1'], addDays(day, -1), '23:00', '01:30')],
    expect: { '00:00': 'no_table_fits', '01:30': 'no_table_fits', '01:45': 'available' },
  },
  {
    name: 'a booking just after midnight of the next day keeps the late slots off',
    hours: every(['18:00', '02:00']),
    bookings: [booking(['T1'], addDays(day, 1), '00:15', '02:00')],
    expect: { '22:00': 'available', '22:15': 'no_table_fits' },
  },
  {
    name: 'another free table is enough',
    tables: [table('T1', 1, 4), two],
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    expect: { '19:00': 'available' },
  },

  // Party sizes
  {
    name: 'party of 1: a table whose minimum is 1',
    party: 1,
    tables: [table('T1', 1, 2), two],
    expect: { '19:00': 'available' },
  },
  { name: "party at the largest table's maximum", party: 6, tables: [two, six], expect: { '19:00': 'available' } },
  {
    name: 'party above every table, none combinable',
    party: 7,
    tables: [two, six],
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: "party below every table's minimum",
    party: 2,
    tables: [table('T8', 5, 8)],
    expect: { '19:00': 'no_table_fits' },
  },
  { name: "party at a table's minimum", party: 5, tables: [table('T8', 5, 8)], expect: { '19:00': 'available' } },
  {
    name: 'maxPartySize: one above',
    party: 7,
    settings: { maxPartySize: 6 },
    tables: [table('T8', 5, 8)],
    expect: { '19:00': 'party_size', '12:00': 'closed' },
  },
  {
    name: 'maxPartySize: at it',
    party: 6,
    settings: { maxPartySize: 6 },
    tables: [table('T8', 5, 8)],
    expect: { '19:00': 'available' },
  },
  {
    name: 'allowedPartySizes: a size not listed',
    party: 3,
    settings: { allowedPartySizes: [2, 4] },
    expect: { '19:00': 'party_size' },
  },
  {
    name: 'allowedPartySizes: a size listed',
    party: 4,
    settings: { allowedPartySizes: [2, 4] },
    expect: { '19:00': 'available' },
  },

  // Combinable tables
  { name: 'two combinable four-tops seat eight', party: 8, tables: pair, expect: { '19:00': 'available' } },
  { name: 'two combinable four-tops do not seat nine', party: 9, tables: pair, expect: { '19:00': 'no_table_fits' } },
  {
    name: 'two four-tops that do not combine do not seat eight',
    party: 8,
    tables: [table('A', 2, 4), table('B', 2, 4)],
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: 'three in a row seat twelve though the ends do not touch',
    party: 12,
    tables: chain,
    expect: { '19:00': 'available' },
  },
  {
    name: 'with the middle table taken, the ends do not combine',
    party: 8,
    tables: chain,
    bookings: [booking(['C2'], day, '19:00', '21:00')],
    expect: { '19:00': 'no_table_fits', '21:15': 'closed' },
  },
  {
    name: 'a combination is free only when all its tables are',
    party: 8,
    settings: { bufferMinutes: 0 },
    tables: pair,
    bookings: [booking(['B'], day, '19:00', '21:00')],
    expect: { '17:00': 'available', '17:15': 'no_table_fits', '21:00': 'available' },
  },

  // Booking groups
  {
    name: 'a group sells only its pool',
    tables: [table('T1', 1, 4), two],
    group: { tableIds: ['T1'] },
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    expect: { '17:00': 'no_table_fits', '19:00': 'no_table_fits', '21:00': 'no_table_fits', '21:15': 'closed' },
  },
  {
    name: "a group's pool combines only its own tables",
    party: 8,
    tables: chain,
    group: { tableIds: ['C1', 'C3'] },
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: "a group's schedule narrows the hours",
    group: { schedule: every(['18:00', '21:00']) },
    expect: {
      '17:30': 'group_schedule',
      '18:00': 'available',
      '19:00': 'available',
      '19:15': 'group_schedule',
      '21:15': 'closed',
    },
  },
  {
    name: "a group's settings override its rules",
    party: 5,
    tables: [table('T8', 1, 8)],
    group: { settingsOverride: { maxPartySize: 4 } },
    expect: { '19:00': 'party_size' },
  },
  {
    name: "a group's override of the booking hours",
    group: { settingsOverride: { operatingHours: every(['12:00', '15:00']) } },
    expect: { '12:00': 'available', '13:00': 'available', '13:15': 'closed', '17:00': 'closed' },
  },
  {
    name: "a group's override of the stay and the slots",
    group: { settingsOverride: { defaultDurationMinutes: 60, slotIntervalMinutes: 60 } },
    expect: { '22:00': 'available', '21:30': 'absent' },
  },

  // Advance windows
  {
    name: 'minAdvanceHours: from exactly that far ahead',
    settings: { minAdvanceHours: 2 },
    now: local(day, '16:00'),
    expect: { '17:45': 'too_soon', '18:00': 'available' },
  },
  {
    name: 'a slot already begun is too soon',
    now: local(day, '20:00'),
    expect: { '19:45': 'too_soon', '20:00': 'available' },
  },
  {
    name: 'maxAdvanceDays: up to exactly that far ahead',
    settings: { maxAdvanceDays: 10 },
    now: local(day, '17:00') - 10 * 24 * HOUR,
    expect: { '17:00': 'available', '17:15': 'too_far_ahead' },
  },
  {
    name: 'bookingWindowDays: up to exactly that far ahead',
    settings: { bookingWindowDays: 5 },
    now: local(day, '19:00') - 5 * 24 * HOUR,
    expect: { '19:00': 'available', '19:15': 'too_far_ahead' },
  },
  {
    name: 'advance hours count real time across the skipped hour',
    date: springForward,
    hours: every(['00:00', '24:00']),
    settings: { minAdvanceHours: 2 },
    now: local(springForward, '01:00'),
    expect: { '03:00': 'too_soon', '03:45': 'too_soon', '04:00': 'available' },
  },
  {
    name: 'the advance rules come after the hours',
    settings: { minAdvanceHours: 2 },
    now: local(day, '16:00'),
    expect: { '16:00': 'closed' },
  },

  // The guest's limit
  {
    name: 'maxActiveBookingsPerGuest reached',
    settings: { maxActiveBookingsPerGuest: 2 },
    guestActive: 2,
    expect: { '19:00': 'guest_limit' },
  },
  {
    name: 'maxActiveBookingsPerGuest not reached',
    settings: { maxActiveBookingsPerGuest: 2 },
    guestActive: 1,
    expect: { '19:00': 'available' },
  },
  { name: 'no guest named: no limit', settings: { maxActiveBookingsPerGuest: 1 }, expect: { '19:00': 'available' } },

  // The overbooking buffer
  {
    name: 'no buffer: a full table is no slot',
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: '50 % of 4 seats: a party of 2 may be overbooked',
    settings: { overbookingBufferPercentage: 50 },
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    expect: { '19:00': 'overbooked', '17:00': 'overbooked' },
  },
  {
    name: '50 % of 4 seats: a party of 3 may not',
    party: 3,
    settings: { overbookingBufferPercentage: 50 },
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: 'bookings taken without a table use up the buffer while they last',
    settings: { overbookingBufferPercentage: 50, bufferMinutes: 0 },
    bookings: [booking(['T1'], day, '17:00', '23:00'), booking([], day, '19:00', '21:00')],
    expect: { '17:00': 'overbooked', '17:15': 'no_table_fits', '21:00': 'overbooked' },
  },
  {
    name: 'overbooking never offers a party no table could seat',
    party: 5,
    settings: { overbookingBufferPercentage: 50 },
    bookings: [booking(['T1'], day, '19:00', '21:00')],
    expect: { '19:00': 'no_table_fits' },
  },
  {
    name: 'a free table comes before the buffer',
    settings: { overbookingBufferPercentage: 50 },
    expect: { '19:00': 'available' },
  },
];

describe('availability, case by case', () => {
  it('has at least 40 cases', () => expect(cases.length).toBeGreaterThanOrEqual(40));

  it.each(cases)('$name', (c) => {
    const slots = slotsOf(c);
    const seen = Object.fromEntries(Object.keys(c.expect).map((time) => [time, outcome(slots, time)]));
    expect(seen).toEqual(c.expect);
  });
});

describe('the slots of a day', () => {
  it('are the wall times from 00:00 at the interval, each a stay of the default length', () => {
    const slots = slotsOf({ name: '', expect: {} });
    expect(slots).toHaveLength(96);
    expect(slots[0]).toMatchObject({ time: '00:00', startsAt: new Date(local(day, '00:00')).toISOString() });
    const seven = slots.find((s) => s.time === '19:00')!;
    expect(Date.parse(seven.endsAt) - Date.parse(seven.startsAt)).toBe(2 * HOUR);
    expect(slots.every((s) => s.available || slotReasons.includes(s.reason!))).toBe(true);
  });

  it('are 92 on the spring-forward day and 96 on the fall-back day (the repeated hour once, at its first occurrence)', () => {
    expect(slotsOf({ name: '', date: springForward, expect: {} })).toHaveLength(92);
    const back = slotsOf({ name: '', date: fallBack, expect: {} });
    expect(back).toHaveLength(96);
    const [first, second] = [back.find((s) => s.time === '02:30')!, back.find((s) => s.time === '03:00')!];
    // 02:30 summer time, then 03:00 winter time: 90 minutes apart in real time.
    expect(Date.parse(second.startsAt) - Date.parse(first.startsAt)).toBe(1.5 * HOUR);
  });

  it("find each wall time's instants as instantsOf does, on an ordinary day (one offset) and on both clock-change days", () => {
    for (const date of [
      day,
      addDays(day, 1),
      springForward,
      addDays(springForward, -1),
      fallBack,
      addDays(fallBack, 1),
    ]) {
      const of = instantsOfDate(date, zone);
      for (const time of ['00:00', '01:45', '02:00', '02:30', '03:00', '12:15', '23:45'])
        expect(of(time), `${date} ${time}`).toEqual(instantsOf(date, time, zone));
    }
  });

  it('offer the next available slots after a time', () => {
    const slots = slotsOf({ name: '', bookings: [booking(['T1'], day, '18:00', '20:00')], expect: {} });
    expect(nextAvailable(slots, local(day, '18:00'), 2).map((s) => s.time)).toEqual(['20:15', '20:30']);
  });
});
