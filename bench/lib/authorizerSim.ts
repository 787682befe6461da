/**
 * The authorizer under load, simulated (bench §13; docs/access.md, "How a key is verified"): its
 * containers, each with its own cache of verified keys, serving a population of API keys second by
 * second, against Lambda's concurrency. Pure: the costs of one request's steps come in (bench/
 * sections/authorizer.ts measures them on this machine), the throughput, the refusals and the
 * authorizer's time per request come out.
 *
 * The model, second by second:
 * - `rps` requests, each for a key drawn from the popularity (uniform, or Zipf: key i has weight
 *   1/(i+1)^s), each to one of the containers at random.
 * - A container answers a key it verified less than `ttlSeconds` ago from memory (a hit). A key it
 *   verified longer ago is read again (`readsPerMiss` GetItems: the lookup item, the key's role) and
 *   needs nothing more (it remembers the hash). A key it does not know is read and judged: by one
 *   HMAC when the design has verifiers and the key's item carries one, else by bcrypt, after which
 *   a design with verifiers writes the key's verifier (seen by every container from the next second).
 *   A container keeps at most `cacheKeys` keys, dropping the one verified longest ago.
 * - The second's work is the sum of its requests' times; Lambda gives the authorizer `concurrency`
 *   executions, so at most `concurrency` seconds of work a second. Requests beyond it are refused
 *   (API Gateway's 503) and change nothing. Bursts within a second are not modelled (Little's law:
 *   concurrency = requests a second × seconds each).
 * - Containers: as many as the last seconds' work needed (at most `concurrency`); new ones start
 *   cold; an idle one is kept `keepAliveSeconds`. At `deployAt` every container is replaced by a cold one.
 * - Lambda's own start-up of a new container (its init) is left out: the same for every design.
 */
import { seeded } from '../../shared/domain/bookings/optimizer';

export interface AuthorizerDesign {
  name: string;
  /** Verified keys each container keeps (shared/auth/authenticate.ts `VERIFIED_MAX`). */
  cacheKeys: number;
  /** A key's lookup item carries a verifier: a miss costs one HMAC, and bcrypt runs once per key, ever. */
  verifier: boolean;
}

/** The time of each step of a request, in ms of the authorizer (CPU steps at its share of a vCPU). */
export interface StepCosts {
  /** Lambda's invocation and the answer, whatever the work (the scale model's millisecond a hit). */
  invocationMs: number;
  /** The key's digest and its entry in memory. */
  hitMs: number;
  /** The verifier: one HMAC-SHA256 compared in constant time. */
  hmacMs: number;
  /** One bcrypt comparison at the deployed cost. */
  bcryptMs: number;
  /** One strongly consistent GetItem. */
  getItemMs: number;
  /** GetItems a miss makes one after the other (the lookup item, then a role-based key's role). */
  readsPerMiss: number;
  /** The verifier's conditional UpdateItem. */
  writeMs: number;
}

/**
 * The costs not measured on this machine, stated (docs/access.md, "How a key is verified"): Lambda's
 * own part of an invocation (the scale model's millisecond a hit), and DynamoDB's single-digit
 * milliseconds (its developer guide, "What is Amazon DynamoDB?") taken at 5 ms a strongly consistent
 * GetItem or a small conditional UpdateItem from a function in the table's region, two reads a miss
 * (every key taken as role-based: the lookup item, then its role).
 */
export const STATED_COSTS = { invocationMs: 1, getItemMs: 5, readsPerMiss: 2, writeMs: 5 } as const;

/** The designs compared: as it was (bench/scale-baseline.json), and as the code is now. */
export const DESIGNS = {
  before: { name: 'before: bcrypt on a miss, 10,000 keys', cacheKeys: 10_000, verifier: false },
  now: { name: 'now: a verifier beside the hash, 200,000 keys', cacheKeys: 200_000, verifier: true },
} as const satisfies Record<string, AuthorizerDesign>;

export type Popularity = { kind: 'uniform' } | { kind: 'zipf'; exponent: number };

export interface Scenario {
  keys: number;
  popularity: Popularity;
  /** Requests offered each second. */
  rps: number;
  seconds: number;
  /** The second every container is replaced by a cold one (a deploy); null: none. */
  deployAt: number | null;
  /** Lambda executions the authorizer may use at once (the account's 1,000 by default). */
  concurrency: number;
  /** How long a verified key is used from memory (`KEY_CACHE_TTL_MS`). */
  ttlSeconds: number;
  /** The share of keys whose lookup item carries a verifier at the start: 1 once written, 0 at the verifier's first deploy. */
  verifiedAtStart: number;
  /** How long Lambda keeps a container it no longer needs. */
  keepAliveSeconds: number;
  seed: number;
}

export interface SimResult {
  offered: number;
  served: number;
  /** Requests refused for want of concurrency: API Gateway's 503. */
  refused: number;
  /** Seconds in which some request was refused. */
  secondsRefusing: number;
  /** Requests served in the worst second, and a second on average. */
  minServedRps: number;
  meanServedRps: number;
  /** The worst second among the minute after the deploy (the run's worst when there is none). */
  minServedRpsAfterDeploy: number;
  /** The last second in which a request was refused (null: none was). */
  lastRefusalAt: number | null;
  /** The authorizer's time per served request. */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  /** Executions the busiest second used (its work over one second), and containers at most. */
  peakConcurrency: number;
  peakContainers: number;
  /** Share of served requests answered from memory within the TTL. */
  hitRate: number;
  bcryptRuns: number;
  verifiersWritten: number;
}

/** Draws a key index (0 is the most popular) from the popularity. */
function keyDrawer(scenario: Scenario, random: () => number): () => number {
  const n = scenario.keys;
  if (scenario.popularity.kind === 'uniform') return () => Math.floor(random() * n);
  const s = scenario.popularity.exponent;
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cumulative[i] = total += 1 / (i + 1) ** s;
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A container's verified keys: key → the second it was verified (+1; 0 = unknown). */
interface Cache {
  verifiedAt(key: number): number;
  remember(key: number, second: number): void;
}

/** When the cache can hold every key nothing is ever dropped: one slot per key. */
function denseCache(keys: number, seconds: number): Cache {
  const at = seconds < 0xffff ? new Uint16Array(keys) : new Uint32Array(keys);
  return {
    verifiedAt: (key) => at[key]!,
    remember: (key, second) => {
      at[key] = second + 1;
    },
  };
}

/**
 * A bounded cache drops the key verified longest ago, as `putBounded` does (a re-verified key is the
 * newest): the verifications in order in a queue, an entry skipped when its key was verified again since.
 */
function boundedCache(max: number): Cache {
  const at = new Map<number, number>();
  let keys = new Int32Array(1024);
  let stamps = new Int32Array(1024);
  let head = 0;
  let tail = 0;
  const push = (key: number, stamp: number) => {
    if (tail === keys.length) {
      // Compact what is still queued to the front, growing the queue if it is more than half full.
      const size = Math.max(1024, (tail - head) * 2);
      const k = new Int32Array(size);
      const s = new Int32Array(size);
      k.set(keys.subarray(head, tail));
      s.set(stamps.subarray(head, tail));
      [keys, stamps, tail, head] = [k, s, tail - head, 0];
    }
    keys[tail] = key;
    stamps[tail] = stamp;
    tail += 1;
  };
  return {
    verifiedAt: (key) => at.get(key) ?? 0,
    remember: (key, second) => {
      at.set(key, second + 1);
      push(key, second + 1);
      while (at.size > max) {
        const k = keys[head]!;
        if (at.get(k) === stamps[head]) at.delete(k);
        head += 1;
      }
    },
  };
}

/** The cost of a request in each of its cases: from memory, read again, judged by HMAC, judged by bcrypt. */
function casesOf(design: AuthorizerDesign, c: StepCosts) {
  const base = c.invocationMs + c.hitMs;
  const reads = c.readsPerMiss * c.getItemMs;
  return {
    hit: base,
    reread: base + reads,
    hmac: base + reads + c.hmacMs,
    bcrypt: base + reads + c.bcryptMs + (design.verifier ? c.writeMs : 0),
  };
}

export function simulate(design: AuthorizerDesign, costs: StepCosts, scenario: Scenario): SimResult {
  const random = seeded(scenario.seed);
  const drawKey = keyDrawer(scenario, random);
  const cost = casesOf(design, costs);
  const dense = design.cacheKeys >= scenario.keys;
  const newCache = (): Cache => (dense ? denseCache(scenario.keys, scenario.seconds) : boundedCache(design.cacheKeys));
  const hasVerifier = new Uint8Array(scenario.keys);
  if (design.verifier)
    for (let k = 0; k < scenario.keys; k++) hasVerifier[k] = random() < scenario.verifiedAtStart ? 1 : 0;

  const budgetMs = scenario.concurrency * 1000;
  // Before the first second nothing is known: enough containers for every request to be judged.
  const firstJudge = design.verifier && scenario.verifiedAtStart >= 1 ? cost.hmac : cost.bcrypt;
  let containers: Cache[] = [];
  const wanted: number[] = [];
  const resize = (want: number) => {
    wanted.push(Math.min(scenario.concurrency, Math.max(1, Math.ceil(want))));
    if (wanted.length > scenario.keepAliveSeconds) wanted.shift();
    const size = Math.max(...wanted);
    while (containers.length < size) containers.push(newCache());
    if (containers.length > size) containers = containers.slice(0, size);
  };
  resize((scenario.rps * firstJudge) / 1000);

  const durations = new Map<number, number>();
  const servedPerSecond = new Int32Array(scenario.seconds);
  let refused = 0;
  let secondsRefusing = 0;
  let lastRefusalAt: number | null = null;
  let peakConcurrency = 0;
  let peakContainers = containers.length;
  let hits = 0;
  let bcryptRuns = 0;
  let verifiersWritten = 0;
  let busyTotal = 0;

  for (let t = 0; t < scenario.seconds; t++) {
    if (t === scenario.deployAt) containers = containers.map(() => newCache());
    peakContainers = Math.max(peakContainers, containers.length);
    const written: number[] = [];
    let busy = 0;
    let served = 0;
    for (let i = 0; i < scenario.rps; i++) {
      const key = drawKey();
      const cache = containers[Math.floor(random() * containers.length)]!;
      const at = cache.verifiedAt(key);
      const fresh = at > 0 && t < at - 1 + scenario.ttlSeconds;
      const judged = at === 0 ? (hasVerifier[key] ? 'hmac' : 'bcrypt') : undefined;
      const ms = fresh ? cost.hit : judged === undefined ? cost.reread : cost[judged];
      if (busy + ms > budgetMs) {
        // Lambda's executions are all taken: this request and the rest of the second are refused.
        refused += scenario.rps - i;
        break;
      }
      busy += ms;
      served += 1;
      durations.set(ms, (durations.get(ms) ?? 0) + 1);
      if (fresh) {
        hits += 1;
        continue;
      }
      cache.remember(key, t);
      if (judged === 'bcrypt') {
        bcryptRuns += 1;
        if (design.verifier && !hasVerifier[key]) written.push(key);
      }
    }
    for (const key of written) {
      if (!hasVerifier[key]) verifiersWritten += 1;
      hasVerifier[key] = 1;
    }
    servedPerSecond[t] = served;
    busyTotal += busy;
    if (served < scenario.rps) {
      secondsRefusing += 1;
      lastRefusalAt = t;
    }
    peakConcurrency = Math.max(peakConcurrency, busy / 1000);
    // Lambda's answer to the second's demand (refused requests counted at the second's mean cost).
    const demand = served > 0 ? (busy / served) * scenario.rps : budgetMs;
    resize(demand / 1000);
  }

  const sorted = [...durations].sort(([a], [b]) => a - b);
  const served = sorted.reduce((s, [, n]) => s + n, 0);
  const quantile = (q: number) => {
    let seen = 0;
    for (const [ms, n] of sorted) if ((seen += n) >= q * served) return ms;
    return Number.NaN;
  };
  const afterDeploy =
    scenario.deployAt === null
      ? servedPerSecond
      : servedPerSecond.subarray(scenario.deployAt, Math.min(scenario.seconds, scenario.deployAt + 60));
  return {
    offered: scenario.rps * scenario.seconds,
    served,
    refused,
    secondsRefusing,
    minServedRps: Math.min(...servedPerSecond),
    meanServedRps: served / scenario.seconds,
    minServedRpsAfterDeploy: Math.min(...afterDeploy),
    lastRefusalAt,
    p50Ms: quantile(0.5),
    p99Ms: quantile(0.99),
    meanMs: served > 0 ? busyTotal / served : Number.NaN,
    peakConcurrency,
    peakContainers,
    hitRate: served > 0 ? hits / served : 0,
    bcryptRuns,
    verifiersWritten,
  };
}
