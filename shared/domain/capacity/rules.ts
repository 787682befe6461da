/**
 * The rules of time-slot capacity (docs/capacity.md), pure: which slot an instant falls in, which capacity
 * setting governs a slot, what makes a setting valid, and how an order's claim on a slot moves the
 * slot's counters. No I/O; docs/capacity.md states each choice.
 */
import { DateTime } from 'luxon';
import type { CapacitySetting, SlotClaim } from '../../data/capacitySettings';
import type { FieldProblem } from '../../errors';

/** A time slot of a location: `intervalMinutes` long on the local day's grid, from local midnight. */
export interface TimeSlot {
  zone: string;
  /** The local date and ISO weekday (1 Monday … 7 Sunday) the slot starts on. */
  date: string;
  weekday: number;
  /** Local wall times, HH:mm:ss, of its start and nominal end (24:00:00 for a slot that ends at midnight). */
  start: string;
  end: string;
  /** The start instant in UTC (ISO 8601 with Z): with the setting, it names the slot's counter. */
  startsAt: string;
  startMs: number;
}

const MINUTES_A_DAY = 24 * 60;
const END_OF_DAY = '24:00:00';
const wallMinute = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;

/**
 * The slot an instant falls in. Slots start every `intervalMinutes` of local wall time from
 * midnight; a start the clocks skip (spring forward) moves to the first instant after the gap,
 * and a wall time that happens twice (fall back) starts two slots, an hour apart, each counted on
 * its own.
 */
export function slotAt(ms: number, zone: string, intervalMinutes: number): TimeSlot {
  const local = DateTime.fromMillis(ms, { zone });
  const startMinute = Math.floor((local.hour * 60 + local.minute) / intervalMinutes) * intervalMinutes;
  const start = local.set({ hour: Math.floor(startMinute / 60), minute: startMinute % 60, second: 0, millisecond: 0 });
  const endMinute = startMinute + intervalMinutes;
  return {
    zone,
    date: start.toISODate()!,
    weekday: start.weekday,
    start: start.toFormat('HH:mm:ss'),
    end: endMinute >= MINUTES_A_DAY ? END_OF_DAY : wallMinute(endMinute),
    startsAt: new Date(start.toMillis()).toISOString(),
    startMs: start.toMillis(),
  };
}

/** A setting's daily window as wall times: a null start is midnight, a null end the end of the day. */
function windowOf(s: Pick<CapacitySetting, 'timeStart' | 'timeEnd'>): { from: string; to: string } {
  return { from: s.timeStart ?? '00:00:00', to: s.timeEnd ?? END_OF_DAY };
}

const previousWeekday = (weekday: number) => (weekday === 1 ? 7 : weekday - 1);

/**
 * Whether a setting's days, window and validity cover the slot (enabled or not). The slot is
 * judged by its start. A window whose end is earlier than its start runs past midnight and
 * belongs to the day it starts on: Friday 22:00:00-02:00:00 covers Saturday 01:00.
 */
export function covers(s: CapacitySetting, slot: TimeSlot): boolean {
  if (s.validFrom !== null && slot.startMs < Date.parse(s.validFrom)) return false;
  if (s.validTo !== null && slot.startMs >= Date.parse(s.validTo)) return false;
  const { from, to } = windowOf(s);
  const on = (weekday: number) => s.validOnDays.includes(weekday);
  if (from < to) return on(slot.weekday) && from <= slot.start && slot.start < to;
  return (on(slot.weekday) && slot.start >= from) || (on(previousWeekday(slot.weekday)) && slot.start < to);
}

/** Lower priority first; a tie goes to the setting created first, then to the lower id. */
function byPrecedence(a: CapacitySetting, b: CapacitySetting): number {
  return a.priority - b.priority || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

/** The setting in force in a slot: the enabled one covering it with the lowest priority value; none when none covers it. */
export function effectiveSetting(settings: readonly CapacitySetting[], slot: TimeSlot): CapacitySetting | undefined {
  return settings.filter((s) => s.enabled && covers(s, slot)).sort(byPrecedence)[0];
}

/**
 * What makes a setting invalid beyond its schema: a window whose start and end are the same wall
 * time (no time, or the whole day?), and a validity that ends before it starts. Each problem is
 * reported on the field the request sent (`sent`), the later one when it sent both.
 */
export function settingProblems(
  s: Pick<CapacitySetting, 'timeStart' | 'timeEnd' | 'validFrom' | 'validTo'>,
  sent: object,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const named = (first: string, later: string) => (later in sent || !(first in sent) ? `/${later}` : `/${first}`);
  const { from, to } = windowOf(s);
  if (from === to)
    problems.push({
      path: named('timeStart', 'timeEnd'),
      message: `the window ${from}-${to} is empty: timeStart and timeEnd must differ (leave both null for the whole day)`,
    });
  if (s.validFrom !== null && s.validTo !== null && Date.parse(s.validFrom) >= Date.parse(s.validTo)) {
    problems.push({ path: named('validFrom', 'validTo'), message: 'validTo must be after validFrom' });
  }
  return problems;
}

/** How one slot counter moves: `orders` and `items` to add (negative to give back). */
export interface CounterMove {
  settingId: string;
  slotStartsAt: string;
  orders: number;
  items: number;
}

const sameCounter = (a: SlotClaim, b: SlotClaim) => a.settingId === b.settingId && a.slotStartsAt === b.slotStartsAt;

/**
 * The counter moves of an order's claim changing from `before` to `after` (a new order: from
 * null; a pre-order replaced: from what it claimed). Within one counter only the difference moves;
 * otherwise the old claim is given back and the new one taken.
 */
export function claimMoves(before: SlotClaim | null, after: SlotClaim | null): CounterMove[] {
  if (before && after && sameCounter(before, after)) {
    const items = after.items - before.items;
    return items === 0 ? [] : [{ settingId: after.settingId, slotStartsAt: after.slotStartsAt, orders: 0, items }];
  }
  return [
    ...(before
      ? [{ settingId: before.settingId, slotStartsAt: before.slotStartsAt, orders: -1, items: -before.items }]
      : []),
    ...(after ? [{ settingId: after.settingId, slotStartsAt: after.slotStartsAt, orders: 1, items: after.items }] : []),
  ];
}

/**
 * Which limit a slot holding `held` breaks once `move` is added (undefined: it fits). With nothing
 * held it says what a move breaks alone (an orderCapacity of 0, more items than itemCapacity).
 */
export function breaks(
  held: { orders: number; items: number },
  move: CounterMove,
  s: Pick<CapacitySetting, 'orderCapacity' | 'itemCapacity'>,
): 'orderCapacity' | 'itemCapacity' | undefined {
  if (move.orders > 0 && s.orderCapacity !== null && held.orders + move.orders > s.orderCapacity)
    return 'orderCapacity';
  if (move.items > 0 && s.itemCapacity !== null && held.items + move.items > s.itemCapacity) return 'itemCapacity';
  return undefined;
}
