/**
 * Another booking of the same table-day may commit between an operation's read of the holds and
 * its transaction (the transaction then fails with Contention and writes nothing): the operation
 * reads again and retries a few times.
 */
import { Contention } from '../../data/bookings';

/** Runs `attempt` (read, decide, write) again while it fails with Contention, up to `attempts` times. */
export async function retryingContention<T>(attempt: () => Promise<T>, attempts = 6): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof Contention) || n >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * n));
    }
  }
}
