/** The test helpers that find the days clocks change (test/support/dst.ts), checked against known transitions. */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { nextFallBack, nextSpringForward, soonestSpringForward } from '../support/dst';

const at = (iso: string) => new Date(iso);

describe('nextSpringForward', () => {
  it("finds the last Sunday of March in Europe/Stockholm, the day after `from`'s local date at the earliest", () => {
    expect(nextSpringForward('Europe/Stockholm', at('2026-11-22T12:00:00Z'))).toBe('2027-03-28');
    expect(nextSpringForward('Europe/Stockholm', at('2027-03-27T22:59:00Z'))).toBe('2027-03-28'); // 23:59 local on the 27th
    expect(nextSpringForward('Europe/Stockholm', at('2027-03-27T23:00:00Z'))).toBe('2028-03-26'); // already the 28th locally
    expect(nextSpringForward('Europe/Stockholm', at('2029-03-26T00:00:00Z'))).toBe('2030-03-31'); // 371 days on
  });

  it('finds the first Sunday of October in Australia/Sydney', () => {
    expect(nextSpringForward('Australia/Sydney', at('2027-06-01T00:00:00Z'))).toBe('2027-10-03');
  });

  it('answers a date whose 02:30 does not exist, and the days before it all have one', () => {
    const from = at('2026-04-01T00:00:00Z');
    const date = nextSpringForward('America/New_York', from)!;
    expect(date).toBe('2027-03-14');
    const halfPastTwo = (d: DateTime) => d.set({ hour: 2, minute: 30 });
    expect(halfPastTwo(DateTime.fromISO(date, { zone: 'America/New_York' })).hour).toBe(3);
    expect(halfPastTwo(DateTime.fromISO('2027-03-13', { zone: 'America/New_York' })).hour).toBe(2);
  });

  it('answers undefined for a zone that never skips an hour, and throws for an unknown zone', () => {
    expect(nextSpringForward('UTC', at('2027-01-01T00:00:00Z'))).toBeUndefined();
    expect(nextSpringForward('Asia/Tokyo', at('2027-01-01T00:00:00Z'))).toBeUndefined();
    expect(() => nextSpringForward('Mars/Olympus')).toThrow('Mars/Olympus');
  });
});

describe('soonestSpringForward', () => {
  it('picks the zone whose spring-forward comes first, never more than about seven months ahead', () => {
    const zones = ['Europe/Stockholm', 'Australia/Sydney'];
    expect(soonestSpringForward(zones, at('2027-06-01T00:00:00Z'))).toEqual({
      zone: 'Australia/Sydney',
      date: '2027-10-03',
    });
    expect(soonestSpringForward(zones, at('2027-11-01T00:00:00Z'))).toEqual({
      zone: 'Europe/Stockholm',
      date: '2028-03-26',
    });
    // The answer is farthest just after a spring-forward of either zone: start from each of those.
    for (const zone of zones) {
      let from = new Date('2029-01-01T00:00:00Z');
      for (let year = 0; year < 6; year++) {
        from = new Date(Date.parse(nextSpringForward(zone, from)!) + 86_400_000);
        const { date } = soonestSpringForward(zones, from);
        expect(Date.parse(date) - from.getTime(), `from ${from.toISOString()}`).toBeLessThan(220 * 86_400_000);
      }
    }
  });

  it('throws when no zone given skips an hour', () => {
    expect(() => soonestSpringForward(['UTC'], at('2027-01-01T00:00:00Z'))).toThrow('UTC');
  });
});

describe('nextFallBack', () => {
  it('finds the last Sunday of October in Europe/Stockholm and the first Sunday of April in Australia/Sydney', () => {
    expect(nextFallBack('Europe/Stockholm', at('2026-11-22T12:00:00Z'))).toBe('2027-10-31');
    expect(nextFallBack('Europe/Stockholm', at('2027-10-30T21:00:00Z'))).toBe('2027-10-31'); // 23:00 local on the 30th
    expect(nextFallBack('Australia/Sydney', at('2026-11-22T12:00:00Z'))).toBe('2027-04-04');
  });

  it('answers a 25-hour day, and undefined for a zone without one', () => {
    const date = nextFallBack('America/New_York', at('2026-04-01T00:00:00Z'))!;
    expect(date).toBe('2026-11-01');
    const day = DateTime.fromISO(date, { zone: 'America/New_York' });
    expect(day.plus({ days: 1 }).diff(day, 'hours').hours).toBe(25);
    expect(nextFallBack('UTC', at('2027-01-01T00:00:00Z'))).toBeUndefined();
  });

  it('finds the first Sunday of April in Australia/Sydney from mid-2027, and nothing for Asia/Tokyo', () => {
    expect(nextFallBack('Australia/Sydney', at('2027-06-01T00:00:00Z'))).toBe('2028-04-02');
    expect(nextFallBack('Asia/Tokyo', at('2027-01-01T00:00:00Z'))).toBeUndefined();
  });
});
