/** The standard tier's 1,001st request in an hour answers 429 and writes nothing (keys of company 2 made for this file). */
import { describe, expect, it } from 'vitest';
import { call, company, inOneRateWindow, type Answer } from '../support/http';
import { testKey } from '../support/stage-data';

describe('hourly rate limit', () => {
  it('refuses the 1,001st request of the standard key with 429 and Retry-After, and writes nothing', {
    timeout: 180_000,
  }, async () => {
    const locationId = company(2).locations[0]!.locationId;
    const countCoursings = async () =>
      (await call('GET', `/api/v1/coursings?locationId=${locationId}`, { key: company(2).keys.admin })).body.meta
        .pagination.total as number;

    // A run: a new standard key's first write, 999 reads 20 at a time, the refused write and a read
    // after it. The window is the clock hour: a run the hour cuts in two is run again with a new key.
    const { first, reads, before, refused, after, again } = await inOneRateWindow(async () => {
      const key = await testKey(company(2).companyId, {
        tier: 'standard',
        permissions: ['coursings.read', 'coursings.create'],
        name: 'rate-limit test key',
      });
      const first = await call('POST', '/api/v1/coursings', { key, body: { locationId, title: 'Counted', order: 1 } });
      const reads: Answer[] = [];
      const send = async (n: number) => {
        for (let i = 0; i < n; i++)
          reads.push(await call('GET', `/api/v1/coursings?locationId=${locationId}&limit=1`, { key }));
      };
      await Promise.all(Array.from({ length: 20 }, (_, w) => send(w < 19 ? 50 : 49)));
      const before = await countCoursings();
      const refused = await call('POST', '/api/v1/coursings', {
        key,
        body: { locationId, title: 'Over the limit', order: 2 },
      });
      const after = await countCoursings();
      // Refused requests are not counted: the next one is refused too.
      const again = await call('GET', '/api/v1/coursings', { key });
      return { first, reads, before, refused, after, again, answers: [first, ...reads, refused, again] };
    });

    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('999');
    // The window's atomic counter must hand each read its own count, so the Remaining values seen
    // are exactly 998 down to 0, each once.
    expect(reads.map((r) => r.status)).toEqual(Array(999).fill(200));
    expect(reads.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 999 }, (_, i) => 998 - i),
    );

    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED' } });
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1000');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(after).toBe(before);
    expect(again.status).toBe(429);

    // Other keys keep their own windows.
    expect((await call('GET', '/api/v1/coursings', { key: company(2).keys.premium })).status).toBe(200);
  });
});
