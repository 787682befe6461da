/** A stay named by its start and end wall times (shared/domain/bookings/stay.ts, docs/bookings.md "Time"). */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { MAX_STAY_MINUTES, openPastMidnight, stayOf } from '../../shared/domain/bookings/stay';
import { bookingSettingsFields } from '../../shared/schemas/bookingSettings';

const zone = 'Europe/Stockholm';
const every = (open: string, close: string) =>
  Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ open, close }]]),
  );
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('the stay was accepted');
};

describe('stayOf', () => {
  it('caps a stay at the bound of defaultDurationMinutes (8 hours)', () => {
    expect(MAX_STAY_MINUTES).toBe(480);
    expect(MAX_STAY_MINUTES).toBe(bookingSettingsFields.defaultDurationMinutes.maximum);
  });

  it('ends the next day only where the booking hours go past that midnight', () => {
    expect(openPastMidnight(every('17:00', '02:00'), '2026-12-18', zone)).toBe(true);
    // Closing at 24:00 is closing at midnight; an evening to 24:00 and a night from 00:00 are one span across it.
    expect(openPastMidnight(every('17:00', '24:00'), '2026-12-18', zone)).toBe(false);
    const split = { friday: [{ open: '17:00', close: '24:00' }], saturday: [{ open: '00:00', close: '02:00' }] };
    expect(openPastMidnight(split, '2026-12-18', zone)).toBe(true);
    expect(openPastMidnight(every('17:00', '23:00'), '2026-12-18', zone)).toBe(false);
    expect(openPastMidnight({}, '2026-12-18', zone)).toBe(false);
    // Friday's evening goes on into Saturday; Thursday's does not.
    const fridays = { friday: [{ open: '18:00', close: '02:00' }] };
    expect(openPastMidnight(fridays, '2026-12-18', zone)).toBe(true);
    expect(openPastMidnight(fridays, '2026-12-17', zone)).toBe(false);

    const late = stayOf('2026-12-18', '22:00', '01:00', zone, every('17:00', '02:00'));
    expect(late).toMatchObject({ endTime: '01:00', durationMinutes: 180 });
    const e = refusal(() => stayOf('2026-12-18', '20:00', '19:00', zone, every('17:00', '23:00')));
    expect(e).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/endTime' }] });
    expect(refusal(() => stayOf('2026-12-18', '20:00', '20:00', zone, every('17:00', '23:00'))).code).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('refuses a stay over the cap, naming it, and takes one of exactly the cap', () => {
    const open = every('10:00', '02:00');
    expect(stayOf('2026-12-18', '12:00', '20:00', zone, open).durationMinutes).toBe(480);
    const long = refusal(() => stayOf('2026-12-18', '12:00', '20:01', zone, open));
    expect(long.details[0]).toEqual({ path: '/endTime', message: expect.stringContaining('at most 480 minutes') });
    // Past midnight where the hours go on, yet 23 hours: the cap.
    expect(refusal(() => stayOf('2026-12-18', '20:00', '19:00', zone, open)).details[0]!.message).toContain('480');
  });

  it('counts real time on a day the clocks change (25 October 2026: 20:00-04:00 is nine hours)', () => {
    const open = every('17:00', '05:00');
    expect(refusal(() => stayOf('2026-10-24', '20:00', '04:00', zone, open)).details[0]!.path).toBe('/endTime');
    expect(stayOf('2026-10-24', '21:00', '04:00', zone, open).durationMinutes).toBe(480);
  });
});
