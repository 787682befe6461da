/**
 * A day's availability for a party (docs/availability.md). Pure: the operation reads the
 * location, its settings, the booking group, the tables and the bookings around the date in one
 * round trip and passes them here with the time.
 *
 * The slots are the local wall times of the date every `slotIntervalMinutes` from 00:00. Each is a
 * stay of `defaultDurationMinutes` of real time from its start (as a booking created without an
 * end lasts), and is available when, in this order, the stay lies within the booking hours
 * (`closed`), within the group's schedule (`group_schedule`), keeps the settings' rules that
 * booking create keeps (rules.ts: `party_size`, `too_soon`, `too_far_ahead`, `guest_limit`), and a
 * table or a set of combinable tables of the pool that seats the party is free for it, buffers
 * kept, or the overbooking buffer still has room for the party (`no_table_fits`). A slot that no
 * free set seats is then asked of re-seating (`withReseating`, reseat.ts): the party may fit once
 * movable bookings move, before the overbooking buffer, as a create tries them.
 */
import type { Booking } from '../../data/bookings';
import type { BookingGroup } from '../../data/bookingGroups';
import type { BookingSettings } from '../../data/bookingSettings';
import type { DiningTable } from '../../data/tables';
import { slotReasons, type SlotReason } from '../../schemas/bookingStates';
import type { OperatingHours } from '../../schemas/locations';
import { holdsByTable, isFree, partySets, seatsNeeded, type TableHolds, type TableSet } from './fit';
import { holdsTables } from './holds';
import { clashes } from './occupancy';
import { brokenRule, type BookingRuleSettings } from './rules';
import { openSpans, wallTimesOfDay, within } from './serviceHours';
import { instantsOfDate, intervalOf, type Interval } from './time';

const MINUTE = 60_000;

export { slotReasons, type SlotReason };

/** The reason each broken booking rule gives a slot. */
const ruleReasons: Record<keyof BookingRuleSettings, SlotReason> = {
  maxPartySize: 'party_size',
  allowedPartySizes: 'party_size',
  minAdvanceHours: 'too_soon',
  maxAdvanceDays: 'too_far_ahead',
  bookingWindowDays: 'too_far_ahead',
  maxActiveBookingsPerGuest: 'guest_limit',
};

/** The settings availability reads. */
type SellingSettings = BookingRuleSettings &
  Pick<
    BookingSettings,
    'slotIntervalMinutes' | 'defaultDurationMinutes' | 'bufferMinutes' | 'overbookingBufferPercentage'
  >;

/** What a booking group changes: its own settings where they differ, its hours, and the tables it sells. */
export interface InForce {
  settings: SellingSettings;
  /** The booking hours: the group's override, else the settings' override, else the location's hours. */
  hours: OperatingHours;
  /** The group's schedule (null: none beyond the hours). */
  schedule: OperatingHours | null;
  /** The tables sold: the group's pool, else every table of the location. */
  tables: DiningTable[];
}

/** The settings, hours and tables in force for the location, or for one of its booking groups. */
export function inForce(
  locationHours: OperatingHours,
  settings: BookingSettings,
  tables: readonly DiningTable[],
  group?: BookingGroup,
): InForce {
  const override = group?.settingsOverride ?? {};
  const merged = { ...settings, ...override };
  return {
    settings: merged,
    hours: override.operatingHours ?? settings.operatingHours ?? locationHours,
    schedule: group?.schedule ?? null,
    tables: group ? tables.filter((t) => group.tableIds.includes(t.id)) : [...tables],
  };
}

/** A booking as availability sees it; its date and lock say whether re-seating may move it (reseat.ts: not without them). */
export type BookingAround = Pick<Booking, 'id' | 'tableIds' | 'startsAt' | 'endsAt' | 'guestCount' | 'status'> &
  Partial<Pick<Booking, 'bookingDate' | 'locked'>>;

export interface AvailabilityRequest {
  date: string;
  zone: string;
  nowMs: number;
  partySize: number;
  rules: InForce;
  /** The location's bookings whose stays could come near the date's (those of the day before and after too). */
  bookings: readonly BookingAround[];
  /** The named guest's active bookings at the location (maxActiveBookingsPerGuest). */
  activeBookingsOfGuest?: number;
}

export interface AvailabilitySlot {
  /** The wall time, HH:MM, as a booking names its start. */
  time: string;
  startsAt: string;
  endsAt: string;
  available: boolean;
  reason?: SlotReason;
  /** Available only by the overbooking buffer: no table is free, the booking would be taken without one. */
  overbooked?: true;
}

/** What is free around the date: the pool's sets for the party, its tables' holds, the stays of bookings without a table. */
interface Floor {
  sets: TableSet[];
  holds: TableHolds;
  unseated: (Interval & { guestCount: number })[];
  /** Guests that may be booked beyond the tables (overbookingBufferPercentage of the pool's seats). */
  overbookable: number;
}

function floorOf(r: AvailabilityRequest): Floor {
  const { tables, settings } = r.rules;
  const active = r.bookings
    .filter(holdsTables)
    .map((b) => ({ id: b.id, tableIds: b.tableIds, guestCount: b.guestCount, ...intervalOf(b) }));
  const seats = tables.reduce((n, t) => n + t.maxCapacity, 0);
  return {
    sets: partySets(tables, r.partySize),
    holds: holdsByTable(active),
    unseated: active.filter((b) => b.tableIds.length === 0),
    overbookable: Math.floor((settings.overbookingBufferPercentage / 100) * seats),
  };
}

/** Free, or else taken by the overbooking buffer, or no table fits. */
function seating(
  floor: Floor,
  r: AvailabilityRequest,
  stay: Interval,
): Pick<AvailabilitySlot, 'available' | 'reason' | 'overbooked'> {
  const buffer = r.rules.settings.bufferMinutes;
  if (floor.sets.some((s) => isFree(floor.holds, s.tableIds, stay, buffer))) return { available: true };
  const overbooked = floor.unseated.reduce(
    (n, b) => n + (clashes({ bookingId: '', ...b }, { bookingId: '', ...stay }, 0) ? seatsNeeded(b.guestCount) : 0),
    0,
  );
  if (floor.sets.length > 0 && overbooked + seatsNeeded(r.partySize) <= floor.overbookable)
    return { available: true, overbooked: true };
  return { available: false, reason: 'no_table_fits' };
}

/** Whether a stay that no free table seats, even re-seated, may still be taken without a table, by the overbooking buffer (as a slot shows `overbooked`). */
export const overbookable = (r: AvailabilityRequest, stay: Interval): boolean =>
  seating(floorOf(r), r, stay).overbooked === true;

/** Whether a slot's answer may change once re-seating is asked: no free set seats it (refused, or taken by the overbooking buffer). */
const reseatable = (s: AvailabilitySlot) => s.reason === 'no_table_fits' || s.overbooked === true;

/** Whether some slot's answer may change once re-seating is asked. */
export const reseatingMatters = (slots: readonly AvailabilitySlot[]): boolean => slots.some(reseatable);

const stayOf = (s: AvailabilitySlot): Interval => ({ startMs: Date.parse(s.startsAt), endMs: Date.parse(s.endsAt) });

/** The stays re-seating is asked about: those of the slots no free set seats. */
export const staysToReseat = (slots: readonly AvailabilitySlot[]): Interval[] => slots.filter(reseatable).map(stayOf);

/**
 * The slots as `daySlots` answers them with `reseats` asked, from those it answered without: a slot
 * no free set seats is available when the party fits once movable bookings move (before the
 * overbooking buffer, as a create tries them). The other slots are as they were.
 */
export const withReseating = (
  slots: readonly AvailabilitySlot[],
  reseats: (stay: Interval) => boolean,
): AvailabilitySlot[] =>
  slots.map((s) => {
    if (!reseatable(s) || !reseats(stayOf(s))) return s;
    return { time: s.time, startsAt: s.startsAt, endsAt: s.endsAt, available: true };
  });

/** The date's slots for the party, each available or with the first reason it is not. */
export function daySlots(r: AvailabilityRequest): AvailabilitySlot[] {
  const { settings, hours, schedule } = r.rules;
  const open = openSpans(hours, r.date, r.zone);
  const scheduled = schedule ? openSpans(schedule, r.date, r.zone) : undefined;
  const floor = floorOf(r);
  const slots: AvailabilitySlot[] = [];
  const instantsOf = instantsOfDate(r.date, r.zone);
  for (const time of wallTimesOfDay(settings.slotIntervalMinutes)) {
    // A wall time the clocks skip is no slot; one they repeat is its first occurrence, as a booking's start is.
    const [startMs] = instantsOf(time);
    if (startMs === undefined) continue;
    const stay = { startMs, endMs: startMs + settings.defaultDurationMinutes * MINUTE };
    const at = { time, startsAt: new Date(stay.startMs).toISOString(), endsAt: new Date(stay.endMs).toISOString() };
    const broken = brokenRule(settings, {
      guestCount: r.partySize,
      startMs,
      nowMs: r.nowMs,
      atTheDoor: false,
      activeBookingsOfGuest: r.activeBookingsOfGuest,
    });
    const reason: SlotReason | undefined = !within(open, stay)
      ? 'closed'
      : scheduled && !within(scheduled, stay)
        ? 'group_schedule'
        : broken && ruleReasons[broken.rule];
    slots.push(reason ? { ...at, available: false, reason } : { ...at, ...seating(floor, r, stay) });
  }
  return slots;
}

/** The available slots after `afterMs` (at most `limit`): what to offer when the time asked for is taken. */
export const nextAvailable = (slots: readonly AvailabilitySlot[], afterMs: number, limit = 3) =>
  slots.filter((s) => s.available && Date.parse(s.startsAt) > afterMs).slice(0, limit);
