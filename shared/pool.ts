/**
 * Work over many items with a bounded number of calls in flight: enough to overlap round trips,
 * never a burst as large as the list (a sweep's backlog after an outage is thousands of items).
 */

/**
 * `fn` over `items`, at most `limit` calls at once; answers the results in the items' order.
 *
 * `laneOf` puts items in lanes: the items of one lane run one after another, in their order, and
 * lanes run side by side (without it every item is a lane of its own). Items whose writes would
 * meet on shared items (a company's bookings: their location's counts, a table's day) share a
 * lane, so they never cancel each other's transactions.
 *
 * A failure stops every item after it in the list from starting (one of another lane may have run
 * already); the items before it still run, and then the failure of the earliest item that failed
 * is thrown. So, as when the items run one after another, every item before that one has completed
 * without failing (the no-show sweep's alert names the first booking still due on that basis,
 * shared/domain/sweeps.ts).
 */
export async function mapPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  laneOf: (item: T, index: number) => unknown = (_, index) => index,
): Promise<R[]> {
  const lanes = new Map<unknown, number[]>();
  items.forEach((item, i) => {
    const key = laneOf(item, i);
    const lane = lanes.get(key);
    if (lane) lane.push(i);
    else lanes.set(key, [i]);
  });
  const queue = [...lanes.values()];
  const out = new Array<R>(items.length);
  const failures: { index: number; error: unknown }[] = [];
  /** No item after this index starts: the earliest failure so far. */
  let stopAfter = Infinity;
  let nextLane = 0;
  const worker = async () => {
    while (nextLane < queue.length) {
      for (const i of queue[nextLane++]!) {
        if (i > stopAfter) break;
        try {
          out[i] = await fn(items[i]!, i);
        } catch (error) {
          failures.push({ index: i, error });
          stopAfter = Math.min(stopAfter, i);
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, queue.length)) }, worker));
  const earliest = failures.sort((a, b) => a.index - b.index)[0];
  if (earliest) throw earliest.error;
  return out;
}
