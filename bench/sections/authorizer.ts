/**
 * §13 The authorizer at 100,000 keys (docs/access.md, "How a key is verified"): what one request's
 * steps cost, measured in this process (one bcrypt comparison at `BCRYPT_COST`, one verifier check,
 * one answer from the cache, and the memory a verified key takes in the cache), then the
 * authorizer's containers simulated with those costs (bench/lib/authorizerSim.ts): 100,000 keys in
 * use, 10,000 requests a second for 30 minutes, every container replaced by a cold one at minute 15,
 * Lambda's 1,000 executions, for the design before (bcrypt on a miss of a 10,000-key cache) and now
 * (the verifier beside the hash).
 *
 *   npx tsx bench/sections/authorizer.ts     prints §13 alone
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import bcrypt from 'bcryptjs';
import { BCRYPT_COST, keyFingerprint, randomBase62 } from '../../shared/auth/apiKey';
import { authenticate, clearKeyCache, KEY_CACHE_TTL_MS, keyCacheStats } from '../../shared/auth/authenticate';
import { builtInPermissions } from '../../shared/auth/catalog';
import { checkVerifier, keyVerifier } from '../../shared/auth/verifier';
import { resetConfig } from '../../shared/config';
import { apiKeys, type ApiKeyAuth } from '../../shared/data/apiKeys';
import { roles } from '../../shared/data/roles';
import {
  DESIGNS,
  simulate,
  STATED_COSTS,
  type AuthorizerDesign,
  type Popularity,
  type Scenario,
  type SimResult,
  type StepCosts,
} from '../lib/authorizerSim';
import { ms, table, verdict, type Verdict } from '../lib/md';
import { LIMITS } from '../lib/scaleModel';
import { median, nowMs } from '../lib/stats';

/** What the authorizer must sustain: 100,000 keys in use, 10,000 requests a second, none refused. */
export const AUTHORIZER_KEYS = 100_000;
export const AUTHORIZER_RPS_BUDGET = 10_000;
const SECONDS = 30 * 60;
const DEPLOY_AT = 15 * 60;
/** Zipf's exponent for the keys' popularity: web requests measured 0.64 to 0.83 (Breslau et al., "Web caching and Zipf-like distributions", INFOCOM 1999). */
const ZIPF = 0.8;
/** Keys put in the cache to weigh one entry. */
const WEIGHED_KEYS = 20_000;
/** The share of the authorizer's memory its cache may take when full. */
const MEMORY_SHARE = 0.5;

/** The authorizer's share of a vCPU: its CPU steps take this many times longer than on one core here. */
const CPU_SLOWDOWN = LIMITS.fullCpuMemoryMb / LIMITS.authorizerMemoryMb;

interface Measured {
  /** One core of this machine. */
  bcryptMs: number;
  hmacMs: number;
  hitMs: number;
  /** A miss judged by the verifier in-process (DynamoDB's answer stubbed), for information. */
  verifierMissMs: number;
  /** Heap a verified key takes in the cache, permission lists shared. */
  bytesPerEntry: number;
  cacheKeys: number;
}

interface Run {
  name: string;
  design: AuthorizerDesign;
  popularity: Popularity;
  verifiedAtStart: number;
  result: SimResult;
  /** Wall-clock seconds the simulation took here. */
  took: number;
}

export interface AuthorizerSectionResult {
  measured: Measured;
  costs: StepCosts;
  runs: Run[];
}

const timed = async (n: number, step: () => unknown): Promise<number> => {
  const samples: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t = nowMs();
    for (let i = 0; i < n; i++) await step();
    samples.push((nowMs() - t) / n);
  }
  return median(samples);
};

/** Node's collector, reachable once `--expose-gc` is set at run time. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A key of the local stage with its lookup item (a role-based key whose item carries its verifier). */
function lookupOf(i: number): { key: string; keyId: string; item: ApiKeyAuth } {
  const keyId = randomBase62(12).toLowerCase();
  const key = `brigade_dev_${keyId}_${randomBase62(40)}`;
  // Any bcrypt-shaped hash: the verifier decides, so no hash is compared (and none made: 20,000 would take minutes).
  const hash = `$2b$10$${randomBase62(53)}`;
  return {
    key,
    keyId,
    item: {
      apiKeyId: randomUUID(),
      companyId: 1 + (i % 5_000),
      hash,
      fingerprint: keyFingerprint(key),
      verifier: keyVerifier(key, hash),
      tier: 'standard',
      permissions: [],
      roleId: 1 + (i % 4),
      locationIds: null,
      revoked: false,
      usageKey: randomBase62(40),
    },
  };
}

/** The costs of one request's steps in this process, and a verified key's memory, with the data layer stubbed. */
async function measure(): Promise<Measured> {
  const saved = { pepper: process.env.API_KEY_PEPPER, findAuth: apiKeys.findAuth, grantOf: roles.grantOf };
  process.env.API_KEY_PEPPER = randomBase62(43);
  resetConfig();
  const items = new Map<string, ApiKeyAuth>();
  // As DynamoDB answers: a fresh copy of the item (and of the role's permission list) per read.
  apiKeys.findAuth = async (keyId) => structuredClone(items.get(keyId));
  const lists = [
    [...builtInPermissions],
    builtInPermissions.filter((p) => !p.startsWith('companies.')),
    builtInPermissions.filter((p) => p.endsWith('.read')),
  ];
  roles.grantOf = async (_companyId, roleId) =>
    roleId === 1
      ? { permissionKeys: structuredClone(lists[0]!), allPermissions: true }
      : { permissionKeys: structuredClone(lists[roleId % 3]!), allPermissions: false };
  try {
    const hash = await bcrypt.hash('brigade_live_benchmark-secret', BCRYPT_COST);
    await bcrypt.compare('brigade_live_benchmark-secret', hash); // loads and warms the module
    const bcryptSamples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = nowMs();
      await bcrypt.compare('brigade_live_benchmark-secret', hash);
      bcryptSamples.push(nowMs() - t);
    }
    const bcryptMs = median(bcryptSamples);
    const sample = lookupOf(0);
    items.set(sample.keyId, sample.item);
    const hmacMs = await timed(20_000, () => checkVerifier(sample.item.verifier, sample.key, sample.item.hash));
    clearKeyCache();
    const now = Date.now();
    await authenticate({ 'x-api-key': sample.key }, now);
    const hitMs = await timed(20_000, () => authenticate({ 'x-api-key': sample.key }, now));

    const gc = collector();
    const keys = Array.from({ length: WEIGHED_KEYS }, (_, i) => lookupOf(i));
    for (const k of keys) items.set(k.keyId, k.item);
    clearKeyCache();
    const t = nowMs();
    for (const k of keys) await authenticate({ 'x-api-key': k.key }, now);
    const verifierMissMs = (nowMs() - t) / keys.length;
    // Weighed with nothing else holding what the cache holds: the filled cache, then the cleared one.
    items.clear();
    keys.length = 0;
    gc();
    gc();
    const filled = process.memoryUsage().heapUsed;
    const entries = keyCacheStats().entries;
    clearKeyCache();
    gc();
    gc();
    const bytesPerEntry = (filled - process.memoryUsage().heapUsed) / entries;
    return { bcryptMs, hmacMs, hitMs, verifierMissMs, bytesPerEntry, cacheKeys: keyCacheStats().maxEntries };
  } finally {
    apiKeys.findAuth = saved.findAuth;
    roles.grantOf = saved.grantOf;
    if (saved.pepper === undefined) delete process.env.API_KEY_PEPPER;
    else process.env.API_KEY_PEPPER = saved.pepper;
    resetConfig();
    clearKeyCache();
  }
}

export async function authorizerSection(): Promise<AuthorizerSectionResult> {
  const measured = await measure();
  const costs: StepCosts = {
    ...STATED_COSTS,
    hitMs: measured.hitMs * CPU_SLOWDOWN,
    hmacMs: measured.hmacMs * CPU_SLOWDOWN,
    bcryptMs: measured.bcryptMs * CPU_SLOWDOWN,
  };
  const scenario = (popularity: Popularity, verifiedAtStart: number): Scenario => ({
    keys: AUTHORIZER_KEYS,
    popularity,
    rps: AUTHORIZER_RPS_BUDGET,
    seconds: SECONDS,
    deployAt: DEPLOY_AT,
    concurrency: LIMITS.lambdaConcurrency,
    ttlSeconds: KEY_CACHE_TTL_MS / 1000,
    verifiedAtStart,
    keepAliveSeconds: 300,
    seed: 13_013,
  });
  // The design as the code builds it: the cache's size read from authenticate.ts, not restated.
  const now: AuthorizerDesign = { ...DESIGNS.now, cacheKeys: measured.cacheKeys };
  const zipf: Popularity = { kind: 'zipf', exponent: ZIPF };
  const uniform: Popularity = { kind: 'uniform' };
  const plan: Omit<Run, 'result' | 'took'>[] = [
    { name: `${DESIGNS.before.name}, Zipf ${ZIPF}`, design: DESIGNS.before, popularity: zipf, verifiedAtStart: 0 },
    { name: `${DESIGNS.before.name}, uniform`, design: DESIGNS.before, popularity: uniform, verifiedAtStart: 0 },
    { name: `${now.name}, Zipf ${ZIPF}`, design: now, popularity: zipf, verifiedAtStart: 1 },
    { name: `${now.name}, uniform`, design: now, popularity: uniform, verifiedAtStart: 1 },
    {
      name: 'the verifier with a 10,000-key cache, uniform',
      design: { name: 'verifier, 10,000 keys', cacheKeys: 10_000, verifier: true },
      popularity: uniform,
      verifiedAtStart: 1,
    },
    {
      name: "the verifier's first deploy: no key has one yet, uniform",
      design: now,
      popularity: uniform,
      verifiedAtStart: 0,
    },
  ];
  const runs: Run[] = plan.map((p) => {
    const t = nowMs();
    const result = simulate(p.design, costs, scenario(p.popularity, p.verifiedAtStart));
    return { ...p, result, took: (nowMs() - t) / 1000 };
  });
  return { measured, costs, runs };
}

/** The runs the budget judges: the design as it is now, 100,000 keys, both popularities. */
const judged = (r: AuthorizerSectionResult) =>
  r.runs.filter(
    (run) => run.design.verifier && run.design.cacheKeys === r.measured.cacheKeys && run.verifiedAtStart === 1,
  );

const sustains = (run: Run) => run.result.refused === 0 && run.result.minServedRps >= AUTHORIZER_RPS_BUDGET;

export function authorizerChecks(r: AuthorizerSectionResult): [string, string, string, Verdict][] {
  const budget = `≥ ${AUTHORIZER_RPS_BUDGET.toLocaleString('en')} requests/s every second, 0 refused`;
  const cacheMb = (r.measured.bytesPerEntry * r.measured.cacheKeys) / 2 ** 20;
  const first = r.runs.find((run) => run.design.verifier && run.verifiedAtStart === 0);
  return [
    ...judged(r).map((run): [string, string, string, Verdict] => [
      `§13 Authorizer now, ${AUTHORIZER_KEYS.toLocaleString('en')} keys, ${run.popularity.kind}, a deploy at minute ${DEPLOY_AT / 60}`,
      budget,
      `${run.result.minServedRps.toLocaleString('en')} in the worst second, ${run.result.refused.toLocaleString('en')} refused, p99 ${ms(run.result.p99Ms)}`,
      verdict(sustains(run)),
    ]),
    ...r.runs
      .filter((run) => !run.design.verifier)
      .map((run): [string, string, string, Verdict] => [
        `§13 Authorizer before (bcrypt on a miss, 10,000 keys), ${run.popularity.kind}`,
        'for comparison',
        `${Math.round(run.result.meanServedRps).toLocaleString('en')} requests/s served, ${run.result.refused.toLocaleString('en')} refused`,
        'INFO',
      ]),
    [
      `§13 Authorizer's cache full (${r.measured.cacheKeys.toLocaleString('en')} keys) in its ${LIMITS.authorizerMemoryMb} MB`,
      `≤ ${MEMORY_SHARE * 100} % of it`,
      `${cacheMb.toFixed(0)} MB (${r.measured.bytesPerEntry.toFixed(0)} bytes a key)`,
      verdict(cacheMb <= MEMORY_SHARE * LIMITS.authorizerMemoryMb),
    ],
    ...(first
      ? [
          [
            "§13 Authorizer at the verifier's first deploy (no verifiers yet)",
            'for information: bcrypt once per key',
            `${first.result.refused.toLocaleString('en')} refused over the first ${(first.result.lastRefusalAt ?? -1) + 1} s`,
            'INFO',
          ] as [string, string, string, Verdict],
        ]
      : []),
  ];
}

/** What the table says, in words, from this run's figures. */
function reading(r: AuthorizerSectionResult): string[] {
  const before = r.runs.find((run) => !run.design.verifier && run.popularity.kind === 'uniform');
  const now = judged(r).find((run) => run.popularity.kind === 'uniform');
  const first = r.runs.find((run) => run.design.verifier && run.verifiedAtStart === 0);
  if (!before || !now || !first) return [];
  const share = (x: number) => `${Math.round(x * 100)} %`;
  return [
    `Reading it: before, a request rarely finds its key verified in its container (${before.result.peakContainers.toLocaleString('en')} containers share`,
    `the keys; ${share(before.result.hitRate)} do), so nearly every one runs bcrypt, and the ${LIMITS.lambdaConcurrency} executions serve`,
    `${share(before.result.meanServedRps / AUTHORIZER_RPS_BUDGET)} of the load (uniform). With the verifier a miss is ${r.costs.readsPerMiss} reads and an HMAC: ${Math.ceil(now.result.peakConcurrency)} executions`,
    'serve all of it, the deploy included (the verifiers are in the table, not in the containers). Even a 10,000-key',
    "cache serves it: what a container finds fresh is bounded by the TTL, not by the cache's size. The verifier's first",
    `deploy is the exception: each key runs bcrypt once before its verifier is written (${first.result.refused.toLocaleString('en')} requests refused in the first`,
    `${(first.result.lastRefusalAt ?? -1) + 1} s here, uniform; deploy it at a quiet hour).`,
  ];
}

export function authorizerMarkdown(r: AuthorizerSectionResult): string[] {
  const m = r.measured;
  const c = r.costs;
  return [
    `Measured here, one core, in this process (the data layer stubbed): one bcrypt comparison at cost ${BCRYPT_COST} **${ms(m.bcryptMs)}**,`,
    `one verifier check (HMAC-SHA256, compared in constant time) **${ms(m.hmacMs)}**, one answer from the cache **${ms(m.hitMs)}**,`,
    `a miss judged by the verifier ${ms(m.verifierMissMs)} (DynamoDB stubbed). The authorizer has ${LIMITS.authorizerMemoryMb} MB, so ${LIMITS.authorizerMemoryMb}/${LIMITS.fullCpuMemoryMb} of a vCPU:`,
    `its CPU steps take ${CPU_SLOWDOWN.toFixed(2)} times as long (bcrypt ${ms(c.bcryptMs)}, HMAC ${ms(c.hmacMs)}, a hit ${ms(c.hitMs)}).`,
    `Stated, not measured: ${c.invocationMs} ms of Lambda's own per invocation, ${c.getItemMs} ms a strongly consistent GetItem`,
    `(DynamoDB's single-digit milliseconds), ${c.readsPerMiss} of them one after the other a miss (every key role-based), ${c.writeMs} ms the verifier's write.`,
    `A verified key takes **${m.bytesPerEntry.toFixed(0)} bytes** of the cache (${WEIGHED_KEYS.toLocaleString('en')} role-based keys of four roles weighed, permission lists shared),`,
    `so the ${m.cacheKeys.toLocaleString('en')} it holds take ${((m.bytesPerEntry * m.cacheKeys) / 2 ** 20).toFixed(0)} MB.`,
    '',
    `Simulated (bench/lib/authorizerSim.ts): ${AUTHORIZER_KEYS.toLocaleString('en')} keys in use, ${AUTHORIZER_RPS_BUDGET.toLocaleString('en')} requests a second for ${SECONDS / 60} minutes,`,
    `every container replaced by a cold one at minute ${DEPLOY_AT / 60} (a deploy), ${LIMITS.lambdaConcurrency} executions, a ${KEY_CACHE_TTL_MS / 1000} s TTL. Requests beyond the executions`,
    `are refused (API Gateway's 503). Zipf ${ZIPF}: key i is asked in proportion to 1/(i+1)^${ZIPF}; uniform is the worst case for any cache.`,
    '',
    table(
      [
        'Design and popularity',
        'Served a second (mean; worst second; worst after the deploy)',
        'Refused (503)',
        'Seconds refusing',
        'Authorizer p50 / p99 / mean',
        'From memory',
        'Executions at most',
        'Containers at most',
        'bcrypt runs',
        'Verifiers written',
        'Simulated in',
      ],
      r.runs.map((run) => {
        const x = run.result;
        return [
          run.name,
          `${Math.round(x.meanServedRps).toLocaleString('en')}; ${x.minServedRps.toLocaleString('en')}; ${x.minServedRpsAfterDeploy.toLocaleString('en')}`,
          x.refused.toLocaleString('en'),
          x.secondsRefusing,
          `${ms(x.p50Ms)} / ${ms(x.p99Ms)} / ${ms(x.meanMs)}`,
          `${(x.hitRate * 100).toFixed(1)} %`,
          Math.ceil(x.peakConcurrency),
          x.peakContainers,
          x.bcryptRuns.toLocaleString('en'),
          x.verifiersWritten.toLocaleString('en'),
          `${run.took.toFixed(1)} s`,
        ];
      }),
    ),
    '',
    ...reading(r),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.STAGE = 'local';
  process.env.TABLE_NAME ??= 'bench';
  process.env.AWS_REGION ??= 'eu-north-1';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const result = await authorizerSection();
  const lines = [
    `## 13. The authorizer at ${AUTHORIZER_KEYS.toLocaleString('en')} keys: measured steps, simulated containers`,
    '',
    ...authorizerMarkdown(result),
    '',
    table(['Check', 'Budget', 'Measured', 'Result'], authorizerChecks(result)),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
