import { describe, expect, it } from 'vitest';
import { clashes, firstClash } from '../../shared/domain/bookings/occupancy';
import { newConfirmationCode } from '../../shared/domain/bookings/confirmationCode';
import { CONFIRMATION_PATTERN } from '../../shared/schemas/confirmationCode';
import type { Booking } from '../../shared/data/bookings';
import {
  activeChange,
  assertBookingRules,
  brokenRule,
  type BookingFacts,
  type BookingRuleSettings,
} from '../../shared/domain/bookings/rules';

const HOUR = 3_600_000;
const at = (h: number) => Date.parse('2026-06-01T00:00:00Z') + h * HOUR;

describe('table holds', () => {
  const a = { bookingId: 'a', startMs: at(18), endMs: at(20) };

  it('clash when they overlap', () => {
    expect(clashes(a, { bookingId: 'b', startMs: at(19), endMs: at(21) }, 0)).toBe(true);
    expect(clashes(a, { bookingId: 'b', startMs: at(17), endMs: at(22) }, 0)).toBe(true);
  });

  it('do not clash back to back without a buffer', () => {
    expect(clashes(a, { bookingId: 'b', startMs: at(20), endMs: at(22) }, 0)).toBe(false);
    expect(clashes(a, { bookingId: 'b', startMs: at(16), endMs: at(18) }, 0)).toBe(false);
  });

  it('clash inside the buffer on either side, and not at its edge', () => {
    expect(clashes(a, { bookingId: 'b', startMs: at(20.25), endMs: at(22) }, 30)).toBe(true);
    expect(clashes(a, { bookingId: 'b', startMs: at(20.5), endMs: at(22) }, 30)).toBe(false);
    expect(clashes(a, { bookingId: 'b', startMs: at(16), endMs: at(17.75) }, 30)).toBe(true);
    expect(clashes(a, { bookingId: 'b', startMs: at(16), endMs: at(17.5) }, 30)).toBe(false);
  });

  it("ignore the booking's own hold (moving a booking within its slot)", () => {
    expect(firstClash([a], { ...a, startMs: at(18.5) }, 15)).toBeUndefined();
    expect(firstClash([a], { bookingId: 'b', startMs: at(18.5), endMs: at(19) }, 15)).toBe(a);
  });
});

describe('confirmation codes', () => {
  it('are 18 characters of the unambiguous alphabet', () => {
    const codes = Array.from({ length: 500 }, newConfirmationCode);
    for (const c of codes) expect(c).toMatch(CONFIRMATION_PATTERN);
    expect(codes.every((c) => c.length === 18)).toBe(true);
    expect(new Set(codes).size).toBe(500);
    expect(codes.join('')).not.toMatch(/[01OIL]/);
  });

  it('are accepted at 18 characters and at the 8 of codes issued before, at no other length', () => {
    expect('K7QW3XPM').toMatch(CONFIRMATION_PATTERN);
    expect('K7QW3XPMR4TN8ZCH2D').toMatch(CONFIRMATION_PATTERN);
    for (const length of [7, 9, 17, 19]) expect('A'.repeat(length)).not.toMatch(CONFIRMATION_PATTERN);
    expect('K7QW3XPMR4TN8ZCH2O').not.toMatch(CONFIRMATION_PATTERN);
  });
});

describe('booking rules', () => {
  const settings: BookingRuleSettings = {
    maxPartySize: 8,
    allowedPartySizes: [],
    minAdvanceHours: 2,
    maxAdvanceDays: 30,
    bookingWindowDays: null,
    maxActiveBookingsPerGuest: null,
  };
  const now = at(0);
  const facts = { guestCount: 4, startMs: at(24), nowMs: now, atTheDoor: false };

  it('accepts a booking that keeps every rule', () => {
    expect(brokenRule(settings, facts)).toBeUndefined();
  });

  it.each([
    ['maxPartySize', { guestCount: 9 }, {}],
    ['allowedPartySizes', { guestCount: 3 }, { allowedPartySizes: [2, 4, 6] }],
    ['minAdvanceHours', { startMs: at(1.5) }, {}],
    ['maxAdvanceDays', { startMs: at(24 * 31) }, {}],
    ['bookingWindowDays', { startMs: at(24 * 8) }, { bookingWindowDays: 7 }],
    ['maxActiveBookingsPerGuest', { activeBookingsOfGuest: 2 }, { maxActiveBookingsPerGuest: 2 }],
  ] as [keyof BookingRuleSettings, Partial<BookingFacts>, Partial<BookingRuleSettings>][])(
    'names %s when it is broken',
    (rule, factChange, settingsChange) => {
      expect(brokenRule({ ...settings, ...settingsChange }, { ...facts, ...factChange })?.rule).toBe(rule);
      expect(() => assertBookingRules({ ...settings, ...settingsChange }, { ...facts, ...factChange })).toThrow(
        expect.objectContaining({
          code: 'UNPROCESSABLE',
          details: [expect.objectContaining({ path: `/settings/${rule}` })],
        }),
      );
    },
  );

  it('keeps the edges: exactly the max party, exactly the minimum notice, one guest under the active cap', () => {
    expect(brokenRule(settings, { ...facts, guestCount: 8 })).toBeUndefined();
    expect(brokenRule(settings, { ...facts, startMs: at(2) })).toBeUndefined();
    expect(
      brokenRule({ ...settings, maxActiveBookingsPerGuest: 2 }, { ...facts, activeBookingsOfGuest: 1 }),
    ).toBeUndefined();
  });

  it('does not apply advance rules at the door, nor party sizes to walk-ins of 0', () => {
    expect(brokenRule(settings, { ...facts, startMs: now, atTheDoor: true })).toBeUndefined();
    expect(
      brokenRule({ ...settings, allowedPartySizes: [2] }, { ...facts, guestCount: 0, atTheDoor: true }),
    ).toBeUndefined();
  });
});

describe("the guest's active count", () => {
  const booking = (change: Partial<Booking>): Booking =>
    ({ id: 'b', tableIds: [], tabs: [], status: 'confirmed', ...change }) as Booking;

  it('grows with a new active booking (capped when the settings say so) and shrinks when it ends', () => {
    const confirmed = booking({ status: 'confirmed' });
    const grown = activeChange(undefined, confirmed, 3);
    expect(grown).toMatchObject({ delta: 1, cap: { max: 3 } });
    expect(grown.cap!.error()).toMatchObject({
      code: 'UNPROCESSABLE',
      details: [{ path: '/settings/maxActiveBookingsPerGuest' }],
    });
    expect(activeChange(confirmed, booking({ status: 'seated' }))).toEqual({ delta: 0, cap: undefined });
    expect(activeChange(confirmed, booking({ status: 'cancelled' })).delta).toBe(-1);
    expect(activeChange(booking({ status: 'cancelled' }), booking({ status: 'cancelled' })).delta).toBe(0);
  });
});
