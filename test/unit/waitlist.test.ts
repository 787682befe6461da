/**
 * The waitlist's pure rules: the entry's state machine (every action from every status), an
 * offer's lapse and how an entry reads once it has lapsed (shared/domain/waitlist/states.ts), and
 * holds that lapse by themselves in the table days (shared/domain/bookings/holds.ts).
 */
import { describe, expect, it } from 'vitest';
import type { TableDay } from '../../shared/data/tableDays';
import { waitlistStatuses, type WaitlistEntry, type WaitlistStatus } from '../../shared/data/waitlist';
import { holdsOf, planHolds } from '../../shared/domain/bookings/holds';
import { asOf, moved, nextStatus, offerLapsed, type WaitlistAction } from '../../shared/domain/waitlist/states';
import { AppError } from '../../shared/errors';

const at = (iso: string) => Date.parse(iso);

/** Where each action takes each status; null: 409. Worked out by hand from docs/waitlist.md. */
const expected: Record<WaitlistAction, Record<WaitlistStatus, WaitlistStatus | null>> = {
  offer: { waiting: 'offered', offered: null, accepted: null, declined: null, expired: 'offered', left: null },
  accept: { waiting: null, offered: 'accepted', accepted: null, declined: null, expired: null, left: null },
  decline: { waiting: null, offered: 'declined', accepted: null, declined: null, expired: null, left: null },
  expire: { waiting: null, offered: 'expired', accepted: null, declined: null, expired: null, left: null },
  leave: { waiting: 'left', offered: 'left', accepted: null, declined: null, expired: 'left', left: null },
};

describe('the entry state machine', () => {
  for (const [action, byStatus] of Object.entries(expected) as [
    WaitlistAction,
    Record<WaitlistStatus, WaitlistStatus | null>,
  ][]) {
    for (const status of waitlistStatuses) {
      const to = byStatus[status];
      it(`${action} from ${status}: ${to ?? '409'}`, () => {
        if (to) expect(nextStatus(status, action)).toBe(to);
        else {
          const err = (() => {
            try {
              nextStatus(status, action);
            } catch (e) {
              return e;
            }
          })();
          expect(err).toBeInstanceOf(AppError);
          expect((err as AppError).code).toBe('CONFLICT');
        }
      });
    }
  }

  it('says an expired offer has expired when the guest answers it', () => {
    expect(() => nextStatus('expired', 'accept')).toThrow('The offer has expired');
    expect(() => nextStatus('left', 'offer')).toThrow('A waitlist entry that is left cannot be offered a spot');
  });
});

const offer = (expiresAt: string) => ({
  bookingId: 'b1',
  tableIds: ['t1'],
  bookingDate: '2030-06-01',
  startTime: '19:00',
  endTime: '21:00',
  timezone: 'Europe/Stockholm',
  startsAt: '2030-06-01T17:00:00.000Z',
  endsAt: '2030-06-01T19:00:00.000Z',
  holdDates: ['2030-06-01'],
  offeredAt: '2030-06-01T12:00:00.000Z',
  expiresAt,
});

const entry = (status: WaitlistStatus, expiresAt: string | null): WaitlistEntry => ({
  id: 'e1',
  locationId: 1,
  code: 'ABCDEFGH',
  status,
  partySize: 2,
  desiredDate: '2030-06-01',
  windowStart: '18:00',
  windowEnd: '21:00',
  primaryUserId: null,
  guestName: 'Ada',
  guestEmail: null,
  guestPhone: null,
  notes: null,
  offer: expiresAt ? offer(expiresAt) : null,
  bookingId: null,
  version: 2,
  createdAt: '2030-06-01T10:00:00.000Z',
  updatedAt: '2030-06-01T12:00:00.000Z',
});

describe("an offer's lapse", () => {
  const expiresAt = '2030-06-01T12:15:00.000Z';

  it('lapses at expiresAt exactly, not a millisecond before', () => {
    expect(offerLapsed(entry('offered', expiresAt), at(expiresAt) - 1)).toBe(false);
    expect(offerLapsed(entry('offered', expiresAt), at(expiresAt))).toBe(true);
  });

  it('only an entry still marked offered lapses (an accepted or declined one keeps its last offer)', () => {
    for (const status of ['accepted', 'declined', 'left', 'expired'] as const)
      expect(offerLapsed(entry(status, expiresAt), at(expiresAt) + 1)).toBe(false);
    expect(offerLapsed(entry('waiting', null), at(expiresAt) + 1)).toBe(false);
  });

  it('reads as expired once lapsed, unchanged before', () => {
    const e = entry('offered', expiresAt);
    expect(asOf(e, at(expiresAt) - 1)).toBe(e);
    expect(asOf(e, at(expiresAt))).toEqual({ ...e, status: 'expired' });
  });

  it('moves the version and the update time with the status', () => {
    const e = entry('offered', expiresAt);
    expect(moved(e, 'accept', '2030-06-01T12:05:00.000Z', { bookingId: 'b1' })).toEqual({
      ...e,
      status: 'accepted',
      bookingId: 'b1',
      version: 3,
      updatedAt: '2030-06-01T12:05:00.000Z',
    });
  });
});

describe('holds that lapse by themselves (an offer in the table days)', () => {
  const evening = { startMs: at('2030-06-01T17:00:00Z'), endMs: at('2030-06-01T19:00:00Z') };
  const expiresMs = at('2030-06-01T12:15:00Z');
  const day = (holds: TableDay['holds']): TableDay => ({ tableId: 't1', date: '2030-06-01', holds, version: 4 });
  const offered = day({ offer: [evening.startMs, evening.endMs, expiresMs] });

  it('holds until it expires, then holds nothing', () => {
    expect(holdsOf([offered], expiresMs - 1)).toEqual([{ bookingId: 'offer', ...evening }]);
    expect(holdsOf([offered], expiresMs)).toEqual([]);
  });

  it('refuses a booking at the same time while it holds, lets it in and drops it once lapsed', () => {
    const request = {
      bookingId: 'walk-in',
      read: [offered],
      tableIds: ['t1'],
      slot: evening,
      holdDates: ['2030-06-01'],
      bufferMinutes: 15,
    };
    expect(planHolds({ ...request, nowMs: expiresMs - 1 })).toEqual({
      clash: { tableId: 't1', with: { bookingId: 'offer', ...evening } },
    });
    expect(planHolds({ ...request, nowMs: expiresMs })).toEqual({
      writes: [
        {
          tableId: 't1',
          date: '2030-06-01',
          holds: { 'walk-in': [evening.startMs, evening.endMs] },
          expectedVersion: 4,
        },
      ],
    });
  });

  it('is written with its expiry, and the booking that takes it over (same id) holds without one', () => {
    const placed = planHolds({
      bookingId: 'offer',
      read: [day({})],
      tableIds: ['t1'],
      slot: evening,
      holdDates: ['2030-06-01'],
      bufferMinutes: 15,
      expiresMs,
      nowMs: expiresMs - 60_000,
    });
    expect(placed).toEqual({
      writes: [
        {
          tableId: 't1',
          date: '2030-06-01',
          holds: { offer: [evening.startMs, evening.endMs, expiresMs] },
          expectedVersion: 4,
        },
      ],
    });
    const accepted = planHolds({
      bookingId: 'offer',
      read: [offered],
      tableIds: ['t1'],
      slot: evening,
      holdDates: ['2030-06-01'],
      bufferMinutes: 15,
      nowMs: expiresMs - 1,
    });
    expect(accepted).toEqual({
      writes: [
        { tableId: 't1', date: '2030-06-01', holds: { offer: [evening.startMs, evening.endMs] }, expectedVersion: 4 },
      ],
    });
  });
});
