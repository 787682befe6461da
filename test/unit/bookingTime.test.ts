/** Local booking times by the zone's rules, around Europe/Stockholm's 2026 DST changes. */
import { describe, expect, it } from 'vitest';
import { instantOf, instantsOf, localDateTime, localDay, slotLasting, slotOf } from '../../shared/domain/bookings/time';

const zone = 'Europe/Stockholm';
const iso = (ms: number) => new Date(ms).toISOString();

describe('booking times in the location zone', () => {
  it('turns ordinary wall times into UTC (CET +01:00 in winter, CEST +02:00 in summer)', () => {
    expect(iso(instantOf('2026-01-15', '19:00', zone))).toBe('2026-01-15T18:00:00.000Z');
    expect(iso(instantOf('2026-07-15', '19:00', zone))).toBe('2026-07-15T17:00:00.000Z');
  });

  it('refuses 02:30 on 29 March 2026, which Stockholm skips (02:00 → 03:00), with 422 naming the field', () => {
    expect(instantsOf('2026-03-29', '02:30', zone)).toEqual([]);
    expect(() => instantOf('2026-03-29', '02:30', zone)).toThrow(
      expect.objectContaining({ code: 'UNPROCESSABLE', details: [expect.objectContaining({ path: '/startTime' })] }),
    );
    expect(iso(instantOf('2026-03-29', '01:59', zone))).toBe('2026-03-29T00:59:00.000Z');
    expect(iso(instantOf('2026-03-29', '03:00', zone))).toBe('2026-03-29T01:00:00.000Z');
  });

  it('reads 02:30 on 25 October 2026, which happens twice, as its first occurrence (summer time)', () => {
    expect(instantsOf('2026-10-25', '02:30', zone).map(iso)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:30:00.000Z',
    ]);
    expect(iso(instantOf('2026-10-25', '02:30', zone))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('measures durations in real time across a change (01:30-03:30 is 3 hours when clocks go back)', () => {
    expect(slotOf('2026-10-25', '01:30', '03:30', zone).durationMinutes).toBe(180);
    expect(slotOf('2026-03-29', '01:30', '03:30', zone).durationMinutes).toBe(60);
  });

  it('ends a booking on the next day when its end is at or before its start', () => {
    const s = slotOf('2026-05-02', '22:00', '01:00', zone);
    expect(s).toMatchObject({
      startsAt: '2026-05-02T20:00:00.000Z',
      endsAt: '2026-05-02T23:00:00.000Z',
      durationMinutes: 180,
    });
  });

  it('refuses an end time the zone skips, naming endTime', () => {
    expect(() => slotOf('2026-03-29', '01:00', '02:15', zone)).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ path: '/endTime' })] }),
    );
  });

  it('gives local days their real length (23 h and 25 h on change days)', () => {
    const hours = (d: string) => {
      const r = localDay(d, zone);
      return (r.endMs - r.startMs) / 3_600_000;
    };
    expect(hours('2026-03-29')).toBe(23);
    expect(hours('2026-10-25')).toBe(25);
    expect(hours('2026-06-01')).toBe(24);
    expect(iso(localDay('2026-06-01', zone).startMs)).toBe('2026-05-31T22:00:00.000Z');
  });

  it('maps an instant back to the local date and wall time', () => {
    expect(localDateTime(Date.parse('2026-06-01T21:30:00Z'), zone)).toEqual({ date: '2026-06-01', time: '23:30' });
    expect(localDateTime(Date.parse('2026-06-01T22:30:00Z'), zone)).toEqual({ date: '2026-06-02', time: '00:30' });
  });

  it('works for zones with half-hour offsets and no DST', () => {
    expect(iso(instantOf('2026-07-01', '12:00', 'Asia/Kolkata'))).toBe('2026-07-01T06:30:00.000Z');
  });
});

describe('a slot given by its length', () => {
  it('ends that much real time later, at the wall time that is then', () => {
    expect(slotLasting('2026-06-01', '19:00', 120, zone)).toMatchObject({
      startsAt: '2026-06-01T17:00:00.000Z',
      endsAt: '2026-06-01T19:00:00.000Z',
      endTime: '21:00',
      durationMinutes: 120,
    });
    expect(slotLasting('2026-06-01', '23:00', 90, zone)).toMatchObject({ endTime: '00:30', durationMinutes: 90 });
  });

  it('keeps its real length across a change (01:30 + 2 h is 04:30 when clocks go forward, 02:30 the second time when they go back)', () => {
    expect(slotLasting('2026-03-29', '01:30', 120, zone).endTime).toBe('04:30');
    const back = slotLasting('2026-10-25', '01:30', 120, zone);
    expect(back).toMatchObject({ endTime: '02:30', endsAt: '2026-10-25T01:30:00.000Z' });
  });

  it('refuses a start the zone skips', () => {
    expect(() => slotLasting('2026-03-29', '02:30', 60, zone)).toThrow(
      expect.objectContaining({ code: 'UNPROCESSABLE' }),
    );
  });
});
