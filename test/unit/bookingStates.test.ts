/** Every row of the booking state machine (docs/bookings.md, “States”), and every transition it does not list refused with 409. */
import { describe, expect, it } from 'vitest';
import {
  bookingStatuses,
  nextStatus,
  nextTabStatus,
  tabStatuses,
  type BookingOperation,
  type BookingStatus,
  type TabOperation,
} from '../../shared/domain/bookings/states';

const allowed: [BookingStatus, BookingOperation, BookingStatus][] = [
  ['pending', 'confirm', 'confirmed'],
  ['confirmed', 'check-in', 'checked_in'],
  ['confirmed', 'seat', 'seated'],
  ['checked_in', 'seat', 'seated'],
  ['seated', 'complete', 'completed'],
  ['confirmed', 'no-show', 'no_show'],
  ['checked_in', 'no-show', 'no_show'],
  ...bookingStatuses.map((s): [BookingStatus, BookingOperation, BookingStatus] => [s, 'cancel', 'cancelled']),
];
const operations: BookingOperation[] = ['confirm', 'check-in', 'seat', 'unseat', 'complete', 'no-show', 'cancel'];

describe('booking state machine', () => {
  it.each(allowed)('%s --%s--> %s', (from, op, to) => {
    expect(nextStatus(from, op).to).toBe(to);
  });

  it.each(['confirmed', 'checked_in'] as const)('unseat returns a booking seated from %s to it', (before) => {
    expect(nextStatus('seated', 'unseat', before)).toEqual({ to: before, changed: true });
  });

  it('cancelling a cancelled booking succeeds and changes nothing', () => {
    expect(nextStatus('cancelled', 'cancel')).toEqual({ to: 'cancelled', changed: false });
    expect(nextStatus('confirmed', 'cancel')).toEqual({ to: 'cancelled', changed: true });
  });

  const listed = new Set(allowed.map(([from, op]) => `${from}/${op}`).concat(['seated/unseat']));
  const refused = bookingStatuses.flatMap((from) =>
    operations.filter((op) => !listed.has(`${from}/${op}`)).map((op) => [from, op] as const),
  );

  it('refuses every other transition (there are many)', () => {
    expect(refused.length).toBeGreaterThan(30);
  });

  it.each(refused)('refuses %s --%s--> with 409 CONFLICT', (from, op) => {
    expect(() => nextStatus(from, op, 'confirmed')).toThrow(expect.objectContaining({ code: 'CONFLICT', status: 409 }));
  });
});

describe('tab state machine', () => {
  const tabAllowed: [string, TabOperation, string][] = [
    ['pre_arrival', 'open', 'open'],
    ['open', 'return-to-pre-arrival', 'pre_arrival'],
    ['pre_arrival', 'close', 'closed'],
    ['open', 'close', 'closed'],
  ];
  it.each(tabAllowed)('%s --%s--> %s', (from, op, to) => {
    expect(nextTabStatus(from as never, op)).toBe(to);
  });

  const ops: TabOperation[] = ['open', 'return-to-pre-arrival', 'close'];
  const tabRefused = tabStatuses.flatMap((from) =>
    ops.filter((op) => !tabAllowed.some(([f, o]) => f === from && o === op)).map((op) => [from, op] as const),
  );
  it.each(tabRefused)('refuses %s --%s--> with 409', (from, op) => {
    expect(() => nextTabStatus(from, op)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
