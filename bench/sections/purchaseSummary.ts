/**
 * §9 The purchase summary of a month of 20,000 purchases at one location (docs/purchases.md): a real
 * DynamoDB Local; the purchases are written into the location's day totals in bulk through the
 * data layer (`purchaseDays.add`: the counters recording each purchase adds in its transaction,
 * summed per day, one transaction per day; the purchase items themselves are not written: the
 * summary never reads them; docs/benchmarks.md says why not 20,000 transactions). Then the summary of the month through the domain call the handler
 * makes, both modes, each call's DynamoDB commands counted and its latency taken; the answer is
 * compared with sums made over the generated purchases.
 *
 *   npx tsx bench/sections/purchaseSummary.ts    prints §9 alone
 */
import { fileURLToPath } from 'node:url';
import { ensureTable, startDynamoDbLocal } from '../../bin/local/dynamodb';
import type { Principal } from '../../shared/auth/principal';
import { setDb, tableName } from '../../shared/data/client';
import { locations, type Location } from '../../shared/data/locations';
import { MAX_DAY_ITEMS, purchaseDays, type Purchase, type PurchaseLine } from '../../shared/data/purchases';
import { purchaseSummary } from '../../shared/domain/reporting/operations';
import { vatRowsOf } from '../../shared/domain/tabs/bill';
import { newEvent } from '../../shared/events/catalog';
import { weekdays } from '../../shared/schemas/locations';
import type { Verdict } from '../lib/md';
import { ms, table } from '../lib/md';
import { percentile } from '../lib/stats';
import { countingClient } from './guestSearch';

export const SUMMARY_PURCHASES = 20_000;
const COMPANY_ID = 1;
const LOCATION_ID = 101;
const MONTH = { start: '2026-11-01', end: '2026-11-30', days: 30 };
const RUNS = 40;
const WARMUP = 5;

const principal: Principal = {
  kind: 'apiKey',
  companyId: COMPANY_ID,
  permissions: ['reports.read'],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: 'bench',
  internalOperator: false,
};

const kitchen = { code: 'KITCHEN', name: 'Kitchen' };
const bar = { code: 'BAR', name: 'Bar' };
/** A menu of 40 dishes and drinks: 12 % food in the kitchen, 25 % drinks at the bar, a few lines without a cost center. */
const menu = Array.from({ length: 40 }, (_, i) => ({
  itemId: 1000 + i,
  name: `${i < 25 ? 'Dish' : 'Drink'} ${i}`,
  unitPrice: 5_000 + (i % 9) * 2_500,
  vatRate: i < 25 ? 12 : 25,
  costCenter: i % 13 === 0 ? null : i < 25 ? kitchen : bar,
}));
const providers = ['card', 'swish', 'stripe', 'cash'];

/** Purchase i of the month: a deterministic mix of 1-4 lines, a provider, sometimes a tip or a plain amount. */
function purchaseOf(i: number): Purchase {
  const localDate = `2026-11-${String(1 + (i % MONTH.days)).padStart(2, '0')}`;
  const plain = i % 10 === 0;
  const items: PurchaseLine[] = plain
    ? []
    : Array.from({ length: 1 + (i % 4) }, (_, k) => {
        const m = menu[(i * 7 + k * 11) % menu.length]!;
        const quantity = 1 + ((i + k) % 3);
        return {
          itemId: m.itemId,
          name: m.name,
          quantity,
          unitPrice: m.unitPrice,
          amount: quantity * m.unitPrice,
          vatRate: m.vatRate,
          costCenter: m.costCenter,
        };
      });
  const amount = plain ? 10_000 + (i % 50) * 100 : items.reduce((s, l) => s + l.amount, 0);
  const tip = i % 3 === 0 ? 1_000 : 0;
  const serviceFee = i % 7 === 0 ? 500 : 0;
  const at = `${localDate}T18:00:00.000Z`;
  return {
    id: `p${i}`,
    tabId: `t${i}`,
    bookingId: null,
    locationId: LOCATION_ID,
    status: 'succeeded',
    items,
    amount,
    vatRows: plain ? [{ vatRate: 12, amount, vat: Math.round((amount * 12) / 112) }] : vatRowsOf(items),
    tip,
    serviceFee,
    total: amount + tip + serviceFee,
    paymentProvider: providers[i % providers.length]!,
    providerReference: null,
    localDate,
    pickedUpAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

export interface SummaryCase {
  split: boolean;
  latency: { median: number; p95: number; n: number };
  /** Commands of one call (every call sent the same). */
  commands: Record<string, number>;
  sameEveryCall: boolean;
  correct: boolean;
  why?: string;
}

export interface PurchaseSummaryResult {
  purchases: number;
  dayItems: number;
  seedMs: number;
  cases: SummaryCase[];
}

const tallyOf = (sent: string[]) => sent.reduce<Record<string, number>>((t, op) => ((t[op] = (t[op] ?? 0) + 1), t), {});

/** Sums over the generated purchases, to compare the summary with. */
function bruteForce(all: Purchase[]) {
  const sum = (f: (p: Purchase) => number) => all.reduce((s, p) => s + f(p), 0);
  const byProvider = Object.fromEntries(
    providers.map((name) => [name, sum((p) => (p.paymentProvider === name ? p.amount : 0))]),
  );
  return {
    count: all.length,
    amount: sum((p) => p.amount),
    vat: sum((p) => p.vatRows.reduce((s, v) => s + v.vat, 0)),
    tip: sum((p) => p.tip),
    serviceFee: sum((p) => p.serviceFee),
    byProvider,
  };
}

export async function purchaseSummarySection(): Promise<PurchaseSummaryResult> {
  const dynamo = await startDynamoDbLocal();
  const sent: string[] = [];
  try {
    await ensureTable(dynamo.endpoint, tableName());
    setDb(countingClient(dynamo.endpoint, sent));
    const now = new Date().toISOString();
    const hours = Object.fromEntries(weekdays.map((d) => [d, []])) as unknown as Location['operatingHours'];
    const location: Location = {
      id: LOCATION_ID,
      name: 'Bench bistro',
      timezone: 'Europe/Stockholm',
      operatingHours: hours,
      address: null,
      phone: null,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    await locations.create(
      COMPANY_ID,
      location,
      newEvent(COMPANY_ID, 'location.created', String(LOCATION_ID), { ...location }),
    );

    const all = Array.from({ length: SUMMARY_PURCHASES }, (_, i) => purchaseOf(i));
    const t0 = performance.now();
    await purchaseDays.add(COMPANY_ID, all);
    const seedMs = performance.now() - t0;
    const expected = bruteForce(all);
    const query = (split: boolean) => ({
      locationId: LOCATION_ID,
      startDate: MONTH.start,
      endDate: MONTH.end,
      splitByCostCenter: split,
    });

    const cases: SummaryCase[] = [];
    let dayItems = 0;
    for (const split of [false, true]) {
      for (let i = 0; i < WARMUP; i++) await purchaseSummary(principal, query(split), {});
      const samples: number[] = [];
      const perCall: string[] = [];
      let answer: Awaited<ReturnType<typeof purchaseSummary>> | undefined;
      for (let i = 0; i < RUNS; i++) {
        sent.length = 0;
        const start = performance.now();
        answer = await purchaseSummary(principal, query(split), {});
        samples.push(performance.now() - start);
        perCall.push(JSON.stringify(tallyOf(sent)));
      }
      const sorted = samples.sort((a, b) => a - b);
      const got = answer!;
      const providersGot = Object.fromEntries(
        providers.map((name) => [
          name,
          got.psp.filter((r) => r.paymentProvider === name).reduce((s, r) => s + r.amount, 0),
        ]),
      );
      const wrong = [
        got.totals.count !== expected.count && `count ${got.totals.count} ≠ ${expected.count}`,
        got.totals.amount !== expected.amount && `amount ${got.totals.amount} ≠ ${expected.amount}`,
        got.totals.vat !== expected.vat && `vat ${got.totals.vat} ≠ ${expected.vat}`,
        got.totals.tip !== expected.tip && `tip ${got.totals.tip} ≠ ${expected.tip}`,
        got.totals.serviceFee !== expected.serviceFee &&
          `service fee ${got.totals.serviceFee} ≠ ${expected.serviceFee}`,
        JSON.stringify(providersGot) !== JSON.stringify(expected.byProvider) &&
          `providers ${JSON.stringify(providersGot)} ≠ ${JSON.stringify(expected.byProvider)}`,
        split && got.costCenters?.length !== 2 && `${got.costCenters?.length} cost centers`,
      ].filter(Boolean);
      cases.push({
        split,
        latency: { median: percentile(sorted, 50), p95: percentile(sorted, 95), n: sorted.length },
        commands: JSON.parse(perCall[0]!) as Record<string, number>,
        sameEveryCall: perCall.every((c) => c === perCall[0]),
        correct: wrong.length === 0,
        ...(wrong.length ? { why: wrong.join('; ') } : {}),
      });
    }
    dayItems = (await purchaseDays.range(COMPANY_ID, LOCATION_ID, MONTH.start, MONTH.end, MONTH.days * MAX_DAY_ITEMS))
      .length;
    return { purchases: all.length, dayItems, seedMs, cases };
  } finally {
    setDb(undefined);
    await dynamo.stop();
  }
}

const commandsText = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([op, n]) => `${n} ${op}`)
    .join(', ');

/** Checks of the section: [check, budget, measured, verdict]. No latency budget exists for it: the latency is reported. */
export function purchaseSummaryChecks(r: PurchaseSummaryResult): [string, string, string, Verdict][] {
  return r.cases.map((c) => {
    const calls =
      c.commands.GetItem === 1 && c.commands.Query === 1 && Object.keys(c.commands).length === 2 && c.sameEveryCall;
    return [
      `§9 Purchase summary, ${r.purchases.toLocaleString('en')} purchases in a month${c.split ? ', split by cost center' : ''}`,
      'the sums of the purchases; 1 GetItem (location) + 1 Query (the day items), never a read per purchase',
      `${c.correct ? 'correct' : c.why}; ${commandsText(c.commands)}${c.sameEveryCall ? '' : ' (varied)'}; median ${ms(c.latency.median)}, p95 ${ms(c.latency.p95)}`,
      c.correct && calls ? 'PASS' : 'FAIL',
    ];
  });
}

export function purchaseSummaryMarkdown(r: PurchaseSummaryResult): string[] {
  return [
    `DynamoDB Local (in memory), one location (Europe/Stockholm). ${r.purchases.toLocaleString('en')} generated purchases over ${MONTH.days} days (1-4 lines from`,
    'a menu of 40 at 12 % and 25 %, two cost centers and lines without one; a tenth plain amounts; four providers; tips and service fees)',
    `written into the day totals in bulk with \`purchaseDays.add\`: the counters recording each purchase adds in its own transaction, summed per day,`,
    `one transaction per day: ${ms(r.seedMs)}, leaving ${r.dayItems} day items (each day's item and the buckets its counters fall in). The purchase items are not written: the summary never reads them.`,
    `Then \`purchaseSummary\` (the handler's domain call) for ${MONTH.start} to ${MONTH.end}: ${WARMUP} untimed calls, then ${RUNS} timed; a middleware on the client counts each call's commands.`,
    'The answer is compared with sums over the generated purchases (count, amount, VAT, tips, service fees, per provider).',
    '',
    table(
      ['Mode', 'Correct', 'Commands per call', 'Latency median', 'p95', 'Calls timed'],
      r.cases.map((c) => [
        c.split ? 'split by cost center' : 'legacy',
        c.correct ? 'yes' : `**no**: ${c.why}`,
        commandsText(c.commands),
        ms(c.latency.median),
        ms(c.latency.p95),
        c.latency.n,
      ]),
    ),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.STAGE = 'local';
  process.env.TABLE_NAME ??= 'bench';
  process.env.AWS_REGION ??= 'eu-north-1';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const result = await purchaseSummarySection();
  const lines = [
    `## 9. Purchase summary of a month of ${SUMMARY_PURCHASES.toLocaleString('en')} purchases`,
    '',
    ...purchaseSummaryMarkdown(result),
    '',
    table(['Check', 'Budget', 'Measured', 'Result'], purchaseSummaryChecks(result)),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
