/**
 * The retry schedule (docs/webhooks.md): an attempt at once, then after about 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h — 8 attempts over about 28 hours — then the delivery is dead. Every delay gets
 * ±10 % jitter so that deliveries that failed together (a receiver outage) do not retry in lockstep;
 * the longest stays under SQS's 12-hour visibility limit.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** Attempts in one round of the schedule (a manual retry starts a new round). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export const JITTER = 0.1;

/**
 * How long to wait after attempt `failed` (1-based) of a round failed, or undefined when it was the
 * last one. `scale` is WEBHOOK_BACKOFF_SCALE; `random` is in [0, 1).
 */
export function retryDelayMs(failed: number, scale: number, random: () => number = Math.random): number | undefined {
  const base = RETRY_DELAYS_MS[failed - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()) * scale);
}

/**
 * How long a worker holds a delivery it is attempting. Longer than the receiver's timeout plus
 * the bookkeeping (and than the delivery function's timeout on AWS), so nobody else takes it while
 * the attempt can still finish; short enough that a crashed worker's delivery is soon retried.
 */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + SECOND;
