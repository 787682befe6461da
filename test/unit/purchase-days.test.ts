/**
 * Where a purchase's day totals go, without a database (docs/purchases.md, "Day totals"): the
 * fixed counters in the day item, whose size is bounded whatever the day sells; every other
 * counter in one of DAY_BUCKETS buckets, each update within COUNTERS_PER_UPDATE, every counter
 * written once with its value; and a purchase at the API's bounds in one transaction of at most
 * 100 items, even when all its counters hash to one bucket.
 */
import { describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { keys } from '../../shared/data/keys';
import {
  COUNTERS_PER_UPDATE,
  DAY_BUCKETS,
  dayItemsOf,
  dayTotals,
  purchaseSteps,
  type Purchase,
  type PurchaseLine,
} from '../../shared/data/purchases';
import type { Step } from '../../shared/data/transact';
import { itemBytes, WIDEST_NUMBER_BYTES } from '../support/item-size';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();

const COMPANY = 7;
const LOCATION = 101;
const DATE = '2026-11-14';
const tab = {
  read: { id: 'tab-1', locationId: LOCATION, status: 'open' as const, version: 3 },
  paidCents: 0,
  closes: false,
};

/** A purchase paying `items`, with one VAT row per rate the lines carry. */
function purchaseOf(items: PurchaseLine[], provider = 'card'): Purchase {
  const amount = items.reduce((sum, l) => sum + l.amount, 0);
  const rates = new Map<number, number>();
  for (const l of items) if (l.vatRate !== null) rates.set(l.vatRate, (rates.get(l.vatRate) ?? 0) + l.amount);
  const at = `${DATE}T18:00:00.000Z`;
  return {
    id: 'p-1',
    tabId: 'tab-1',
    bookingId: null,
    locationId: LOCATION,
    status: 'succeeded',
    items,
    amount,
    vatRows: [...rates].map(([vatRate, gross]) => ({
      vatRate,
      amount: gross,
      vat: Math.round((gross * vatRate) / (100 + vatRate)),
    })),
    tip: 500,
    serviceFee: 0,
    total: amount + 500,
    paymentProvider: provider,
    providerReference: 'ref-1',
    localDate: DATE,
    pickedUpAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

const line = (i: number, costCenter: PurchaseLine['costCenter'], vatRate = 12 + (i % 10)): PurchaseLine => ({
  itemId: 1000 + i,
  name: `Dish ${i}`,
  quantity: 1 + (i % 3),
  unitPrice: 100 + i,
  amount: (1 + (i % 3)) * (100 + i),
  vatRate,
  costCenter,
});

/** The day steps of a purchase's transaction: sort key and the counters each update adds. */
function daySteps(steps: Step[]): { sk: string; add: Record<string, number> }[] {
  return steps
    .filter((s) => String(s.item.Update?.Key?.sk ?? '').startsWith('PDAY#'))
    .map((s) => {
      const u = s.item.Update!;
      const names = u.ExpressionAttributeNames as Record<string, string>;
      const values = u.ExpressionAttributeValues as Record<string, number>;
      const added = /ADD (.*)$/.exec(u.UpdateExpression!)![1]!.split(', ');
      return {
        sk: String(u.Key!.sk),
        add: Object.fromEntries(
          added.map((pair) => {
            const [name, value] = pair.split(' ');
            return [names[name!]!, values[value!]!];
          }),
        ),
      };
    });
}

const dayItemSk = `PDAY#L#${keys.pad(LOCATION)}#${DATE}`;

describe("a purchase's day totals", () => {
  it('puts the four fixed counters in the day item and every other counter, once and with its value, in a bucket of the day', () => {
    const p = purchaseOf(
      Array.from({ length: 20 }, (_, i) =>
        line(i, i % 4 === 0 ? null : { code: `CC${i % 5}`, name: `Center ${i % 5}` }),
      ),
    );
    const steps = daySteps(purchaseSteps(COMPANY, p, tab, []));
    const day = steps.find((s) => s.sk === dayItemSk)!;
    expect(day.add).toEqual({ n: 1, amount: p.amount, tip: 500, serviceFee: 0 });
    const buckets = steps.filter((s) => s !== day);
    for (const b of buckets) expect(b.sk).toMatch(new RegExp(`^${dayItemSk}#B(\\d{2})$`));
    for (const b of buckets) expect(Number(b.sk.slice(-2))).toBeLessThan(DAY_BUCKETS);
    expect(new Set(buckets.map((b) => b.sk)).size).toBe(buckets.length);
    const written = buckets.flatMap((b) => Object.entries(b.add));
    const { n, amount, tip, serviceFee, ...keyed } = dayTotals(p);
    expect([n, amount, tip, serviceFee]).toEqual([1, p.amount, 500, 0]);
    expect(written.length).toBe(Object.keys(keyed).length);
    expect(Object.fromEntries(written)).toEqual(keyed);
    // A rate's, a provider's counters stay together: the summary reads them apart from the rest anyway, but a purchase touches fewer items.
    const holder = (name: string) => buckets.find((b) => name in b.add)!.sk;
    expect(holder('psp|card|amount')).toBe(holder('psp|card|n'));
    expect(holder(`vat|12|amount`)).toBe(holder('vat|12|vat'));
    // The same counters always land in the same buckets (the day's items, as recording makes them).
    expect(
      [...dayItemsOf(dayTotals(p))].map(([suffix, counters]) => [`${dayItemSk}${suffix}`, counters]).sort(),
    ).toEqual(steps.map((s) => [s.sk, s.add]).sort());
  });

  it('at the bounds (100 distinct lines, 100 cost centers, 10 rates) is one transaction of at most 100 items, each update within COUNTERS_PER_UPDATE', () => {
    const p = purchaseOf(Array.from({ length: 100 }, (_, i) => line(i, { code: `CC${i}`, name: `Center ${i}` })));
    expect(p.vatRows).toHaveLength(10);
    const counters = Object.keys(dayTotals(p)).length;
    expect(counters).toBe(4 + 2 * 10 + 4 + 100 + 100 + 2 * 101);
    const steps = purchaseSteps(COMPANY, p, tab, []);
    const days = daySteps(steps);
    expect(days.length).toBeLessThanOrEqual(1 + DAY_BUCKETS);
    expect(steps.length).toBeLessThanOrEqual(100);
    for (const d of days) expect(Object.keys(d.add).length).toBeLessThanOrEqual(COUNTERS_PER_UPDATE);
    expect(days.reduce((sum, d) => sum + Object.keys(d.add).length, 0)).toBe(counters);
  });

  it('spills what crowds one bucket to the next ones, still one write: 100 lines and 100 cost centers that all hash to bucket 0', () => {
    const home = (group: string) => keys.bucket(group, DAY_BUCKETS);
    // Names chosen so that every line, cost center and provider-and-cost-center group lands in bucket 0.
    const codes: string[] = [];
    for (let i = 0; codes.length < 100; i++) {
      const code = `K${i}`;
      if (home(`cc|${code}|Center`) === 0 && home(`ccpsp|card|${code}`) === 0) codes.push(code);
    }
    const names: string[] = [];
    for (let i = 0; names.length < 100; i++) {
      const l = line(names.length, { code: codes[names.length]!, name: 'Center' });
      const name = `Dish ${i}`;
      if (home(`line|${l.itemId}|${l.unitPrice}|${l.vatRate}|${codes[names.length]}|${encodeURIComponent(name)}`) === 0)
        names.push(name);
    }
    const p = purchaseOf(names.map((name, i) => ({ ...line(i, { code: codes[i]!, name: 'Center' }), name })));
    const days = daySteps(purchaseSteps(COMPANY, p, tab, []));
    // Bucket 0 takes what one update may hold; the other 200 or so counters went on to the buckets after it.
    const full = days.find((d) => d.sk === `${dayItemSk}#B00`)!;
    expect(Object.keys(full.add).length).toBeGreaterThan(COUNTERS_PER_UPDATE - 5);
    for (const d of days) expect(Object.keys(d.add).length).toBeLessThanOrEqual(COUNTERS_PER_UPDATE);
    expect(Object.fromEntries(days.flatMap((d) => Object.entries(d.add)))).toEqual(dayTotals(p));
  });

  it('keeps the day item within 230 bytes whatever it counts: the largest ids, every counter at the widest number DynamoDB stores', () => {
    const largest = Number.MAX_SAFE_INTEGER;
    const kept = {
      pk: keys.company(largest),
      sk: `PDAY#L#${keys.pad(largest)}#${DATE}`,
      entity: 'PURCHASE_DAY',
      companyId: largest,
      locationId: largest,
      localDate: DATE,
    };
    const counters = ['n', 'amount', 'tip', 'serviceFee'];
    const widest = itemBytes(kept) + counters.reduce((sum, name) => sum + name.length + WIDEST_NUMBER_BYTES, 0);
    expect(widest).toBe(230);
    // And what a purchase puts in it is those four counters alone, however many lines it pays.
    const p = purchaseOf(Array.from({ length: 100 }, (_, i) => line(i, null)));
    expect(Object.keys(daySteps(purchaseSteps(COMPANY, p, tab, [])).find((s) => s.sk === dayItemSk)!.add)).toEqual([
      'n',
      'amount',
      'tip',
      'serviceFee',
    ]);
  });
});
