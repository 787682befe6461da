import { describe, expect, it } from 'vitest';
import { rateHeaders, retryAfterSeconds, windowAt } from '../../shared/domain/rateWindow';

const at = (iso: string) => Date.parse(iso);

describe('hourly rate window', () => {
  it('aligns to the clock hour', () => {
    const w = windowAt(at('2026-11-20T10:17:42.123Z'));
    expect(w.start).toBe(at('2026-11-20T10:00:00Z') / 1000);
    expect(w.end).toBe(at('2026-11-20T11:00:00Z') / 1000);
  });

  it('keeps the last millisecond of an hour in that hour', () => {
    expect(windowAt(at('2026-11-20T10:59:59.999Z')).start).toBe(at('2026-11-20T10:00:00Z') / 1000);
  });

  it('starts a new window exactly on the hour', () => {
    expect(windowAt(at('2026-11-20T11:00:00.000Z')).start).toBe(at('2026-11-20T11:00:00Z') / 1000);
  });

  it('is UTC-aligned whatever the local day (midnight rollover)', () => {
    const w = windowAt(at('2026-12-31T23:30:00Z'));
    expect(w.end).toBe(at('2027-01-01T00:00:00Z') / 1000);
  });

  it('tells a refused client to wait until the window ends, at least a second', () => {
    const w = windowAt(at('2026-11-20T10:59:00Z'));
    expect(retryAfterSeconds(w, at('2026-11-20T10:59:00Z'))).toBe(60);
    expect(retryAfterSeconds(w, at('2026-11-20T10:59:59.500Z'))).toBe(1);
    expect(retryAfterSeconds(w, at('2026-11-20T10:59:59.999Z'))).toBe(1);
  });

  it('renders the three headers and never a negative remainder', () => {
    const w = windowAt(at('2026-11-20T10:00:00Z'));
    expect(rateHeaders(1000, 1, w)).toEqual({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '999',
      'X-RateLimit-Reset': String(w.end),
    });
    expect(rateHeaders(1000, 1000, w)['X-RateLimit-Remaining']).toBe('0');
    expect(rateHeaders(1000, 1001, w)['X-RateLimit-Remaining']).toBe('0');
  });
});
