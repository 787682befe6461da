/**
 * The purchase day totals against DynamoDB Local (docs/purchases.md, "Day totals"): a day of many
 * purchases with many distinct lines, each recorded by its own transaction (`purchases.record`, as
 * recording a purchase writes it). The day item every purchase rewrites stays within its stated
 * 230 bytes however much the day sells, the buckets share the rest evenly, and the purchase
 * summary of the day is the sum of the purchases, in both modes. A day recorded before the buckets
 * (every counter in the day item and its `#1` part) still reads the same with purchases added
 * after.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { db, tableName } from '../../shared/data/client';
import { keys } from '../../shared/data/keys';
import { DAY_BUCKETS, dayTotals, purchases, type Purchase, type PurchaseLine } from '../../shared/data/purchases';
import { createLocation } from '../../shared/domain/locations';
import { purchaseSummary } from '../../shared/domain/reporting/operations';
import { sumCounters, summarize } from '../../shared/domain/reporting/summary';
import { vatRowsOf } from '../../shared/domain/tabs/bill';
import { weekdays } from '../../shared/schemas/locations';
import { idBlock } from '../support/id-blocks';
import { itemBytes } from '../support/item-size';

const ids = idBlock(import.meta.url);
const companyId = ids.next();
const principal: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
};
const ALL_DAY = Object.fromEntries(weekdays.map((d) => [d, [{ open: '00:00', close: '24:00' }]]));

/** The bound docs/purchases.md states for the day item. */
const DAY_ITEM_MAX_BYTES = 230;
const DATE = '2026-03-10';
const OLD_DATE = '2026-03-09';

let locationId: number;
const tabId = randomUUID();
let tabVersion = 1;

const centers = Array.from({ length: 8 }, (_, i) => ({ code: `CC${i}`, name: `Center ${i}` }));
const providers = ['card', 'swish', 'cash', 'gift_card'];

/** Purchase k: 49 lines sold only in it (1,960 over the day) and the house wine every purchase sells. */
function purchaseOf(k: number, localDate = DATE): Purchase {
  const items: PurchaseLine[] = [
    ...Array.from({ length: 49 }, (_, i) => {
      const quantity = 1 + ((k + i) % 3);
      const unitPrice = 1_000 + ((k * 53 + i * 7) % 4_000);
      return {
        itemId: i % 5 === 0 ? null : 10_000 + k * 100 + i,
        name: `Dish ${k}-${i} with a name as long as a menu's`,
        quantity,
        unitPrice,
        amount: quantity * unitPrice,
        vatRate: [6, 12, 25][i % 3]!,
        costCenter: i % 7 === 0 ? null : centers[(k + i) % centers.length]!,
      };
    }),
    { itemId: 500, name: 'House wine', quantity: 2, unitPrice: 9_000, amount: 18_000, vatRate: 25, costCenter: null },
  ];
  const amount = items.reduce((sum, l) => sum + l.amount, 0);
  const at = `${localDate}T19:00:00.000Z`;
  return {
    id: randomUUID(),
    tabId,
    bookingId: null,
    locationId,
    status: 'succeeded',
    items,
    amount,
    vatRows: vatRowsOf(items),
    tip: k % 2 === 0 ? 2_000 : 0,
    serviceFee: k % 5 === 0 ? 500 : 0,
    total: amount + (k % 2 === 0 ? 2_000 : 0) + (k % 5 === 0 ? 500 : 0),
    paymentProvider: providers[k % providers.length]!,
    providerReference: null,
    localDate,
    pickedUpAt: null,
    createdAt: at,
    updatedAt: at,
    version: 1,
  };
}

/** Records the purchase as recording does (its transaction: the purchase, the tab's side, the day totals). */
async function record(p: Purchase): Promise<void> {
  await purchases.record(
    companyId,
    p,
    { read: { id: tabId, locationId, status: 'open', version: tabVersion }, paidCents: 0, closes: false },
    [],
  );
  tabVersion += 1;
}

const dayPrefix = () => `PDAY#L#${keys.pad(locationId)}#`;

async function dayItems(date: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': keys.company(companyId), ':sk': `${dayPrefix()}${date}` },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

const summaryOf = (startDate: string, endDate: string, splitByCostCenter: boolean) =>
  purchaseSummary(principal, { locationId, startDate, endDate, splitByCostCenter }, {});

/** The summary made from the purchases themselves: every counter each adds, summed. */
const expectedOf = (all: Purchase[], split: boolean) =>
  summarize(sumCounters(all.map((p) => ({ counters: dayTotals(p) }))), split);

beforeAll(async () => {
  locationId = (
    await createLocation(
      principal,
      { name: 'Day totals bistro', timezone: 'Europe/Stockholm', operatingHours: ALL_DAY },
      ids.next(),
    )
  ).id;
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { pk: keys.company(companyId), sk: `TAB#${tabId}`, entity: 'TAB', status: 'open', version: tabVersion },
    }),
  );
});

describe('the day totals of a day of many distinct lines', () => {
  const day: Purchase[] = [];

  it(`keep the day item every purchase rewrites within ${DAY_ITEM_MAX_BYTES} bytes, and spread the lines evenly over the buckets`, async () => {
    const dayKey = { pk: keys.company(companyId), sk: `${dayPrefix()}${DATE}` };
    let largest = 0;
    for (let k = 0; k < 40; k++) {
      const p = purchaseOf(k);
      day.push(p);
      await record(p);
      const item = (await db().send(new GetCommand({ TableName: tableName(), Key: dayKey, ConsistentRead: true })))
        .Item!;
      largest = Math.max(largest, itemBytes(item));
    }
    expect(largest).toBeLessThanOrEqual(DAY_ITEM_MAX_BYTES);

    const items = await dayItems(DATE);
    const [dayItem, ...buckets] = items;
    expect(dayItem).toMatchObject({ sk: dayKey.sk, n: 40, amount: day.reduce((sum, p) => sum + p.amount, 0) });
    expect(Object.keys(dayItem!).sort()).toEqual(
      ['pk', 'sk', 'entity', 'companyId', 'locationId', 'localDate', 'n', 'amount', 'tip', 'serviceFee'].sort(),
    );
    // 1,961 distinct lines and the day's rates, providers and cost centers, over the buckets.
    expect(buckets.length).toBeGreaterThan(DAY_BUCKETS * 0.9);
    expect(buckets.length).toBeLessThanOrEqual(DAY_BUCKETS);
    for (const b of buckets) expect(String(b.sk)).toMatch(new RegExp(`^${dayPrefix()}${DATE}#B\\d{2}$`));
    const sizes = buckets.map(itemBytes);
    const mean = sizes.reduce((sum, s) => sum + s, 0) / sizes.length;
    expect(mean).toBeGreaterThan(2_000);
    expect(Math.max(...sizes)).toBeLessThan(mean * 1.5);
  });

  it('sum to the purchases in the summary, in both modes', async () => {
    for (const split of [false, true]) expect(await summaryOf(DATE, DATE, split)).toEqual(expectedOf(day, split));
    const summary = await summaryOf(DATE, DATE, false);
    expect(summary.totals.count).toBe(40);
    expect(summary.totals.amount).toBe(day.reduce((sum, p) => sum + p.amount, 0));
    expect(summary.totals.tip).toBe(day.reduce((sum, p) => sum + p.tip, 0));
    expect(summary.items).toHaveLength(40 * 49 + 1);
    expect(summary.items.find((r) => r.name === 'House wine')).toMatchObject({ quantity: 80, amount: 720_000 });
    expect(summary.psp.map((r) => [r.paymentProvider, r.count])).toEqual(
      [...providers].sort().map((name) => [name, 10]),
    );
  });
});

describe('a day recorded before the buckets', () => {
  it('still sums to its purchases once purchases recorded now are added to it', async () => {
    // As recording wrote it then: every counter in the day item, beyond 200 in its `#1` part.
    const old = purchaseOf(100, OLD_DATE);
    // 100 lines of 100 cost centers: more counters than one update took then.
    const lines = Array.from({ length: 100 }, (_, i) => ({
      ...old.items[i % old.items.length]!,
      name: `Old dish ${i}`,
      costCenter: { code: `OLD${i}`, name: `Old center ${i}` },
    }));
    const amount = lines.reduce((sum, l) => sum + l.amount, 0);
    const before: Purchase = {
      ...old,
      items: lines,
      amount,
      vatRows: vatRowsOf(lines),
      total: amount + old.tip + old.serviceFee,
    };
    const counters = Object.entries(dayTotals(before));
    expect(counters.length).toBeGreaterThan(200);
    const bookkeeping = { entity: 'PURCHASE_DAY', companyId, locationId, localDate: OLD_DATE };
    for (const [suffix, part] of [
      ['', counters.slice(0, 200)],
      ['#1', counters.slice(200)],
    ] as const)
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            pk: keys.company(companyId),
            sk: `${dayPrefix()}${OLD_DATE}${suffix}`,
            ...bookkeeping,
            ...Object.fromEntries(part),
          },
        }),
      );
    const after = [purchaseOf(101, OLD_DATE), purchaseOf(102, OLD_DATE)];
    for (const p of after) await record(p);

    for (const split of [false, true])
      expect(await summaryOf(OLD_DATE, OLD_DATE, split)).toEqual(expectedOf([before, ...after], split));
    // The old day item took only the fixed counters of the later purchases: it grew by nothing.
    const [oldDay] = await dayItems(OLD_DATE);
    expect(Object.keys(oldDay!).length).toBe(6 + 200);
    expect(oldDay!.n).toBe(3);
  });
});
