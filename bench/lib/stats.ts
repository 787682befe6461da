/** Small statistics helpers for timing samples (milliseconds). */

export interface Summary {
  n: number;
  median: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

export const median = (samples: readonly number[]): number => summarize(samples).median;

/** High-resolution clock in milliseconds. */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * Student's t quantile for a two-sided 95 % interval with `df` degrees of freedom: the
 * Cornish-Fisher expansion around the normal quantile (Abramowitz & Stegun 26.7.5), within 0.001
 * of the exact value from 5 degrees of freedom up.
 */
export function t95(df: number): number {
  const x = 1.959963984540054;
  const g = [
    (x ** 3 + x) / 4,
    (5 * x ** 5 + 16 * x ** 3 + 3 * x) / 96,
    (3 * x ** 7 + 19 * x ** 5 + 17 * x ** 3 - 15 * x) / 384,
    (79 * x ** 9 + 776 * x ** 7 + 1482 * x ** 5 - 1920 * x ** 3 - 945 * x) / 92_160,
  ];
  return g.reduce((t, gk, k) => t + gk / df ** (k + 1), x);
}

/** Paired differences a[i] − b[i]: their mean and its 95 % interval (mean ± t·sd/√n), and how often a is above or below b. */
export interface Paired {
  n: number;
  mean: number;
  sd: number;
  low: number;
  high: number;
  /** Pairs where a is above b, below b. */
  won: number;
  lost: number;
}

export function paired(a: readonly number[], b: readonly number[]): Paired {
  if (a.length !== b.length) throw new Error(`paired samples of ${a.length} and ${b.length}`);
  const d = a.map((x, i) => x - b[i]!);
  const n = d.length;
  const mean = d.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : Number.NaN;
  const half = n > 1 ? (t95(n - 1) * sd) / Math.sqrt(n) : Number.NaN;
  return {
    n,
    mean,
    sd,
    low: mean - half,
    high: mean + half,
    won: d.filter((x) => x > 0).length,
    lost: d.filter((x) => x < 0).length,
  };
}
