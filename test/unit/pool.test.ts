/**
 * mapPool (shared/pool.ts): the sweeps' bounded concurrency. At most `limit` calls in flight, the
 * results in the items' order, a lane's items one after another, and a failure that leaves every
 * item before it done and none after it started, as a serial run would.
 */
import { describe, expect, it } from 'vitest';
import { mapPool } from '../../shared/pool';

/** A call that takes `ms` (timers: the calls really overlap). */
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('mapPool', () => {
  it('keeps at most `limit` calls in flight, uses them all, and answers in the items’ order', async () => {
    let inFlight = 0;
    let most = 0;
    const items = Array.from({ length: 40 }, (_, i) => i);
    const out = await mapPool(items, 6, async (i) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await after(1 + ((i * 7) % 5), null);
      inFlight -= 1;
      return i * 2;
    });
    expect(most).toBe(6);
    expect(out).toEqual(items.map((i) => i * 2));
  });

  it('runs the items of one lane one after another, in their order, and lanes side by side', async () => {
    const items = [
      { company: 1, id: 'a' },
      { company: 2, id: 'b' },
      { company: 1, id: 'c' },
      { company: 3, id: 'd' },
      { company: 1, id: 'e' },
      { company: 2, id: 'f' },
    ];
    const running = new Set<number>();
    const order: string[] = [];
    let sideBySide = 0;
    await mapPool(
      items,
      3,
      async (item) => {
        expect(running.has(item.company), `${item.id}: its company has an item in flight`).toBe(false);
        running.add(item.company);
        sideBySide = Math.max(sideBySide, running.size);
        await after(3, null);
        order.push(item.id);
        running.delete(item.company);
      },
      (item) => item.company,
    );
    expect(order.filter((id) => ['a', 'c', 'e'].includes(id))).toEqual(['a', 'c', 'e']);
    expect(order.filter((id) => ['b', 'f'].includes(id))).toEqual(['b', 'f']);
    expect(sideBySide).toBe(3);
  });

  it('after a failure starts no later item, finishes the earlier ones, and throws the earliest failure', async () => {
    const started: number[] = [];
    const done: number[] = [];
    const items = Array.from({ length: 30 }, (_, i) => i);
    // Item 5 fails at once; item 3 is slow and fails later: the earlier of the two is thrown.
    const run = mapPool(items, 4, async (i) => {
      started.push(i);
      if (i === 5) throw new Error('five');
      await after(i === 3 ? 20 : 2, null);
      if (i === 3) throw new Error('three');
      done.push(i);
      return i;
    });
    await expect(run).rejects.toThrow('three');
    // 0-2 done, then 4 and 5 took their places; nothing after 5 started; 3 and 5 failed.
    expect(started.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(done.sort((a, b) => a - b)).toEqual([0, 1, 2, 4]);
  });

  it('in lanes, still runs the items before a failure that a later lane holds, and starts none after it', async () => {
    // Lane x: 0, 2 (fails); lane y: 1, 4; lane z: 3, 5. One call at a time: lane x runs first.
    const lanes = ['x', 'y', 'x', 'z', 'y', 'z'];
    const ran: number[] = [];
    const run = mapPool(
      lanes.map((_, i) => i),
      1,
      async (i) => {
        ran.push(i);
        if (i === 2) throw new Error('two');
        await after(1, null);
      },
      (i) => lanes[i],
    );
    await expect(run).rejects.toThrow('two');
    // 1 comes before the failure and runs, though its lane is reached after it; 3, 4 and 5 never start.
    expect(ran).toEqual([0, 2, 1]);
  });

  it('answers [] for no items', async () => {
    expect(await mapPool([], 4, async () => 1)).toEqual([]);
  });
});
