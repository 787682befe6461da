/**
 * The rules of time-slot capacity (shared/domain/capacity/rules.ts): the slot an instant falls in,
 * the setting in force there (table-driven, answers worked by hand), a setting's own validity, and
 * how an order's claim moves the slot counters.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { CapacitySetting } from '../../shared/data/capacitySettings';
import {
  breaks,
  claimMoves,
  covers,
  effectiveSetting,
  settingProblems,
  slotAt,
  type TimeSlot,
} from '../../shared/domain/capacity/rules';
import { nextFallBack, nextSpringForward } from '../support/dst';

const zone = 'Europe/Stockholm';

/** A setting covering every day, all day, with no limits; `over` changes what a case needs. */
function setting(id: string, over: Partial<CapacitySetting> = {}): CapacitySetting {
  return {
    id,
    locationId: 1,
    name: id,
    validOnDays: [1, 2, 3, 4, 5, 6, 7],
    orderCapacity: null,
    itemCapacity: null,
    priority: 0,
    enabled: true,
    timeStart: null,
    timeEnd: null,
    validFrom: null,
    validTo: null,
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

/** The slot of a local wall time ("2030-05-03T19:07", a Friday) in Stockholm. */
const slotOf = (local: string, interval = 15, z = zone): TimeSlot =>
  slotAt(DateTime.fromISO(local, { zone: z }).toMillis(), z, interval);

/** A wall time on Stockholm's summer time (+02:00), named explicitly: the first of the two 02:xx on the day clocks go back. */
const summerTime = (date: string, time: string) => DateTime.fromISO(`${date}T${time}:00+02:00`).setZone(zone);

// 2030-05-03 is a Friday (ISO weekday 5); 2030-05-04 a Saturday, 2030-05-05 a Sunday, 2030-05-06 a Monday.
const fri = (time: string) => `2030-05-03T${time}`;
const sat = (time: string) => `2030-05-04T${time}`;

describe('slotAt: the slot an instant falls in', () => {
  const cases: [string, string, number, Partial<TimeSlot>][] = [
    [
      '19:07 on a 15-minute grid',
      fri('19:07'),
      15,
      { date: '2030-05-03', weekday: 5, start: '19:00:00', end: '19:15:00', startsAt: '2030-05-03T17:00:00.000Z' },
    ],
    ['a boundary starts its own slot', fri('19:15'), 15, { start: '19:15:00', end: '19:30:00' }],
    ['19:07 on a 90-minute grid from midnight', fri('19:07'), 90, { start: '18:00:00', end: '19:30:00' }],
    ['the last slot of the day ends at 24:00:00', fri('23:50'), 45, { start: '23:15:00', end: '24:00:00' }],
    [
      'midnight starts the next day (and weekday)',
      sat('00:00'),
      30,
      { date: '2030-05-04', weekday: 6, start: '00:00:00', end: '00:30:00' },
    ],
    ['Sunday is weekday 7', '2030-05-05T12:00', 60, { weekday: 7, start: '12:00:00' }],
    ['seconds fall in the slot of their minute', fri('19:14:59'), 15, { start: '19:00:00' }],
  ];
  it.each(cases)('%s', (_, local, interval, expected) => {
    expect(slotOf(local, interval)).toMatchObject({ zone, ...expected });
  });

  it('moves a start the clocks skip to the end of the gap, on the day they spring forward', () => {
    const day = nextSpringForward(zone, new Date('2030-01-01T00:00:00Z'))!; // 02:00 → 03:00
    const at310 = slotOf(`${day}T03:10`, 60);
    expect(at310).toMatchObject({ date: day, start: '03:00:00', end: '04:00:00' });
    expect(Date.parse(at310.startsAt) - Date.parse(slotOf(`${day}T01:10`, 60).startsAt)).toBe(3_600_000); // 01:00 and 03:00 are an hour apart
    expect(slotOf(`${day}T03:10`, 90)).toMatchObject({ start: '03:00:00', end: '04:30:00' });
    expect(slotOf(`${day}T01:59`, 90)).toMatchObject({ start: '01:30:00', end: '03:00:00' });
  });

  it('starts two slots an hour apart at a wall time that happens twice, on the day the clocks go back', () => {
    const day = nextFallBack(zone, new Date('2030-01-01T00:00:00Z'))!; // 03:00 → 02:00
    const first = summerTime(day, '02:10');
    const second = first.plus({ hours: 1 });
    expect(second.toFormat('HH:mm')).toBe('02:10');
    const [a, b] = [first, second].map((t) => slotAt(t.toMillis(), zone, 30));
    expect(a).toMatchObject({ date: day, start: '02:00:00', end: '02:30:00' });
    expect(b).toMatchObject({ date: day, start: '02:00:00', end: '02:30:00' });
    expect(Date.parse(b!.startsAt) - Date.parse(a!.startsAt)).toBe(3_600_000);
    // A 90-minute slot that starts before the repeated hour holds both passes through it: one counter.
    const early = slotAt(DateTime.fromISO(`${day}T01:40`, { zone }).toMillis(), zone, 90);
    const late = slotAt(second.plus({ minutes: 40 }).toMillis(), zone, 90); // 02:50, second pass
    expect(early.start).toBe('01:30:00');
    expect(late.startsAt).toBe(early.startsAt);
  });
});

describe('effectiveSetting: the enabled, covering setting with the lowest priority value', () => {
  const weekdays = [1, 2, 3, 4, 5];
  const cases: [string, CapacitySetting[], string, string | undefined][] = [
    ['no settings: none', [], fri('19:00'), undefined],
    ['one all-day setting', [setting('a')], fri('19:00'), 'a'],
    ['a disabled one never applies', [setting('a', { enabled: false })], fri('19:00'), undefined],
    [
      'a disabled one with a lower value gives way to an enabled one',
      [setting('off', { enabled: false, priority: 0 }), setting('on', { priority: 9 })],
      fri('19:00'),
      'on',
    ],
    [
      'the lower priority value wins',
      [setting('five', { priority: 5 }), setting('one', { priority: 1 })],
      fri('19:00'),
      'one',
    ],
    [
      'priority 0 beats 1000',
      [setting('max', { priority: 1000 }), setting('zero', { priority: 0 })],
      fri('19:00'),
      'zero',
    ],
    [
      'a tie goes to the setting created first, whatever the order given',
      [
        setting('new', { createdAt: '2026-02-01T00:00:00.000Z' }),
        setting('old', { createdAt: '2026-01-15T00:00:00.000Z' }),
      ],
      fri('19:00'),
      'old',
    ],
    ['a tie of priority and age goes to the lower id', [setting('b'), setting('a')], fri('19:00'), 'a'],
    [
      'a better one that does not cover the slot does not count',
      [setting('lunch', { priority: 0, timeStart: '11:00:00', timeEnd: '14:00:00' }), setting('all', { priority: 5 })],
      fri('19:00'),
      'all',
    ],
    ['a day not listed: none', [setting('weekdays', { validOnDays: weekdays })], sat('19:00'), undefined],
    ['a day listed', [setting('weekdays', { validOnDays: weekdays })], fri('19:00'), 'weekdays'],
    [
      'window 11-14: the slot before it',
      [setting('lunch', { timeStart: '11:00:00', timeEnd: '14:00:00' })],
      fri('10:45'),
      undefined,
    ],
    [
      'window 11-14: its first slot',
      [setting('lunch', { timeStart: '11:00:00', timeEnd: '14:00:00' })],
      fri('11:00'),
      'lunch',
    ],
    [
      'window 11-14: its last slot',
      [setting('lunch', { timeStart: '11:00:00', timeEnd: '14:00:00' })],
      fri('13:59'),
      'lunch',
    ],
    [
      'window 11-14: the slot at its end',
      [setting('lunch', { timeStart: '11:00:00', timeEnd: '14:00:00' })],
      fri('14:00'),
      undefined,
    ],
    [
      'a window with seconds: the slot starting before it',
      [setting('odd', { timeStart: '11:00:30', timeEnd: '14:00:00' })],
      fri('11:00'),
      undefined,
    ],
    ['no end: until midnight', [setting('evening', { timeStart: '17:00:00' })], fri('23:59'), 'evening'],
    ['no end: not before the start', [setting('evening', { timeStart: '17:00:00' })], fri('16:45'), undefined],
    ['no start: from midnight', [setting('morning', { timeEnd: '11:00:00' })], fri('00:00'), 'morning'],
    ['no start: not at the end', [setting('morning', { timeEnd: '11:00:00' })], fri('11:00'), undefined],
    [
      'past midnight, Friday 22-02: Friday 22:00',
      [setting('late', { validOnDays: [5], timeStart: '22:00:00', timeEnd: '02:00:00' })],
      fri('22:00'),
      'late',
    ],
    [
      'past midnight, Friday 22-02: Friday 21:45',
      [setting('late', { validOnDays: [5], timeStart: '22:00:00', timeEnd: '02:00:00' })],
      fri('21:45'),
      undefined,
    ],
    [
      "past midnight, Friday 22-02: Saturday 01:45 is Friday's",
      [setting('late', { validOnDays: [5], timeStart: '22:00:00', timeEnd: '02:00:00' })],
      sat('01:45'),
      'late',
    ],
    [
      'past midnight, Friday 22-02: Saturday 02:00 is after it',
      [setting('late', { validOnDays: [5], timeStart: '22:00:00', timeEnd: '02:00:00' })],
      sat('02:00'),
      undefined,
    ],
    [
      'past midnight, Friday 22-02: Saturday 22:00 is not Friday',
      [setting('late', { validOnDays: [5], timeStart: '22:00:00', timeEnd: '02:00:00' })],
      sat('22:00'),
      undefined,
    ],
    [
      'past midnight, Friday 22-02: Friday 01:00 belongs to Thursday',
      [setting('late', { validOnDays: [5], timeStart: '22:00:00', timeEnd: '02:00:00' })],
      fri('01:00'),
      undefined,
    ],
    [
      'past midnight from Sunday runs into Monday',
      [setting('sun', { validOnDays: [7], timeStart: '23:00:00', timeEnd: '01:00:00' })],
      '2030-05-06T00:30',
      'sun',
    ],
    [
      'a window ending at midnight (00:00:00) runs to the end of its day',
      [setting('night', { validOnDays: [5], timeStart: '20:00:00', timeEnd: '00:00:00' })],
      fri('23:45'),
      'night',
    ],
    [
      'a window ending at midnight covers nothing of the next day',
      [setting('night', { validOnDays: [5], timeStart: '20:00:00', timeEnd: '00:00:00' })],
      sat('00:00'),
      undefined,
    ],
    [
      'the last slot of a day and the first of the next belong to their own days',
      [setting('fri', { validOnDays: [5] }), setting('sat', { validOnDays: [6], priority: 1 })],
      sat('00:00'),
      'sat',
    ],
    ['before validFrom', [setting('season', { validFrom: '2030-05-03T17:00:00.000Z' })], fri('18:45'), undefined],
    [
      'at validFrom (a slot starting at it)',
      [setting('season', { validFrom: '2030-05-03T17:00:00.000Z' })],
      fri('19:00'),
      'season',
    ],
    [
      'validFrom inside the slot: the slot starts before it',
      [setting('season', { validFrom: '2030-05-03T17:05:00.000Z' })],
      fri('19:10'),
      undefined,
    ],
    [
      'the last slot before validTo',
      [setting('season', { validTo: '2030-05-03T17:00:00.000Z' })],
      fri('18:45'),
      'season',
    ],
    ['at validTo', [setting('season', { validTo: '2030-05-03T17:00:00.000Z' })], fri('19:00'), undefined],
    [
      'a dated exception beats the standing rule while it is valid',
      [
        setting('standing', { priority: 10 }),
        setting('holiday', { priority: 1, validFrom: '2030-05-03T00:00:00.000Z', validTo: '2030-05-04T00:00:00.000Z' }),
      ],
      fri('19:00'),
      'holiday',
    ],
    [
      'the standing rule again once the exception has ended',
      [
        setting('standing', { priority: 10 }),
        setting('holiday', { priority: 1, validFrom: '2030-05-03T00:00:00.000Z', validTo: '2030-05-04T00:00:00.000Z' }),
      ],
      sat('19:00'),
      'standing',
    ],
  ];
  it.each(cases)('%s', (_, settings, local, expected) => {
    expect(effectiveSetting(settings, slotOf(local))?.id).toBe(expected);
  });

  it('judges a window by wall time on the days the clocks change', () => {
    const spring = nextSpringForward(zone, new Date('2030-01-01T00:00:00Z'))!;
    const fall = nextFallBack(zone, new Date('2030-01-01T00:00:00Z'))!;
    const night = setting('night', { timeStart: '02:00:00', timeEnd: '03:00:00' });
    // Spring: no slot of the skipped hour exists; 03:10 falls in the 03:00 slot, after the window.
    expect(covers(night, slotOf(`${spring}T03:10`, 60))).toBe(false);
    expect(covers(night, slotOf(`${spring}T01:59`, 60))).toBe(false);
    // Fall: both passes through 02:00-03:00 are in the window.
    const first = summerTime(fall, '02:30');
    expect(covers(night, slotAt(first.toMillis(), zone, 30))).toBe(true);
    expect(covers(night, slotAt(first.plus({ hours: 1 }).toMillis(), zone, 30))).toBe(true);
    expect(covers(night, slotAt(first.plus({ hours: 2 }).toMillis(), zone, 30))).toBe(false); // 03:30
  });

  it("reads validOnDays in the location's zone, not in UTC", () => {
    // Saturday 00:30 in Stockholm is still Friday in UTC.
    const saturday = slotOf(sat('00:30'));
    expect(new Date(saturday.startsAt).getUTCDay()).toBe(5);
    expect(effectiveSetting([setting('sat', { validOnDays: [6] })], saturday)?.id).toBe('sat');
    expect(effectiveSetting([setting('fri', { validOnDays: [5] })], saturday)).toBeUndefined();
  });
});

describe('settingProblems: what the schema cannot see', () => {
  const valid: Pick<CapacitySetting, 'timeStart' | 'timeEnd' | 'validFrom' | 'validTo'> = {
    timeStart: null,
    timeEnd: null,
    validFrom: null,
    validTo: null,
  };
  const cases: [string, Partial<typeof valid>, object, string[]][] = [
    ['the whole day', {}, {}, []],
    ['a window', { timeStart: '11:00:00', timeEnd: '14:00:00' }, {}, []],
    ['a window past midnight', { timeStart: '22:00:00', timeEnd: '02:00:00' }, {}, []],
    ['equal times', { timeStart: '11:00:00', timeEnd: '11:00:00' }, { timeStart: 1, timeEnd: 1 }, ['/timeEnd']],
    [
      'equal times, only timeStart sent',
      { timeStart: '11:00:00', timeEnd: '11:00:00' },
      { timeStart: 1 },
      ['/timeStart'],
    ],
    ['an end at midnight with no start is empty', { timeEnd: '00:00:00' }, { timeEnd: 1 }, ['/timeEnd']],
    [
      'validTo before validFrom',
      { validFrom: '2030-05-03T00:00:00.000Z', validTo: '2030-05-02T00:00:00.000Z' },
      { validFrom: 1, validTo: 1 },
      ['/validTo'],
    ],
    [
      'validTo at validFrom, only validFrom sent',
      { validFrom: '2030-05-03T00:00:00.000Z', validTo: '2030-05-03T00:00:00.000Z' },
      { validFrom: 1 },
      ['/validFrom'],
    ],
    ['validFrom alone', { validFrom: '2030-05-03T00:00:00.000Z' }, {}, []],
    [
      'both problems at once',
      {
        timeStart: '11:00:00',
        timeEnd: '11:00:00',
        validFrom: '2030-05-03T00:00:00.000Z',
        validTo: '2030-05-02T00:00:00.000Z',
      },
      {},
      ['/timeEnd', '/validTo'],
    ],
  ];
  it.each(cases)('%s', (_, change, sent, paths) => {
    expect(settingProblems({ ...valid, ...change }, sent).map((p) => p.path)).toEqual(paths);
  });
});

describe('claimMoves and breaks: how an order moves the slot counters', () => {
  const claim = (settingId: string, items: number, slotStartsAt = '2030-05-03T17:00:00.000Z') => ({
    settingId,
    slotStartsAt,
    items,
  });
  const moves: [
    string,
    ReturnType<typeof claim> | null,
    ReturnType<typeof claim> | null,
    { settingId: string; orders: number; items: number }[],
  ][] = [
    ['a new order takes one order and its items', null, claim('a', 3), [{ settingId: 'a', orders: 1, items: 3 }]],
    ['no setting governs: nothing moves', null, null, []],
    [
      'a pre-order grown in the same slot moves only the difference',
      claim('a', 3),
      claim('a', 5),
      [{ settingId: 'a', orders: 0, items: 2 }],
    ],
    ['a pre-order shrunk gives items back', claim('a', 5), claim('a', 2), [{ settingId: 'a', orders: 0, items: -3 }]],
    ['the same items: nothing moves', claim('a', 3), claim('a', 3), []],
    [
      'another setting now governs: give back, then take',
      claim('a', 3),
      claim('b', 4),
      [
        { settingId: 'a', orders: -1, items: -3 },
        { settingId: 'b', orders: 1, items: 4 },
      ],
    ],
    ['no setting governs any more: give back', claim('a', 3), null, [{ settingId: 'a', orders: -1, items: -3 }]],
  ];
  it.each(moves)('%s', (_, before, after, expected) => {
    expect(claimMoves(before, after).map(({ settingId, orders, items }) => ({ settingId, orders, items }))).toEqual(
      expected,
    );
  });

  it('moves to another slot under the same setting when the booking moved', () => {
    expect(claimMoves(claim('a', 3, '2030-05-03T17:00:00.000Z'), claim('a', 3, '2030-05-03T18:00:00.000Z'))).toEqual([
      { settingId: 'a', slotStartsAt: '2030-05-03T17:00:00.000Z', orders: -1, items: -3 },
      { settingId: 'a', slotStartsAt: '2030-05-03T18:00:00.000Z', orders: 1, items: 3 },
    ]);
  });

  const move = (orders: number, items: number) => ({ settingId: 'a', slotStartsAt: 'x', orders, items });
  const limits = (orderCapacity: number | null, itemCapacity: number | null) => ({ orderCapacity, itemCapacity });
  const breaking: [
    string,
    { orders: number; items: number },
    ReturnType<typeof move>,
    ReturnType<typeof limits>,
    string | undefined,
  ][] = [
    ['room left', { orders: 1, items: 4 }, move(1, 2), limits(2, 10), undefined],
    ['the last order place', { orders: 1, items: 0 }, move(1, 1), limits(2, null), undefined],
    ['orders at capacity', { orders: 2, items: 0 }, move(1, 1), limits(2, null), 'orderCapacity'],
    ['items exactly to capacity', { orders: 0, items: 8 }, move(1, 2), limits(null, 10), undefined],
    ['items one past capacity', { orders: 0, items: 9 }, move(1, 2), limits(null, 10), 'itemCapacity'],
    ['no limits', { orders: 500, items: 9000 }, move(1, 50), limits(null, null), undefined],
    ['orderCapacity 0 refuses any order alone', { orders: 0, items: 0 }, move(1, 1), limits(0, null), 'orderCapacity'],
    ['an order larger than itemCapacity alone', { orders: 0, items: 0 }, move(1, 11), limits(null, 10), 'itemCapacity'],
    [
      'a replaced pre-order adds no order, even at orderCapacity',
      { orders: 2, items: 2 },
      move(0, 1),
      limits(2, null),
      undefined,
    ],
    ['giving back is never refused', { orders: 9, items: 99 }, move(-1, -5), limits(2, 10), undefined],
  ];
  it.each(breaking)('breaks: %s', (_, held, m, l, expected) => {
    expect(breaks(held, m, l)).toBe(expected);
  });
});
