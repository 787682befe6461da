/**
 * The hourly window counted in blocks (docs/api.md, “Rate limits”): a container leases a block of a
 * subject's window with one conditional UpdateItem (shared/data/rateWindows.ts `lease`) and counts
 * its requests in memory until the block is spent. The window's item only ever holds what was
 * leased, and a lease is granted only while the leases stay within the limit, so no subject is ever
 * let through more than its limit, however many containers serve it; the window's writes fall by the
 * block size (`leaseBlock`: it doubles from 1 up to a hundredth of the limit, and shrinks near it).
 *
 * What a container reports as used is the window's total as of its last lease less what it has not
 * spent of its block: exact while one container serves the subject, and otherwise high (so
 * `X-RateLimit-Remaining` low) by at most what other containers hold unspent, one block each. A
 * subject may be refused that much before its limit; never after.
 *
 * A window found full is remembered until it ends, so a refused request sends nothing (the window
 * never empties within its hour). Beyond `LEASES_MAX` subjects a container forgets the one it
 * began counting longest ago; what that subject held unspent is lost to it until the hour ends.
 */
import { putBounded } from '../boundedMap';
import { type Hit, rateWindows, type Window } from '../data/rateWindows';
import { unavailable } from '../errors';
import { leaseBlock } from './rateWindow';

const LEASES_MAX = 10_000;

/**
 * The container a request runs in. On Lambda every function's instance has its own memory, so
 * one; the local stage runs every function in one process and names the one running
 * (bin/local/function-scope.ts), so that its functions lease apart as they do on AWS.
 */
let containerOf: () => string = () => '';
export const setContainerScope = (scope: () => string): void => {
  containerOf = scope;
};

interface Lease {
  /** The window's start: a lease of another window is spent. */
  start: number;
  /** The window's total leased as of this container's last lease (its own block included). */
  total: number;
  /** Requests of the block not yet spent. */
  left: number;
  /** The size of the last block leased. */
  block: number;
  /** The window refused a lease: full until it ends. */
  full: boolean;
  /** A lease under way, which requests that find the block spent wait for. */
  pending?: Promise<void> | undefined;
}

export interface RateLeases {
  /** Counts one request in the subject's window: allowed while this container's block or the window has room. */
  take(subject: string, window: Window, limit: number): Promise<Hit>;
  /** Drops every lease this container holds (a test's fresh container). */
  forget(): void;
}

/** A container's leases. Every container (every Lambda instance, and the local stage's process) has one. */
export function rateLeasesOf(store: Pick<typeof rateWindows, 'lease'> = rateWindows): RateLeases {
  const leases = new Map<string, Lease>();

  const refill = async (subject: string, lease: Lease, window: Window, limit: number): Promise<void> => {
    const block = leaseBlock(limit, lease.total, lease.block);
    let granted = block;
    let total = await store.lease(subject, window, limit, block);
    // Fewer than the block are left (other containers leased meanwhile): one is worth a try.
    if (total === undefined && block > 1) {
      granted = 1;
      total = await store.lease(subject, window, limit, 1);
    }
    if (total === undefined) {
      lease.full = true;
      return;
    }
    lease.total = total;
    lease.left += granted;
    lease.block = granted;
  };

  return {
    async take(subject, window, limit) {
      const held = `${containerOf()}\u0000${subject}`;
      // Each round spends, refuses, or waits for a lease that grants at least one or finds the
      // window full; more rounds than the limit mean a store that grants nothing.
      for (let round = 0; round <= limit + 1; round++) {
        let lease = leases.get(held);
        if (!lease || lease.start !== window.start) {
          lease = { start: window.start, total: 0, left: 0, block: 0, full: false };
          putBounded(leases, held, lease, LEASES_MAX);
        }
        if (lease.left > 0) {
          lease.left -= 1;
          return { allowed: true, used: lease.total - lease.left };
        }
        if (lease.full) return { allowed: false, used: limit };
        const current = lease;
        current.pending ??= refill(subject, current, window, limit).finally(() => {
          current.pending = undefined;
        });
        await current.pending;
      }
      throw unavailable('The rate window could not be counted');
    },
    forget() {
      leases.clear();
    },
  };
}

/** This container's leases. */
export const rateLeases = rateLeasesOf();
