/**
 * The window counted in leased blocks (shared/domain/rateLeases.ts), against an in-memory store
 * with the lease's condition: one container counts exactly; several never let a subject past its
 * limit; a refused request sends nothing once the window is known full.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Window } from '../../shared/data/rateWindows';
import { rateLeasesOf } from '../../shared/domain/rateLeases';
import { leaseBlock, maxLeaseBlock } from '../../shared/domain/rateWindow';

const W: Window = { start: 1_800_000_000, end: 1_800_003_600 };

/** The window's item as DynamoDB keeps it: a lease is granted while the total stays within the limit. */
function store() {
  const totals = new Map<string, number>();
  const s = {
    calls: 0,
    failAt: -1,
    total: (subject: string, window = W) => totals.get(`${subject}@${window.start}`) ?? 0,
    async lease(subject: string, window: Window, limit: number, block: number): Promise<number | undefined> {
      s.calls += 1;
      await Promise.resolve(); // answered later, as a network call is
      if (s.calls === s.failAt) throw new Error('ECONNRESET');
      const key = `${subject}@${window.start}`;
      const total = totals.get(key) ?? 0;
      if (total > limit - block) return undefined;
      totals.set(key, total + block);
      return total + block;
    },
  };
  return s;
}

describe('leaseBlock', () => {
  it('starts at 1, doubles, stops at a hundredth of the limit, and shrinks near it', () => {
    expect(maxLeaseBlock(1_000)).toBe(10);
    expect(maxLeaseBlock(100_000)).toBe(100);
    expect(maxLeaseBlock(20)).toBe(1);
    expect([0, 1, 2, 4, 8, 10].map((last) => leaseBlock(1_000, 0, last))).toEqual([1, 2, 4, 8, 10, 10]);
    expect(leaseBlock(1_000, 960, 10)).toBe(5);
    expect(leaseBlock(1_000, 995, 10)).toBe(1);
    expect(leaseBlock(1_000, 1_000, 10)).toBe(1);
  });
});

describe('one container', () => {
  it('counts exactly, refuses the request past the limit, and then sends nothing', async () => {
    const s = store();
    const leases = rateLeasesOf(s);
    const used: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      const hit = await leases.take('key:a', W, 1_000);
      expect(hit.allowed).toBe(true);
      used.push(hit.used);
    }
    expect(used).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    expect(s.total('key:a')).toBe(1_000);
    // About a tenth of the writes an exact count makes: blocks of 10, smaller only near the limit.
    expect(s.calls).toBeLessThan(130);
    const leasesMade = s.calls;
    expect(await leases.take('key:a', W, 1_000)).toEqual({ allowed: false, used: 1_000 });
    const afterFirstRefusal = s.calls;
    expect(afterFirstRefusal).toBeGreaterThan(leasesMade); // the refusal was found by asking once
    expect(await leases.take('key:a', W, 1_000)).toEqual({ allowed: false, used: 1_000 });
    expect(s.calls).toBe(afterFirstRefusal); // and is remembered: no write for a refused request
  });

  it('counts concurrent requests each once, sharing one lease at a time', async () => {
    const s = store();
    const leases = rateLeasesOf(s);
    const hits = await Promise.all(Array.from({ length: 300 }, () => leases.take('key:b', W, 1_000)));
    expect(hits.every((h) => h.allowed)).toBe(true);
    expect(hits.map((h) => h.used).sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    // What the container holds unspent is less than one block.
    expect(s.total('key:b') - 300).toBeGreaterThanOrEqual(0);
    expect(s.total('key:b') - 300).toBeLessThan(maxLeaseBlock(1_000));
  });

  it('starts each window afresh and keeps subjects apart', async () => {
    const s = store();
    const leases = rateLeasesOf(s);
    for (let i = 0; i < 5; i++) await leases.take('key:c', W, 5);
    expect((await leases.take('key:c', W, 5)).allowed).toBe(false);
    const next = { start: W.end, end: W.end + 3_600 };
    expect(await leases.take('key:c', next, 5)).toEqual({ allowed: true, used: 1 });
    expect(await leases.take('key:d', W, 5)).toEqual({ allowed: true, used: 1 });
  });

  it('fails the request when the lease cannot be made, and leases again for the next', async () => {
    const s = store();
    s.failAt = 1;
    const leases = rateLeasesOf(s);
    await expect(leases.take('key:e', W, 1_000)).rejects.toThrow('ECONNRESET');
    expect(await leases.take('key:e', W, 1_000)).toEqual({ allowed: true, used: 1 });
  });
});

describe('several containers', () => {
  it('never let a subject past its limit, whatever the interleaving, and grant all of it to those that keep asking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 1, max: 400 }),
        fc.array(fc.nat(), { minLength: 50, maxLength: 600 }),
        async (containers, limit, order) => {
          const s = store();
          const each = Array.from({ length: containers }, () => rateLeasesOf(s));
          let allowed = 0;
          // Requests arrive at containers in the generated order, several in flight at once.
          await Promise.all(
            order.map(async (n) => {
              if ((await each[n % containers]!.take('key:f', W, limit)).allowed) allowed += 1;
            }),
          );
          expect(allowed).toBeLessThanOrEqual(limit);
          expect(s.total('key:f')).toBeLessThanOrEqual(limit);
          // Every container asks until it is refused: what was leased is all spent, and it is the limit.
          for (const c of each) while ((await c.take('key:f', W, limit)).allowed) allowed += 1;
          expect(allowed).toBe(limit);
          expect(s.total('key:f')).toBe(limit);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('report no more used than the window has leased, and at least what each has itself spent', async () => {
    const s = store();
    const [a, b] = [rateLeasesOf(s), rateLeasesOf(s)];
    let spentByA = 0;
    for (let i = 0; i < 200; i++) {
      const c = i % 3 === 0 ? b : a;
      const hit = await c.take('key:g', W, 1_000);
      if (c === a) spentByA += 1;
      expect(hit.used).toBeLessThanOrEqual(s.total('key:g'));
      if (c === a) expect(hit.used).toBeGreaterThanOrEqual(spentByA);
    }
  });
});
