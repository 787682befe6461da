/** The standard tier's 1,001st request in an hour answers 429 and writes nothing (company 2's standard key only). */
import { describe, expect, it } from 'vitest';
import { call, company } from '../support/http';

/** The window is the clock hour: start the run well inside one, so all 1,001 requests share it. */
async function awayFromTheHourBoundary(marginMs = 90_000) {
  const untilNextHour = 3600_000 - (Date.now() % 3600_000);
  if (untilNextHour < marginMs) await new Promise((r) => setTimeout(r, untilNextHour + 1_000));
}

describe('hourly rate limit', () => {
  it('refuses the 1,001st request of the standard key with 429 and Retry-After, and writes nothing', { timeout: 180_000 }, async () => {
    await awayFromTheHourBoundary();
    const key = company(2).keys.standard;
    const locationId = company(2).locations[0]!.locationId;
    const countCoursings = async () => (await call('GET', `/api/v1/coursings?locationId=${locationId}`, { key: company(2).keys.admin })).body.meta.pagination.total as number;

    const first = await call('POST', '/api/v1/coursings', { key, body: { locationId, title: 'Counted', order: 1 } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('999');
    // 999 more, 20 at a time: the window's atomic counter must hand each its own count, so the
    // Remaining values seen are exactly 998 down to 0, each once.
    const remaining: number[] = [];
    const send = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const out = await call('GET', `/api/v1/coursings?locationId=${locationId}&limit=1`, { key });
        expect(out.status).toBe(200);
        remaining.push(Number(out.headers.get('x-ratelimit-remaining')));
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, w) => send(w < 19 ? 50 : 49)));
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 999 }, (_, i) => 998 - i));
    const before = await countCoursings();

    const refused = await call('POST', '/api/v1/coursings', { key, body: { locationId, title: 'Over the limit', order: 2 } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED' } });
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1000');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await countCoursings()).toBe(before);

    // Refused requests are not counted, and other keys keep their own windows.
    expect((await call('GET', '/api/v1/coursings', { key })).status).toBe(429);
    expect((await call('GET', '/api/v1/coursings', { key: company(2).keys.premium })).status).toBe(200);
  });
});
