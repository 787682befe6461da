/**
 * The scale model (docs/scale.md): what each operation costs DynamoDB, as §12 measures it, times the
 * load of three sizes of customer at a Saturday's peak, against the published limits. Pure: the
 * measured costs in, the table of walls and the cost per million requests out. Each change to the
 * design moves a row; the report shows the baseline (bench/scale-baseline.json, measured before the
 * changes) beside the current figures.
 */
import { DESIGNS, STATED_COSTS, type AuthorizerDesign } from './authorizerSim';
import { table } from './md';

export interface OperationCost {
  operation: string;
  what: string;
  commands: string[];
  readUnits: number;
  writeUnits: number;
  indexWriteUnits: number;
  items: number;
  partitions: string[];
  readPartitions: string[];
  /** Write units per partition family of the items the request put (bench/lib/capacity.ts). */
  partitionUnits: Record<string, number>;
  /** Read units per partition family read. */
  partitionReadUnits: Record<string, number>;
  /** The request's own rate-window writes: units and calls. */
  rateWindow: { writes: number; calls: number };
}

export interface Measured {
  date: string;
  bookings: number;
  tables: number;
  operations: OperationCost[];
  keyLookupReadUnits: number;
  /** One bcrypt verification of an API key at the deployed cost, on this machine (ms, one core). */
  bcryptMs: number;
  /** The rate window's lease: its write units, and the block of a standard key's requests it serves (absent in the baseline: one write a request). */
  rateLease?: { units: number; block: number };
  /** The production stage's settings that set a wall (read from infra/ by §12; the baseline's as they were). */
  design: Design;
}

interface Design {
  /** The edge's total for public operations from everyone, requests per second (null: none, only per-client limits). */
  publicTotalRps: number | null;
  /** The delivery function's concurrency cap (null: none). */
  deliveryConcurrency: number | null;
  /**
   * The authorizer: the verified keys each container keeps, and whether a miss is judged by the
   * verifier beside the hash (bench/lib/authorizerSim.ts). Absent: as the code is now (`DESIGNS.now`).
   */
  authorizer?: Pick<AuthorizerDesign, 'cacheKeys' | 'verifier'>;
}

/** Published limits (docs/scale.md, “Limits”), per second unless named otherwise. */
export const LIMITS = {
  /** DynamoDB: one partition (of the table or of an index) serves at most this. */
  partitionReadUnits: 3_000,
  partitionWriteUnits: 1_000,
  /** DynamoDB on-demand: a table's (and each index's) default maximum throughput, a quota that can be raised. */
  tableReadUnits: 40_000,
  tableWriteUnits: 40_000,
  /** API Gateway: requests per second across the account's REST APIs in a region (raisable). */
  gatewayRps: 10_000,
  /** Lambda: concurrent executions in a region (raisable). */
  lambdaConcurrency: 1_000,
  /** A webhook receiver's answer is awaited up to this long (shared/webhooks/settings.ts). */
  webhookTimeoutSeconds: 30,
  /** Lambda gives a full vCPU at this much memory; the authorizer has 512 MB (infra/handler-function.ts). */
  fullCpuMemoryMb: 1_769,
  authorizerMemoryMb: 512,
};

/** us-east-1 list prices in USD (docs/scale.md, “Prices”), per million unless named. */
export const PRICES = {
  readUnit: 0.125,
  writeUnit: 0.625,
  gatewayRequest: 3.5,
  lambdaRequest: 0.2,
  /** Per GB-second. */
  lambdaGbSecond: 0.000_016_666_7,
  wafRequest: 0.6,
  eventBridgeEvent: 1.0,
  sqsRequest: 0.4,
};

/**
 * Requests per second of one location at a Saturday's peak (docs/scale.md, “Load”): a booking widget
 * at 5 requests a second (availability, guests' own bookings), two terminals refreshing the day's
 * list and opening bookings, the evening's writes (creates, changes, seatings, cancellations; tabs
 * and orders written like an update), and an integration reading the event log.
 */
export const LOCATION_PEAK: Record<string, number> = {
  getAvailability: 4.5,
  getBookingByCode: 0.05,
  listBookings: 0.5,
  getBooking: 0.4,
  createBooking: 0.03,
  updateBooking: 0.3,
  seatBooking: 0.03,
  cancelBooking: 0.005,
  listEvents: 0.1,
  createGuest: 0.01,
};

/** The by-code share of the peak (public operations, counted by the edge's public rules). */
const PUBLIC_OPERATIONS = new Set(['getBookingByCode']);

export interface Size {
  name: string;
  companies: number;
  locationsPerCompany: number;
  /** The share of locations at their peak at once (time zones). */
  atPeak: number;
  /** API keys in use (terminals, integrations, widgets). */
  activeKeys: number;
}

export const SIZES: Size[] = [
  { name: 'One busy restaurant', companies: 1, locationsPerCompany: 1, atPeak: 1, activeKeys: 4 },
  { name: '500-location chain', companies: 1, locationsPerCompany: 500, atPeak: 1, activeKeys: 2_000 },
  { name: '10,000 restaurants', companies: 10_000, locationsPerCompany: 1, atPeak: 0.6, activeKeys: 100_000 },
];

/** Locations of a size at their peak at once. */
const peakLocations = (s: Size) => s.companies * s.locationsPerCompany * s.atPeak;
const peakRps = Object.values(LOCATION_PEAK).reduce((a, b) => a + b, 0);

function byOperation(m: Measured): Map<string, OperationCost> {
  return new Map(m.operations.map((o) => [o.operation, o]));
}

/** Σ over the peak mix of rate × what `pick` takes of each operation. */
function perLocation(m: Measured, pick: (o: OperationCost) => number): number {
  const ops = byOperation(m);
  return Object.entries(LOCATION_PEAK).reduce((s, [op, rate]) => {
    const o = ops.get(op);
    return o ? s + rate * pick(o) : s;
  }, 0);
}

const unitsOn = (units: Record<string, number>, prefix: string) =>
  Object.entries(units)
    .filter(([p]) => p === prefix)
    .reduce((s, [, u]) => s + u, 0);

export interface Wall {
  limit: string;
  /** What one unit of the driver costs against the limit, and the driver's name: "48 availability calls/s per location". */
  reachedAt: string;
  /** Use of the limit at each size's peak (1 = reached). */
  use: number[];
  symptom: string;
  holds: string;
}

const authorizerOf = (m: Measured) => m.design.authorizer ?? DESIGNS.now;

/** A miss of the authorizer's cache with the verifier: its reads, one after the other (the HMAC is microseconds). */
const verifierMissSeconds = (STATED_COSTS.readsPerMiss * STATED_COSTS.getItemMs) / 1000;

/** Requests a second the authorizer serves within Lambda's concurrency with `activeKeys` keys in use. */
function authorizerCapacity(m: Measured, activeKeys: number): number {
  // A hit costs about a millisecond of the authorizer's time (the lookup in memory and the answer).
  const hitSeconds = STATED_COSTS.invocationMs / 1000;
  const design = authorizerOf(m);
  // With the verifier, every request is counted as a miss that reads its key: with many containers
  // and a 60 s TTL few requests find their key fresh in their container (bench §13), and none runs bcrypt.
  if (design.verifier) return LIMITS.lambdaConcurrency / (verifierMissSeconds + hitSeconds);
  const bcryptSeconds = (m.bcryptMs / 1000) * (LIMITS.fullCpuMemoryMb / LIMITS.authorizerMemoryMb);
  const miss = Math.max(0, 1 - design.cacheKeys / activeKeys);
  return LIMITS.lambdaConcurrency / (miss * bcryptSeconds + hitSeconds);
}

/** The authorizer's row of the walls: bcrypt on a miss (the baseline), or the verifier. */
function authorizerWall(m: Measured, use: (s: Size) => number): Wall {
  const design = authorizerOf(m);
  const keys = SIZES[2]!.activeKeys;
  const cache = `${design.cacheKeys.toLocaleString('en')}-key cache`;
  const executions = `${LIMITS.lambdaConcurrency} concurrent executions`;
  return design.verifier
    ? {
        limit: `The authorizer: a verifier beside each bcrypt hash (one HMAC on a miss), a ${cache}, no gateway cache, ${executions}`,
        reachedAt: `${authorizerCapacity(m, keys).toFixed(0)} requests/s, every request reading its key (${STATED_COSTS.readsPerMiss} GetItems of ${STATED_COSTS.getItemMs} ms)`,
        use: SIZES.map(use),
        symptom: '503 for every tenant',
        holds: 'the verifier: bcrypt once per key, ever (bench §13 simulates it)',
      }
    : {
        limit: `The authorizer: bcrypt on every miss of a ${cache}, no gateway cache, ${executions}`,
        reachedAt: `${authorizerCapacity(m, keys).toFixed(0)} requests/s with ${keys.toLocaleString('en')} active keys (${(m.bcryptMs * (LIMITS.fullCpuMemoryMb / LIMITS.authorizerMemoryMb)).toFixed(0)} ms per bcrypt)`,
        use: SIZES.map(use),
        symptom: '503 for every tenant',
        holds: 'nothing yet',
      };
}

/** The walls, in the order a growing customer meets them. */
export function walls(m: Measured): Wall[] {
  const ops = byOperation(m);
  const avail = ops.get('getAvailability');
  // The partition availability reads most of (its bookings: the index, or their buckets), and what
  // the location's other requests read of it.
  const [hottest, availOnIndex] = Object.entries(avail?.partitionReadUnits ?? {}).reduce<[string, number]>(
    (best, [p, u]) => (u > best[1] ? [p, u] : best),
    ['', 0],
  );
  const indexReads = perLocation(m, (o) => unitsOn(o.partitionReadUnits, hottest));
  // A large location: the partition of its bookings (the index, or their buckets) grows with them.
  const largeDay = 1_800;
  const bookingsPartition =
    Object.keys(avail?.partitionReadUnits ?? {}).find((p) => /#(BOOKINGS|AROUND)$/.test(p)) ?? '';
  // A warm call reads the layout's token, not the layout (docs/availability.md, “The layout cache”).
  const keepsLayout = Object.keys(avail?.partitionReadUnits ?? {}).some((p) => p.endsWith('#LAYOUT'));
  const availLarge = (unitsOn(avail?.partitionReadUnits ?? {}, bookingsPartition) * largeDay) / Math.max(1, m.bookings);
  // The event log: one partition per company, or (partitioned) per location.
  const perLocationLog = m.operations.some((o) => unitsOn(o.partitionUnits, 'C#<n>#L#<n>#EVENTS') > 0);
  const eventLog = perLocationLog ? 'C#<n>#L#<n>#EVENTS' : 'C#<n>#EVENTS';
  const eventsPerLocation = perLocation(m, (o) => unitsOn(o.partitionUnits, eventLog));
  const eventUnits = Math.max(...m.operations.map((o) => unitsOn(o.partitionUnits, eventLog)), 0);
  const companyIndex = perLocation(m, (o) => unitsOn(o.partitionUnits, 'gsi2:C#<n>#BOOKINGS'));
  const reads = perLocation(m, (o) => o.readUnits);
  const writes = perLocation(m, (o) => o.writeUnits + o.rateWindow.writes);
  const publicRps = Object.entries(LOCATION_PEAK)
    .filter(([op]) => PUBLIC_OPERATIONS.has(op))
    .reduce((s, [, r]) => s + r, 0);
  const writeTx = perLocation(m, (o) => (o.commands.includes('TransactWriteItems') ? 1 : 0));
  const perCompany = (s: Size) => s.locationsPerCompany * s.atPeak;
  return [
    {
      limit: `The partition availability reads most of (\`${hottest}\`): ${LIMITS.partitionReadUnits} read units/s`,
      reachedAt: `${(LIMITS.partitionReadUnits / Math.max(availOnIndex, 1e-9)).toFixed(0)} availability calls/s per location (${availOnIndex} units each)`,
      use: SIZES.map(() => indexReads / LIMITS.partitionReadUnits),
      symptom: "that location's availability, lists and creates throttled",
      holds: bookingsPartition.includes('#AROUND')
        ? `availability's compact buckets, a few units a call${keepsLayout ? '; its layout kept per container under its token' : ''}`
        : 'nothing yet',
    },
    {
      limit: `A large location's bookings partition (\`${bookingsPartition}\`, ${largeDay} bookings a day)`,
      reachedAt: `${(LIMITS.partitionReadUnits / Math.max(availLarge, 1e-9)).toFixed(0)} availability calls/s (${availLarge.toFixed(0)} units each)`,
      use: SIZES.map(() => (availLarge * LOCATION_PEAK.getAvailability!) / LIMITS.partitionReadUnits),
      symptom: 'a hot drop or a food hall stalls its own availability',
      holds: bookingsPartition.includes('#AROUND')
        ? "availability's compact buckets, a few units a call"
        : 'nothing yet',
    },
    {
      limit: `${perLocationLog ? "A location's" : "A company's"} event log partition \`${eventLog.replace('<n>', '<cid>').replace('<n>', '<loc>')}\`: ${LIMITS.partitionWriteUnits} write units/s, its sort key only grows so it never splits`,
      reachedAt: `${(LIMITS.partitionWriteUnits / Math.max(eventUnits, 1e-9)).toFixed(0)} write transactions/s per ${perLocationLog ? 'location' : 'company'} (${eventUnits} units per event)`,
      use: SIZES.map((s) => (eventsPerLocation * (perLocationLog ? 1 : perCompany(s))) / LIMITS.partitionWriteUnits),
      symptom: perLocationLog
        ? "that location's writes throttled; the company's other locations unaffected"
        : "every write of every location of the company fails together (the transaction's outbox put is throttled)",
      holds: perLocationLog ? 'the log kept per location (company-wide events in 8 shards)' : 'nothing yet',
    },
    {
      limit: `A company's bookings index partition \`gsi2 C#<cid>#BOOKINGS\`: ${LIMITS.partitionWriteUnits} write units/s (splits by date when hot)`,
      reachedAt: `${(LIMITS.partitionWriteUnits / Math.max(companyIndex / Math.max(writeTx, 1e-9), 1e-9)).toFixed(0)} booking writes/s per company`,
      use: SIZES.map((s) => (companyIndex * perCompany(s)) / LIMITS.partitionWriteUnits),
      symptom: "the index's back-pressure throttles the company's booking writes",
      holds: "split for heat (the sort key is the booking's date and time, not a counter)",
    },
    {
      limit: `The table's on-demand reads: ${LIMITS.tableReadUnits.toLocaleString('en')} read units/s (quota)`,
      reachedAt: `${(LIMITS.tableReadUnits / Math.max(reads, 1e-9)).toFixed(0)} locations at peak (${reads.toFixed(1)} units/s each)`,
      use: SIZES.map((s) => (reads * peakLocations(s)) / LIMITS.tableReadUnits),
      symptom: 'reads throttled for every tenant',
      holds: 'a quota increase',
    },
    {
      limit: `The table's on-demand writes: ${LIMITS.tableWriteUnits.toLocaleString('en')} write units/s (quota)`,
      reachedAt: `${(LIMITS.tableWriteUnits / Math.max(writes, 1e-9)).toFixed(0)} locations at peak (${writes.toFixed(1)} units/s each, rate windows included)`,
      use: SIZES.map((s) => (writes * peakLocations(s)) / LIMITS.tableWriteUnits),
      symptom: 'writes throttled for every tenant',
      holds: 'a quota increase',
    },
    {
      limit: `API Gateway: ${LIMITS.gatewayRps.toLocaleString('en')} requests/s per account and region (quota)`,
      reachedAt: `${(LIMITS.gatewayRps / peakRps).toFixed(0)} locations at peak (${peakRps.toFixed(2)} requests/s each)`,
      use: SIZES.map((s) => (peakRps * peakLocations(s)) / LIMITS.gatewayRps),
      symptom: '429 from the gateway for every tenant',
      holds: 'a quota increase',
    },
    authorizerWall(m, (s) => (peakRps * peakLocations(s)) / authorizerCapacity(m, s.activeKeys)),
    m.design.publicTotalRps === null
      ? {
          limit: "The edge's public operations: per client IP only, no total for everyone",
          reachedAt: 'never by the number of guests: each client has its own limit',
          use: SIZES.map(() => 0),
          symptom: 'a client over its own limit is refused (429); nobody else',
          holds: "per-client limits (WAF per IP, the handlers' failed-lookup budget)",
        }
      : {
          limit: `The edge's public total: ${m.design.publicTotalRps.toFixed(1)} requests/s of by-code operations from everyone`,
          reachedAt: `${(m.design.publicTotalRps / publicRps).toFixed(0)} locations at peak (${publicRps} requests/s each)`,
          use: SIZES.map((s) => (publicRps * peakLocations(s)) / m.design.publicTotalRps!),
          symptom: "every guest's cancel, reply and waitlist call refused (429)",
          holds: 'nothing yet',
        },
    {
      limit: `Lambda concurrency (${LIMITS.lambdaConcurrency}) and webhook deliveries to a slow receiver (${LIMITS.webhookTimeoutSeconds} s each), ${m.design.deliveryConcurrency === null ? 'uncapped' : `capped at ${m.design.deliveryConcurrency}`}`,
      reachedAt:
        m.design.deliveryConcurrency === null
          ? `${(LIMITS.lambdaConcurrency / LIMITS.webhookTimeoutSeconds).toFixed(0)} events/s to a receiver that times out`
          : `never: deliveries take at most ${m.design.deliveryConcurrency} executions; beyond, they wait in the queue`,
      use: SIZES.map(
        (s) =>
          Math.min(writeTx * perCompany(s) * LIMITS.webhookTimeoutSeconds, m.design.deliveryConcurrency ?? Infinity) /
          LIMITS.lambdaConcurrency,
      ),
      symptom:
        m.design.deliveryConcurrency === null
          ? "the API's functions find no concurrency: 429/503 for every tenant"
          : 'deliveries to slow receivers wait in the queue; the API keeps the rest',
      holds:
        m.design.deliveryConcurrency === null
          ? 'nothing yet'
          : "the delivery function's concurrency cap (a stage setting)",
    },
  ];
}

export interface CostRow {
  component: string;
  perMillion: number;
}

/** Cost per million requests of the peak mix, by component. */
export function costPerMillion(m: Measured): CostRow[] {
  const per = (pick: (o: OperationCost) => number) => perLocation(m, pick) / peakRps;
  const writeTx = per((o) => (o.commands.includes('TransactWriteItems') ? 1 : 0));
  const avail = byOperation(m).get('getAvailability');
  const availReads = ((avail?.readUnits ?? 0) * (LOCATION_PEAK.getAvailability ?? 0)) / peakRps;
  return [
    { component: 'DynamoDB reads: availability', perMillion: availReads * PRICES.readUnit },
    {
      component: 'DynamoDB reads: everything else',
      perMillion: (per((o) => o.readUnits) - availReads) * PRICES.readUnit,
    },
    { component: 'DynamoDB writes: the operations (table)', perMillion: per((o) => o.writeUnits) * PRICES.writeUnit },
    { component: 'DynamoDB writes: index copies', perMillion: per((o) => o.indexWriteUnits) * PRICES.writeUnit },
    { component: 'DynamoDB writes: rate windows', perMillion: per((o) => o.rateWindow.writes) * PRICES.writeUnit },
    { component: 'API Gateway', perMillion: PRICES.gatewayRequest },
    { component: 'WAF', perMillion: PRICES.wafRequest },
    // The handler (512 MB, ~40 ms) and the authorizer (512 MB, ~2 ms on a cache hit) per request.
    {
      component: 'Lambda: handler and authorizer',
      perMillion: 2 * PRICES.lambdaRequest + 0.5 * 0.042 * 1e6 * PRICES.lambdaGbSecond,
    },
    // Each write transaction's event: EventBridge, three SQS requests, one delivery invocation.
    {
      component: 'Webhooks: EventBridge, SQS, delivery',
      perMillion: writeTx * (PRICES.eventBridgeEvent + 3 * PRICES.sqsRequest + PRICES.lambdaRequest),
    },
  ];
}

const pct = (x: number) => (x >= 1 ? `**${(x * 100).toFixed(0)} %**` : `${(x * 100).toFixed(x < 0.01 ? 2 : 0)} %`);

export function modelMarkdown(now: Measured, before?: Measured): string[] {
  const wallsNow = walls(now);
  const wallsBefore = before ? walls(before) : undefined;
  const costsNow = costPerMillion(now);
  const costsBefore = before ? costPerMillion(before) : undefined;
  const total = (rows: CostRow[]) => rows.reduce((s, r) => s + r.perMillion, 0);
  const use = (w: Wall, b?: Wall) =>
    SIZES.map((_, i) => (b ? `${pct(b.use[i]!)} → ${pct(w.use[i]!)}` : pct(w.use[i]!)));
  return [
    `The walls, at each size's Saturday peak (${peakRps.toFixed(2)} requests/s per location; use of the limit, 100 % = reached${before ? '; baseline → now' : ''}):`,
    '',
    table(
      ['Limit', 'Reached at', ...SIZES.map((s) => s.name), 'Symptom', 'What holds it'],
      wallsNow.map((w, i) => [
        w.limit,
        wallsBefore && wallsBefore[i]!.reachedAt !== w.reachedAt
          ? `${wallsBefore[i]!.reachedAt} → ${w.reachedAt}`
          : w.reachedAt,
        ...use(w, wallsBefore?.[i]),
        w.symptom,
        w.holds,
      ]),
    ),
    '',
    `Cost per million requests of the peak mix (USD${before ? '; baseline → now' : ''}):`,
    '',
    table(
      ['Component', 'Per million requests', 'Share'],
      [
        ...costsNow.map((r, i) => [
          r.component,
          costsBefore
            ? `${costsBefore[i]!.perMillion.toFixed(3)} → ${r.perMillion.toFixed(3)}`
            : r.perMillion.toFixed(3),
          `${((r.perMillion / total(costsNow)) * 100).toFixed(0)} %`,
        ]),
        [
          '**Total**',
          costsBefore ? `${total(costsBefore).toFixed(2)} → ${total(costsNow).toFixed(2)}` : total(costsNow).toFixed(2),
          '100 %',
        ],
      ],
    ),
  ];
}
