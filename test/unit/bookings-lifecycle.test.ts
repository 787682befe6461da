/** The pure helpers the booking operations share (shared/domain/bookings/lifecycle.ts). */
import { describe, expect, it } from 'vitest';
import type { Booking, BookingTab } from '../../shared/data/bookings';
import { activeChange, claimChanges, claimsOf, releaseOf, tabChanges } from '../../shared/domain/bookings/lifecycle';

const tab = (id: string, tableId: string | null, status: BookingTab['status']): BookingTab => ({ id, tableId, status });
const booking = (change: Partial<Booking>): Booking => ({ id: 'b', tableIds: [], tabs: [], status: 'confirmed', ...change }) as Booking;

describe('open-tab claims of a booking', () => {
  it('claims every table for the tab serving it while that tab is open', () => {
    const seated = { tableIds: ['a', 'b', 'c'], tabs: [tab('p', 'a', 'open'), tab('x', 'c', 'pre_arrival')] };
    expect([...claimsOf(seated)]).toEqual([['a', 'p'], ['b', 'p']]);
  });

  it('turns a change of claims into releases, re-pointings and claims for this booking', () => {
    const before = { tableIds: ['a', 'b'], tabs: [tab('p', 'a', 'open')] };
    const after = booking({ tableIds: ['a', 'b', 'c'], tabs: [tab('p', 'a', 'open'), tab('x', 'b', 'open')] });
    expect(claimChanges(before, after)).toEqual([
      { op: 'repoint', tableId: 'b', tabId: 'x', bookingId: 'b' },
      { op: 'claim', tableId: 'c', tabId: 'p', bookingId: 'b' },
    ]);
    expect(claimChanges(after, { ...after, tabs: after.tabs.map((t) => ({ ...t, status: 'closed' as const })) }).map((c) => [c.op, c.tableId])).toEqual([
      ['release', 'a'],
      ['release', 'b'],
      ['release', 'c'],
    ]);
  });
});

describe('tab writes', () => {
  it('conditions each change on the status read, stamping opening and closing', () => {
    const writes = tabChanges([tab('p', 'a', 'pre_arrival'), tab('x', 'b', 'open'), tab('y', 'c', 'open')], [tab('p', 'a', 'open'), tab('x', 'b', 'closed'), tab('y', 'c', 'open')], 'T');
    expect(writes).toEqual([
      { id: 'p', expectedStatus: 'pre_arrival', set: { status: 'open', openedAt: 'T' } },
      { id: 'x', expectedStatus: 'open', set: { status: 'closed', closedAt: 'T' } },
    ]);
    expect(tabChanges([tab('p', 'a', 'open')], [tab('p', 'b', 'pre_arrival')], 'T', true)).toEqual([
      { id: 'p', expectedStatus: 'open', set: { status: 'pre_arrival', tableId: 'b' }, untouched: true },
    ]);
  });
});

describe('the guest\'s active count', () => {
  it('grows with a new active booking (capped when the settings say so) and shrinks when it ends', () => {
    const confirmed = booking({ status: 'confirmed' });
    const grown = activeChange(undefined, confirmed, 3);
    expect(grown).toMatchObject({ delta: 1, cap: { max: 3 } });
    expect(grown.cap!.error()).toMatchObject({ code: 'UNPROCESSABLE', details: [{ path: '/settings/maxActiveBookingsPerGuest' }] });
    expect(activeChange(confirmed, booking({ status: 'seated' }))).toEqual({ delta: 0, cap: undefined });
    expect(activeChange(confirmed, booking({ status: 'cancelled' })).delta).toBe(-1);
    expect(activeChange(booking({ status: 'cancelled' }), booking({ status: 'cancelled' })).delta).toBe(0);
  });
});

describe('releasing a hold', () => {
  it('names the booking\'s tables and the local days its interval touches', () => {
    const late = booking({ tableIds: ['a'], startsAt: '2026-06-01T20:00:00.000Z', endsAt: '2026-06-01T23:00:00.000Z', timezone: 'Europe/Stockholm' });
    expect(releaseOf(late)).toEqual({ tableIds: ['a'], dates: ['2026-06-01', '2026-06-02'] });
  });
});
