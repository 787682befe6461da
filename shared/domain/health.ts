/** The health probes (docs/api.md, “Health”): /live (no checks), /ready and /health (dependency checks). */
import { keyCacheStats } from '../auth/authenticate';
import { config } from '../config';
import { pingTable } from '../data/ping';
import { readinessHeld } from './serving';

export type DependencyStatus = 'healthy' | 'degraded' | 'unhealthy';

export interface DependencyCheck {
  status: DependencyStatus;
  responseTimeMs: number;
  error: string | null;
}

/** A check that takes longer than this counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

/** healthy, degraded when slower than the threshold, unhealthy on error. Pure, for tests. */
export function classify(responseTimeMs: number, failed: boolean, slowMs: number): DependencyStatus {
  if (failed) return 'unhealthy';
  return responseTimeMs > slowMs ? 'degraded' : 'healthy';
}

export function overall(checks: DependencyCheck[]): DependencyStatus {
  if (checks.some((c) => c.status === 'unhealthy')) return 'unhealthy';
  return checks.some((c) => c.status === 'degraded') ? 'degraded' : 'healthy';
}

async function checkDatabase(): Promise<DependencyCheck> {
  const started = performance.now();
  let error: string | null = null;
  try {
    await pingTable(CHECK_TIMEOUT_MS);
  } catch (err) {
    const name = (err as Error).name;
    error =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${CHECK_TIMEOUT_MS} ms`
        : `database unreachable (${name})`;
  }
  const responseTimeMs = Math.round((performance.now() - started) * 100) / 100;
  return { status: classify(responseTimeMs, error !== null, config().readySlowMs), responseTimeMs, error };
}

/** The in-memory credential cache: always available while the process runs. */
function checkCache() {
  return { status: 'healthy' as const, responseTimeMs: 0, error: null, ...keyCacheStats() };
}

const uptime = () => Math.round(process.uptime());
const timestamp = () => new Date().toISOString();
const httpStatus = (s: DependencyStatus) => (s === 'unhealthy' ? 503 : 200);

export function live() {
  return { statusCode: 200, body: { status: 'alive', timestamp: timestamp(), uptime: uptime() } };
}

/** The process itself while something holds its readiness (the local stage seeding: ./serving.ts); absent otherwise. */
function checkStartup(): DependencyCheck | undefined {
  const held = readinessHeld();
  return held === null ? undefined : { status: 'unhealthy', responseTimeMs: 0, error: held };
}

export async function ready() {
  const database = await checkDatabase();
  const startup = checkStartup();
  const status = overall(startup ? [database, startup] : [database]);
  return {
    statusCode: httpStatus(status),
    body: {
      status,
      timestamp: timestamp(),
      uptime: uptime(),
      dependencies: startup ? { database, startup } : { database },
    },
  };
}

/** healthy or unhealthy only (docs/api.md): a slow database is still healthy here, /ready says degraded. */
export async function health() {
  const database = await checkDatabase();
  const cache = checkCache();
  const status = database.status === 'unhealthy' ? 'unhealthy' : 'healthy';
  return { statusCode: httpStatus(status), body: { status, data: { database, cache }, timestamp: timestamp() } };
}
