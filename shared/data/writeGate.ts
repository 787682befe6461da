/**
 * The write gate. A request's rate window is counted beside its work, not before it, so that a
 * read costs one round trip; its writes still wait for the count. The HTTP chain runs each
 * operation with `gateWrites(verdict, run)`, where `verdict` settles once the window has counted
 * the request: it resolves when the request may go on and rejects with the refusal (429) or the
 * failure to count (503). Every write path of the data layer starts with `await writeGate()`, so a
 * refused request writes nothing. Outside a request (seed, sweeper, webhook pipeline, tests that
 * call the data layer) there is no gate and writes go straight on.
 *
 * The gate is the request's async context: work an operation starts inherits it, work shared
 * between requests must not wait on one request's gate (see `nextId`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const gates = new AsyncLocalStorage<Promise<void>>();
const open = Promise.resolve();

/** Runs `run` (an operation) so that every write it makes first waits for `verdict`. */
export function gateWrites<T>(verdict: Promise<void>, run: () => T): T {
  return gates.run(verdict, run);
}

/** Resolves when the current request may write, rejects with its refusal; resolved outside a request. */
export function writeGate(): Promise<void> {
  return gates.getStore() ?? open;
}
