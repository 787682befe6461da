/** Pure rules of restaurant setup: opening hours, time zones, the order tables and groups list in. */
import { describe, expect, it } from 'vitest';
import { nameSortKey } from '../../shared/data/tables';
import { isIanaTimeZone } from '../../shared/domain/locations';
import { hoursProblems, normalizeHours } from '../../shared/domain/openingHours';
import type { OperatingHours } from '../../shared/schemas/locations';

const at = '/operatingHours';

describe('opening hours', () => {
  it('accepts separate intervals, an interval closing after midnight, and the whole day', () => {
    const hours: OperatingHours = {
      monday: [
        { open: '11:00', close: '14:00' },
        { open: '17:00', close: '23:00' },
      ],
      friday: [{ open: '18:00', close: '02:00' }],
      saturday: [{ open: '02:00', close: '03:00' }],
      sunday: [{ open: '00:00', close: '24:00' }],
    };
    expect(hoursProblems(hours, at)).toEqual([]);
  });

  it('lets one interval end where the next begins', () => {
    expect(
      hoursProblems(
        {
          tuesday: [
            { open: '11:00', close: '15:00' },
            { open: '15:00', close: '22:00' },
          ],
        },
        at,
      ),
    ).toEqual([]);
  });

  it('refuses overlapping intervals of one day, naming the later one', () => {
    const hours: OperatingHours = {
      monday: [
        { open: '11:00', close: '15:00' },
        { open: '14:30', close: '22:00' },
      ],
    };
    expect(hoursProblems(hours, at)).toEqual([
      { path: '/operatingHours/monday/1', message: 'overlaps monday 11:00-15:00' },
    ]);
  });

  it("refuses an interval that runs past midnight into the next day's first interval", () => {
    const hours: OperatingHours = {
      friday: [{ open: '20:00', close: '03:00' }],
      saturday: [{ open: '02:00', close: '12:00' }],
    };
    expect(hoursProblems(hours, at)).toEqual([
      { path: '/operatingHours/saturday/0', message: 'overlaps friday 20:00-03:00' },
    ]);
  });

  it('wraps Sunday night into Monday morning', () => {
    const hours: OperatingHours = {
      monday: [{ open: '00:30', close: '10:00' }],
      sunday: [{ open: '22:00', close: '01:00' }],
    };
    expect(hoursProblems(hours, at)).toEqual([
      { path: '/operatingHours/sunday/0', message: 'overlaps monday 00:30-10:00' },
    ]);
    expect(
      hoursProblems({ monday: [{ open: '01:00', close: '10:00' }], sunday: [{ open: '22:00', close: '01:00' }] }, at),
    ).toEqual([]);
  });

  it('refuses open equal to close (nothing, or all day?) at the close field', () => {
    expect(hoursProblems({ wednesday: [{ open: '10:00', close: '10:00' }] }, '/schedule')).toEqual([
      { path: '/schedule/wednesday/0/close', message: expect.stringContaining('must differ from open') },
    ]);
  });

  it('reports every overlapping interval once', () => {
    const hours: OperatingHours = {
      thursday: [
        { open: '10:00', close: '12:00' },
        { open: '11:00', close: '13:00' },
        { open: '11:30', close: '11:45' },
      ],
    };
    expect(hoursProblems(hours, at).map((p) => p.path)).toEqual([
      '/operatingHours/thursday/1',
      '/operatingHours/thursday/2',
    ]);
  });

  it('stores all seven days, closed days empty, intervals in order of opening', () => {
    const week = normalizeHours({
      monday: [
        { open: '17:00', close: '22:00' },
        { open: '11:00', close: '14:00' },
      ],
    });
    expect(Object.keys(week)).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(week.monday.map((i) => i.open)).toEqual(['11:00', '17:00']);
    expect(week.sunday).toEqual([]);
  });
});

describe('time zones', () => {
  it('accepts IANA names and refuses unknown names and fixed offsets', () => {
    expect(isIanaTimeZone('Europe/Stockholm')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(isIanaTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isIanaTimeZone('+01:00')).toBe(false);
    expect(isIanaTimeZone('')).toBe(false);
  });
});

describe('list order of names', () => {
  it('ignores case and sorts numbers by value', () => {
    const names = ['T10', 't2', 'Bar 1', 'T1', 'bar 12', 'Terrace'];
    expect([...names].sort((a, b) => nameSortKey(a).localeCompare(nameSortKey(b)))).toEqual([
      'Bar 1',
      'bar 12',
      'T1',
      't2',
      'T10',
      'Terrace',
    ]);
  });
});
