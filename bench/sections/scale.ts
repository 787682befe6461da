/**
 * §12 Scale model (docs/scale.md): a busy restaurant's Saturday on the local stage (40 tables, about
 * 150 bookings on the date), then one request of each operation that matters at scale, with what it
 * cost DynamoDB (units per table and index, items, partitions: bench/lib/capacity.ts). The model
 * (bench/lib/scaleModel.ts) turns those costs, the published limits and three sizes of customer into
 * the table of walls and the cost per million requests.
 *
 *   npx tsx bench/sections/scale.ts     (this section alone)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import bcrypt from 'bcryptjs';
import { BCRYPT_COST } from '../../shared/auth/apiKey';
import { pipelineDefaults } from '../../infra/webhooks-pipeline';
import { clearKeyCache } from '../../shared/auth/authenticate';
import { tierLimits } from '../../shared/auth/principal';
import { layoutCache } from '../../shared/domain/bookings/layoutCache';
import { rateLeases } from '../../shared/domain/rateLeases';
import { maxLeaseBlock } from '../../shared/domain/rateWindow';
import { type CommandCost, recordCapacity } from '../lib/capacity';
import { table } from '../lib/md';
import { LIMITS, modelMarkdown, walls, type Measured, type OperationCost } from '../lib/scaleModel';
import { verdict, type Verdict } from '../lib/md';
import { withBenchStage } from '../lib/stage';
import { median, nowMs } from '../lib/stats';

/** The figures measured before the changes of docs/scale.md, “What moved”: the report's baseline. */
export const BASELINE_PATH = fileURLToPath(new URL('../scale-baseline.json', import.meta.url));
export const baseline = (): Measured => JSON.parse(readFileSync(BASELINE_PATH, 'utf8')) as Measured;

/** Bookings asked for on the busy date (parties of 2 to 4 from 12:30 to 21:30; a few are refused when full). */
const BUSY_DAY_REQUESTS = 170;
const EXTRA_TABLES = 50;

/** The next Saturday at least three days ahead, as a date. */
function busySaturday(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 3));
  while (d.getUTCDay() !== 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function costOf(operation: string, what: string, commands: CommandCost[]): Omit<OperationCost, 'rateWindow'> {
  const data = commands.filter((c) => c.role === 'data');
  const total = (pick: (c: CommandCost) => number, of = data) => of.reduce((s, c) => s + pick(c), 0);
  return {
    operation,
    what,
    commands: data.map((c) => c.command),
    readUnits: total((c) => c.readUnits),
    writeUnits: total((c) => c.writeUnits),
    indexWriteUnits: total((c) => c.indexWriteUnits),
    items: total((c) => c.items),
    partitions: data.flatMap((c) => c.partitions),
    readPartitions: data.flatMap((c) => c.readPartitions),
    partitionUnits: merged(data.map((c) => c.partitionUnits)),
    partitionReadUnits: merged(data.map((c) => c.partitionReadUnits)),
  };
}

function merged(parts: Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of parts) for (const [k, v] of Object.entries(part)) out[k] = (out[k] ?? 0) + v;
  return out;
}

/** One bcrypt verification at the deployed cost, on one core of this machine (median of 5). */
async function bcryptMs(): Promise<number> {
  const hash = await bcrypt.hash('brigade_live_benchmark-secret', BCRYPT_COST);
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = nowMs();
    await bcrypt.compare('brigade_live_benchmark-secret', hash);
    samples.push(nowMs() - t);
  }
  return median(samples);
}

export async function scaleSection(): Promise<Measured> {
  return withBenchStage('scale', async (stage) => {
    const recorder = recordCapacity('scale');
    const call = async (method: string, path: string, body?: unknown, anonymous = false) => {
      const res = await fetch(`${stage.baseUrl}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', ...(anonymous ? {} : { 'X-API-Key': stage.adminKey }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    const ok = async (method: string, path: string, body?: unknown, anonymous = false) => {
      const r = await call(method, path, body, anonymous);
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return (r.body as { data: Record<string, unknown> }).data;
    };
    const loc = stage.locationId;
    for (let i = 0; i < EXTRA_TABLES; i++)
      await ok('POST', `/api/v1/locations/${loc}/tables`, {
        name: `S${i + 1}`,
        minCapacity: 1,
        maxCapacity: i % 3 === 0 ? 6 : 4,
      });
    const date = busySaturday();
    const times = Array.from({ length: 37 }, (_, i) => {
      const minutes = 12 * 60 + 30 + i * 15;
      return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    });
    let booked = 0;
    for (let i = 0; i < BUSY_DAY_REQUESTS; i++) {
      const r = await call('POST', '/api/v1/bookings', {
        locationId: loc,
        bookingDate: date,
        startTime: times[(i * 7) % times.length],
        guestCount: 2 + (i % 3),
        guestName: `Guest ${i}`,
        specialRequests: i % 4 === 0 ? 'Window seat if possible, one high chair' : undefined,
      });
      if (r.status === 200) booked += 1;
    }

    const measure = async (operation: string, what: string, run: () => Promise<unknown>) => {
      await run(); // warm: caches filled as on a busy container
      return costOf(operation, what, await recorder.record(run));
    };
    const newBooking = (startTime: string) =>
      ok('POST', '/api/v1/bookings', {
        locationId: loc,
        bookingDate: date,
        startTime,
        guestCount: 2,
        guestName: 'Scale Model',
        guestPhone: '+46701234567',
      });

    const operations: Omit<OperationCost, 'rateWindow'>[] = [];
    operations.push(
      await measure('getAvailability', `the busy day (${booked} bookings), party of 2`, () =>
        ok('GET', `/api/v1/locations/${loc}/availability?date=${date}&partySize=2`),
      ),
    );
    // A container's first call for the location, or its first after a layout write: the layout is
    // read too (docs/availability.md, “The layout cache”). Shown, not in the peak mix.
    operations.push(
      costOf(
        'getAvailability (layout read)',
        'the same, on a container that kept no layout',
        await recorder.record(async () => {
          layoutCache.clear();
          await ok('GET', `/api/v1/locations/${loc}/availability?date=${date}&partySize=2`);
        }),
      ),
    );
    let created: Record<string, unknown> = {};
    operations.push(
      costOf(
        'createBooking',
        'staff, no tables: automatic assignment',
        await recorder.record(async () => {
          created = await newBooking('11:00');
        }),
      ),
    );
    const id = String(created.id);
    const code = String(created.confirmationCode);
    operations.push(await measure('getBooking', 'by id', () => ok('GET', `/api/v1/bookings/${id}`)));
    operations.push(
      await measure('listBookings', "the location's date, first page", () =>
        ok('GET', `/api/v1/bookings?locationId=${loc}&bookingDate=${date}`),
      ),
    );
    let n = 0;
    operations.push(
      await measure('updateBooking', 'special requests changed', () =>
        ok('PATCH', `/api/v1/bookings/${id}`, { specialRequests: `Note ${++n}` }),
      ),
    );
    const seated = String((await newBooking('11:00')).id);
    operations.push(
      costOf(
        'seatBooking',
        'a status change',
        await recorder.record(() => ok('POST', `/api/v1/bookings/${seated}/seat`, {})),
      ),
    );
    const cancelled = String((await newBooking('11:00')).id);
    operations.push(
      costOf(
        'cancelBooking',
        'a status change that frees the tables',
        await recorder.record(() => ok('POST', `/api/v1/bookings/${cancelled}/cancel`, {})),
      ),
    );
    operations.push(
      await measure('getBookingByCode', 'public, by the confirmation code', () =>
        ok('GET', `/api/v1/bookings/by-code/${code}`, undefined, true),
      ),
    );
    operations.push(
      await measure('listEvents', "the company's event log, first page", () => ok('GET', '/api/v1/events')),
    );
    let g = 0;
    operations.push(
      await measure('createGuest', 'a new guest with a phone number', () =>
        ok('POST', '/api/v1/users/guests', { name: `Scale Guest ${++g}`, phone: `+4670${String(1000000 + g)}` }),
      ),
    );
    // The API key lookup a cold container (or a cache miss) makes before the request's own work.
    clearKeyCache();
    const cold = await recorder.record(() => ok('GET', `/api/v1/bookings/${id}`));
    const keyLookup = cold.filter((c) => c.role === 'auth');
    // The window's lease, on a fresh container: once per block of a key's requests once it is warm
    // (docs/api.md, “How the window is counted”); the model's keys and clients are at the standard tier.
    rateLeases.forget();
    const leased = (await recorder.record(() => ok('GET', `/api/v1/bookings/${id}`))).filter((c) => c.role === 'rate');
    const block = maxLeaseBlock(tierLimits.standard);
    const leaseUnits = leased.reduce((s, c) => s + c.writeUnits + c.indexWriteUnits, 0);
    const rateWindow = { writes: leaseUnits / block, calls: leased.length / block };
    return {
      date,
      bookings: booked,
      tables: 10 + EXTRA_TABLES,
      operations: operations.map((o) => ({ ...o, rateWindow })),
      rateLease: { units: leaseUnits, block },
      // Production's settings: the edge has no platform-wide rule (test/infra/edge.test.ts holds it to
      // per-client rules only), and the delivery function's cap is the pipeline's stage setting.
      design: { publicTotalRps: null, deliveryConcurrency: pipelineDefaults.prod.deliveryConcurrency },
      keyLookupReadUnits: keyLookup.reduce((s, c) => s + c.readUnits, 0),
      bcryptMs: await bcryptMs(),
    };
  });
}

export function scaleCostMarkdown(m: Measured): string[] {
  return [
    `Measured on the local stage: location ${m.tables} tables, ${m.bookings} bookings on ${m.date}; one warm request of each`,
    'operation (the rate window apart). Units as DynamoDB Local reports them (`ReturnConsumedCapacity: INDEXES`;',
    'transactions count double). Partitions written are item keys and index keys, one per item copy.',
    '',
    table(
      [
        'Operation',
        'Request',
        'Commands',
        'Read units',
        'Write units',
        'Index write units',
        'Items',
        'Partitions written',
        'Partitions read',
      ],
      m.operations.map((o) => [
        `\`${o.operation}\``,
        o.what,
        o.commands.join(', '),
        o.readUnits,
        o.writeUnits,
        o.indexWriteUnits,
        o.items,
        tally(o.partitions),
        tally(o.readPartitions),
      ]),
    ),
    '',
    m.rateLease
      ? `The rate window: a lease of ${m.rateLease.units} write unit(s) once per block of ${m.rateLease.block} requests of a standard key, ${m.operations[0]?.rateWindow.writes ?? 0} a request. A key lookup (cache miss) reads ${m.keyLookupReadUnits} unit(s).`
      : `Every request also sends its rate window's UpdateItem: ${m.operations[0]?.rateWindow.writes ?? 0} write unit(s) each. A key lookup (cache miss) reads ${m.keyLookupReadUnits} unit(s).`,
  ];
}

function tally(list: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const p of list) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].map(([p, c]) => (c > 1 ? `${p} ×${c}` : p)).join(', ');
}

/** Availability's read units on a busy day, and the calls a second one location then sustains (docs/scale.md). */
export const AVAILABILITY_UNITS_BUDGET = 10;
export const AVAILABILITY_CALLS_BUDGET = 500;
/** Events a second one location's event log sustains. */
export const EVENTS_PER_LOCATION_BUDGET = 250;

export function scaleChecks(m: Measured): [string, string, string, Verdict][] {
  const avail = m.operations.find((o) => o.operation === 'getAvailability');
  const units = avail?.readUnits ?? Number.NaN;
  const hottest = Math.max(...Object.values(avail?.partitionReadUnits ?? {}), 0);
  const events = m.operations.flatMap((o) =>
    Object.entries(o.partitionUnits).filter(([p]) => p.includes('#EVENTS') && !p.startsWith('gsi')),
  );
  // A location's events in its partition; events that name no location in the company's shards (`#EVENTS#<n>`).
  const perLocation = events.every(([p]) => p.includes('#L#') || p.endsWith('#EVENTS#<n>'));
  const eventUnits = Math.max(...events.filter(([p]) => p.includes('#L#')).map(([, u]) => u), 0);
  const blocking = walls(m).filter((w) => w.use.some((u) => u >= 1) && !w.holds.includes('quota'));
  return [
    [
      '§12 Availability read units, busy day',
      `≤ ${AVAILABILITY_UNITS_BUDGET}`,
      `${units} (${m.bookings} bookings)`,
      verdict(units <= AVAILABILITY_UNITS_BUDGET),
    ],
    [
      "§12 Availability calls/s one location's hottest partition sustains",
      `≥ ${AVAILABILITY_CALLS_BUDGET}`,
      (LIMITS.partitionReadUnits / hottest).toFixed(0),
      verdict(LIMITS.partitionReadUnits / hottest >= AVAILABILITY_CALLS_BUDGET),
    ],
    [
      '§12 Event log partitioned per location (company-wide events in shards), events/s each location sustains',
      `per location, ≥ ${EVENTS_PER_LOCATION_BUDGET}`,
      `${perLocation ? 'per location' : 'per company'}, ${(LIMITS.partitionWriteUnits / eventUnits).toFixed(0)}`,
      verdict(perLocation && LIMITS.partitionWriteUnits / eventUnits >= EVENTS_PER_LOCATION_BUDGET),
    ],
    [
      '§12 Walls reached at the three sizes, quotas apart',
      'none',
      blocking.length ? blocking.map((w) => w.limit.split(':')[0]).join('; ') : 'none',
      verdict(blocking.length === 0),
    ],
  ];
}

export function scaleMarkdown(m: Measured): string[] {
  return [...scaleCostMarkdown(m), '', ...modelMarkdown(m, baseline())];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const m = await scaleSection();
  // `--baseline` records this run as the baseline (only before the first change of docs/scale.md).
  if (process.argv.includes('--baseline')) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(BASELINE_PATH, `${JSON.stringify(m, null, 2)}\n`);
  }
  console.log(scaleMarkdown(m).join('\n'));
}
