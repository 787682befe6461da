/**
 * The booking-settings rules a new or moved booking must keep (docs/bookings.md). Pure: the caller supplies
 * the settings, the booking's facts and the time. A broken rule is 422 UNPROCESSABLE naming it.
 */
import type { Booking } from '../../data/bookings';
import { unprocessable } from '../../errors';
import { holdsTables } from './holds';

export interface BookingRuleSettings {
  maxPartySize: number;
  allowedPartySizes: number[];
  minAdvanceHours: number;
  maxAdvanceDays: number;
  bookingWindowDays: number | null;
  maxActiveBookingsPerGuest: number | null;
}

export interface BookingFacts {
  guestCount: number;
  startMs: number;
  nowMs: number;
  /** Walk-ins and bookings seated on creation are at the door: advance rules do not apply. */
  atTheDoor: boolean;
  /** The guest's other active bookings (only when the booking names a guest). */
  activeBookingsOfGuest?: number;
}

export interface RuleViolation {
  rule: keyof BookingRuleSettings;
  message: string;
  /** The field the answer names, when it is the request's and not the setting (a start in the past). */
  field?: { path: string; message: string };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The first rule the booking breaks, or undefined. */
export function brokenRule(s: BookingRuleSettings, b: BookingFacts): RuleViolation | undefined {
  if (b.guestCount > s.maxPartySize)
    return { rule: 'maxPartySize', message: `Parties of more than ${s.maxPartySize} cannot be booked` };
  if (s.allowedPartySizes.length > 0 && b.guestCount > 0 && !s.allowedPartySizes.includes(b.guestCount)) {
    return { rule: 'allowedPartySizes', message: `Party sizes accepted: ${s.allowedPartySizes.join(', ')}` };
  }
  if (!b.atTheDoor) {
    const ahead = b.startMs - b.nowMs;
    // A start that has passed breaks any minAdvanceHours, 0 included; the answer says so in words.
    if (ahead < 0)
      return {
        rule: 'minAdvanceHours',
        message: 'Bookings cannot start in the past',
        field: { path: '/startTime', message: 'is in the past: a booking must start later than now' },
      };
    if (ahead < s.minAdvanceHours * HOUR)
      return { rule: 'minAdvanceHours', message: `Bookings must be made at least ${s.minAdvanceHours} hours ahead` };
    if (ahead > s.maxAdvanceDays * DAY)
      return { rule: 'maxAdvanceDays', message: `Bookings can be made at most ${s.maxAdvanceDays} days ahead` };
    if (s.bookingWindowDays !== null && ahead > s.bookingWindowDays * DAY) {
      return { rule: 'bookingWindowDays', message: `The booking window is ${s.bookingWindowDays} days` };
    }
  }
  if (
    s.maxActiveBookingsPerGuest !== null &&
    b.activeBookingsOfGuest !== undefined &&
    b.activeBookingsOfGuest >= s.maxActiveBookingsPerGuest
  ) {
    return tooManyActiveBookings(s.maxActiveBookingsPerGuest);
  }
  return undefined;
}

/** The guest holds `max` active bookings already (where bookings are written, a condition on the guest's count finds it). */
export const tooManyActiveBookings = (max: number): RuleViolation => ({
  rule: 'maxActiveBookingsPerGuest',
  message: `A guest may hold at most ${max} active bookings`,
});

/** 422 naming the broken rule (in the message and as `details[0].path`), or the request's field it names. */
export const ruleError = (broken: RuleViolation) =>
  unprocessable(broken.message, [broken.field ?? { path: `/settings/${broken.rule}`, message: broken.message }]);

export function assertBookingRules(s: BookingRuleSettings, b: BookingFacts): void {
  const broken = brokenRule(s, b);
  if (broken) throw ruleError(broken);
}
/**
 * How the guest's count of active bookings moves from `prev` (none: a new booking) to `next`; when
 * it grows, at most to `max` (maxActiveBookingsPerGuest, kept by a condition on the count).
 */
export const activeChange = (
  prev: Pick<Booking, 'status'> | undefined,
  next: Pick<Booking, 'status'>,
  max: number | null = null,
) => ({
  delta: Number(holdsTables(next)) - Number(prev ? holdsTables(prev) : false),
  cap: max === null ? undefined : { max, error: () => ruleError(tooManyActiveBookings(max)) },
});
