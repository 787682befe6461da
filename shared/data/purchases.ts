/**
 * Purchases (purchase intents) on tabs, and the day's purchase totals of a location
 * (docs/purchases.md#data):
 *
 *   purchase    C#<cid> / PURCHASE#<id>              gsi1 C#<cid>#TAB#<tabId>#PURCHASES / <createdAt>#<id>   version
 *   day totals  C#<cid> / PDAY#L#<loc:12>#<date>     the fixed counters, added to in each purchase's transaction
 *   day bucket  C#<cid> / PDAY#L#<loc:12>#<date>#B<nn>  the keyed counters (per line, rate, provider, cost center) hashed to it
 *   reference   C#<cid> / PREF#<provider>#<reference>  purchaseId: a provider's reference is recorded once
 *
 * A purchase is written with its tab's side (tabs.ts purchaseStep) and its event in one
 * transaction; when it pays the tab in full and the tab belongs to a booking, the booking's write
 * (bookingWrite.ts) carries these steps in `also`.
 */
import type { Static } from '@sinclair/typebox';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { PurchaseView } from '../schemas/purchases';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { logPage, queryAll, queryUntil, readLog, type PageRequest } from './paging';
import { purchaseStep, type TabPayment } from './tabs';
import { conditionalPutStep, putNewStep, transact, updateStep, type Step } from './transact';

/**
 * A purchase as stored and shown: declared by PurchaseView. Prices in minor units, VAT included;
 * `items` is empty when it pays a plain amount; `amount` is what pays the bill (without tip and
 * service fee), `total` = amount + tip + serviceFee, what the guest was charged; `localDate` the
 * location's local date the purchase falls on (its day totals); `status` is always `succeeded`:
 * only payments that happened are recorded (docs/purchases.md#status).
 */
export type Purchase = Static<typeof PurchaseView>;

/** A line paid for (`amount` = quantity × unitPrice). */
export type PurchaseLine = Purchase['items'][number];

/** The VAT of one rate in a purchase: `amount` gross (VAT included), `vat` the VAT in it. */
export type VatRow = Purchase['vatRows'][number];

const tabPartition = (companyId: number, tabId: string) => `${keys.company(companyId)}#TAB#${tabId}#PURCHASES`;

const purchaseEntity = defineEntity({
  name: 'PURCHASE',
  label: 'purchase',
  key: (companyId: number, id: string) => companyKey(companyId, `PURCHASE#${id}`),
  schema: PurchaseView,
  keyOf: (companyId, p) => [companyId, p.id] as const,
  indexes: (companyId, p) => ({ gsi1pk: tabPartition(companyId, p.tabId), gsi1sk: `${p.createdAt}#${p.id}` }),
});

/**
 * The counters a purchase adds to its location's day (the seam the purchase summary reads,
 * docs/purchases.md#day-totals): flat attribute names, so that every counter is one `ADD` and the
 * first purchase of a day needs no create. The four fixed ones go to the day item, the others to
 * its buckets (`dayWrites` below). Free-text parts (a line's name, a cost center's code and
 * name) are URI-encoded, so `|` always separates parts; an absent part is empty.
 *
 * - `n` purchases; `amount`, `tip`, `serviceFee` totals;
 * - per VAT rate `vat|<rate>|amount` (gross) and `vat|<rate>|vat`;
 * - per provider `psp|<provider>|amount`, `…|tip`, `…|serviceFee`, `…|n`;
 * - per line kind `line|<itemId>|<unitPrice>|<vatRate>|<ccCode>|<name>`: the quantity (its amount
 *   is quantity × unitPrice, so it needs no counter of its own);
 * - per cost center `cc|<code>|<name>`: the gross of its lines;
 * - per provider and cost center (the code empty for what no cost center took: plain amounts,
 *   lines without one) `ccpsp|<provider>|<code>|amount` and `…|n`, the purchases with a share in it.
 */
export function dayTotals(p: Purchase): Record<string, number> {
  const out: Record<string, number> = { n: 1, amount: p.amount, tip: p.tip, serviceFee: p.serviceFee };
  const add = (name: string, value: number) => void (out[name] = (out[name] ?? 0) + value);
  for (const v of p.vatRows) {
    add(`vat|${v.vatRate}|amount`, v.amount);
    add(`vat|${v.vatRate}|vat`, v.vat);
  }
  const psp = `psp|${p.paymentProvider}`;
  add(`${psp}|amount`, p.amount);
  add(`${psp}|tip`, p.tip);
  add(`${psp}|serviceFee`, p.serviceFee);
  add(`${psp}|n`, 1);
  const shares = new Map<string, number>();
  for (const l of p.items) {
    const code = l.costCenter ? enc(l.costCenter.code) : '';
    add(`line|${l.itemId ?? ''}|${l.unitPrice}|${l.vatRate ?? ''}|${code}|${enc(l.name)}`, l.quantity);
    if (l.costCenter) add(`cc|${code}|${enc(l.costCenter.name)}`, l.amount);
    shares.set(code, (shares.get(code) ?? 0) + l.amount);
  }
  const uncovered = p.amount - p.items.reduce((sum, l) => sum + l.amount, 0);
  if (uncovered > 0 || p.tip > 0 || p.serviceFee > 0) shares.set('', (shares.get('') ?? 0) + uncovered);
  for (const [code, share] of shares) {
    add(`ccpsp|${p.paymentProvider}|${code}|amount`, share);
    add(`ccpsp|${p.paymentProvider}|${code}|n`, 1);
  }
  return out;
}

const enc = (part: string) => encodeURIComponent(part);

/**
 * The day items of a location: `PDAY#L#<loc:12>#<date>` (the fixed counters), `…#<date>#B<nn>` (a
 * bucket of keyed counters), and `…#<date>#1`, `…#<date>#2`, which days recorded before the buckets
 * may have (a purchase's counters beyond one update's share went there).
 */
const dayPrefix = (locationId: number) => `PDAY#L#${keys.pad(locationId)}#`;
const dayKey = (companyId: number, locationId: number, localDate: string, bucket: number | null) =>
  companyKey(
    companyId,
    `${dayPrefix(locationId)}${localDate}${bucket === null ? '' : `#B${String(bucket).padStart(2, '0')}`}`,
  );

/**
 * Counters one UpdateItem adds at most. DynamoDB bounds an update expression at 4 KB (about 13
 * characters a counter here): a bucket takes at most this many of one write's counters, and a
 * group that would overflow its bucket goes to the next one with room.
 */
export const COUNTERS_PER_UPDATE = 200;

/**
 * Buckets of a day's keyed counters. The counters named by what was sold (a line, a VAT rate, a
 * provider, a cost center) grow with every distinct one of the day; hashed over 32 items, the
 * items a purchase rewrites hold a 32nd of them each (it pays write units for what it rewrites):
 * one bucket nears DynamoDB's 400 KB only past some 250,000 distinct lines a day at one location
 * (about 5,000 of the longest names the API takes). A purchase touches at most 32 of them (one
 * update each): with the day item, the purchase, its reference, its tab, its events and a
 * booking's closing steps, its transaction stays far below DynamoDB's 100 items however many lines
 * (100 at most) it pays.
 */
export const DAY_BUCKETS = 32;

/** The most items one day of a location has: the day item, its buckets, and the two parts of a day recorded before the buckets. */
export const MAX_DAY_ITEMS = 1 + DAY_BUCKETS + 2;

/** The counters every purchase adds under the same names: the only ones in the day item itself, so it never grows. */
const FIXED_COUNTERS = new Set(['n', 'amount', 'tip', 'serviceFee']);

/** What a keyed counter is placed by: a VAT rate's, a provider's, a provider and cost center's counters go together; a line and a cost center are one counter each. */
const groupOf = (name: string) => (/^(?:vat|psp|ccpsp)\|/.test(name) ? name.slice(0, name.lastIndexOf('|')) : name);

/** Counters of the items of one day, by bucket (null: the day item); one transaction's worth. */
type DayWrite = Map<number | null, Record<string, number>>;

/**
 * The counters spread over the day's items: the fixed ones in the day item, each group of the
 * others in its bucket (`keys.bucket` of its name), or, when that bucket already holds
 * COUNTERS_PER_UPDATE of these counters, in the next bucket with room. The reader sums counters
 * by name whichever item holds them, so where a group lands changes no total. One purchase (at
 * most 430 counters) always fits one write; a bulk seed of more than 32 × 200 takes more.
 */
function dayWrites(counters: Record<string, number>): DayWrite[] {
  const writes: DayWrite[] = [];
  const write = (w: number) => (writes[w] ??= new Map());
  const fixed: Record<string, number> = {};
  const groups = new Map<string, [string, number][]>();
  for (const [name, value] of Object.entries(counters)) {
    if (FIXED_COUNTERS.has(name)) fixed[name] = value;
    else groups.set(groupOf(name), [...(groups.get(groupOf(name)) ?? []), [name, value]]);
  }
  if (Object.keys(fixed).length > 0) write(0).set(null, fixed);
  for (const [group, entries] of groups) {
    const home = keys.bucket(group, DAY_BUCKETS);
    place: for (let w = 0; ; w++) {
      for (let probe = 0; probe < DAY_BUCKETS; probe++) {
        const bucket = (home + probe) % DAY_BUCKETS;
        const into = write(w).get(bucket) ?? {};
        if (Object.keys(into).length + entries.length > COUNTERS_PER_UPDATE) continue;
        write(w).set(bucket, Object.assign(into, Object.fromEntries(entries)));
        break place;
      }
    }
  }
  return writes;
}

/** The updates of one write: each item's counters added (the item is made by its first update). */
const dayWriteSteps = (companyId: number, locationId: number, localDate: string, w: DayWrite): Step[] =>
  [...w].map(([bucket, add]) =>
    updateStep(
      dayKey(companyId, locationId, localDate, bucket),
      { entity: 'PURCHASE_DAY', companyId, locationId, localDate },
      { add },
    ),
  );

/** Adds the purchase to its location's day totals: the day item and the buckets its counters fall in, in its own transaction. */
function dayTotalsSteps(companyId: number, p: Purchase): Step[] {
  const writes = dayWrites(dayTotals(p));
  if (writes.length > 1)
    throw new Error(`a purchase's ${Object.keys(dayTotals(p)).length} counters need more than one write`);
  return dayWriteSteps(companyId, p.locationId, p.localDate, writes[0]!);
}

/** The day's items as the counters make them, by sort key suffix (`''` the day item, `#B<nn>` a bucket): what recording writes, for fixtures. */
export function dayItemsOf(counters: Record<string, number>): Map<string, Record<string, number>> {
  const items = new Map<string, Record<string, number>>();
  for (const w of dayWrites(counters))
    for (const [bucket, add] of w) {
      const suffix = bucket === null ? '' : `#B${String(bucket).padStart(2, '0')}`;
      items.set(suffix, sumCounters([{ counters: items.get(suffix) ?? {} }, { counters: add }]));
    }
  return items;
}

/** Counters of several day items (or purchases) added up by name. */
export function sumCounters(days: readonly { counters: Record<string, number> }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { counters } of days)
    for (const [name, value] of Object.entries(counters)) out[name] = (out[name] ?? 0) + value;
  return out;
}

/** One day item as stored: its local date and its counters (a day may have several items: sum them). */
export interface DayCounters {
  localDate: string;
  counters: Record<string, number>;
}

/** Attributes of a day item that are not counters. */
const dayBookkeeping = new Set(['pk', 'sk', 'entity', 'companyId', 'locationId', 'localDate']);

/**
 * The purchase day totals of a location: reading them for a range of local dates (inclusive) is
 * one Query of the company partition's `PDAY#L#<loc>#` keys between the two dates (DynamoDB pages
 * it at 1 MB), never a read per purchase.
 */
export const purchaseDays = {
  async range(
    companyId: number,
    locationId: number,
    startDate: string,
    endDate: string,
    maxItems: number,
  ): Promise<DayCounters[]> {
    const items = await queryAll(
      {
        partition: keys.company(companyId),
        range: {
          op: 'between',
          low: `${dayPrefix(locationId)}${startDate}`,
          high: `${dayPrefix(locationId)}${endDate}#~`,
        },
      },
      maxItems,
    );
    return items.map((item) => ({
      localDate: String(item.localDate),
      counters: Object.fromEntries(
        Object.entries(item).filter(([name, value]) => !dayBookkeeping.has(name) && typeof value === 'number'),
      ) as Record<string, number>,
    }));
  },

  /**
   * Adds purchases to their days' totals in bulk, one transaction per location and day (more for a
   * day of over 6,400 distinct counters; seeding: the bench's month, the summary's tests); the
   * counters are those recording adds, summed, in the items recording puts them in. Recording a
   * purchase adds its own in its transaction.
   */
  async add(companyId: number, all: readonly Purchase[]): Promise<void> {
    const days = new Map<string, Purchase[]>();
    for (const p of all)
      days.set(`${p.locationId}|${p.localDate}`, [...(days.get(`${p.locationId}|${p.localDate}`) ?? []), p]);
    await Promise.all(
      [...days.values()].map(async (day) => {
        const { locationId, localDate } = day[0]!;
        // One after another: two writes of one day touch the same items.
        for (const w of dayWrites(sumCounters(day.map((p) => ({ counters: dayTotals(p) })))))
          await transact(dayWriteSteps(companyId, locationId, localDate, w));
      }),
    );
  },
};

/** A provider's reference is recorded once per company: a second purchase naming it is refused (a POS retrying a payment it already recorded). */
export class ReferenceTaken extends AppError {
  constructor(provider: string, reference: string) {
    super('CONFLICT', `A purchase with ${provider} reference ${reference} is already recorded`, [
      { path: '/providerReference', message: "is already recorded (GET the tab's purchases)" },
    ]);
  }
}

const referenceKey = (companyId: number, provider: string, reference: string) =>
  companyKey(companyId, `PREF#${provider}#${reference}`);

/** Every step of recording a purchase but the booking's: the purchase (and its provider reference), its tab's side, the day totals, the events. */
export function purchaseSteps(companyId: number, p: Purchase, tab: TabPayment, events: readonly DomainEvent[]): Step[] {
  const reference =
    p.providerReference === null
      ? []
      : [
          putNewStep(
            {
              ...referenceKey(companyId, p.paymentProvider, p.providerReference),
              entity: 'PURCHASE_REF',
              companyId,
              purchaseId: p.id,
              tabId: p.tabId,
            },
            () => new ReferenceTaken(p.paymentProvider, p.providerReference!),
          ),
        ];
  return [
    purchaseEntity.newItemStep(companyId, p),
    ...reference,
    purchaseStep(companyId, tab, p.createdAt),
    ...dayTotalsSteps(companyId, p),
    ...events.map(outboxStep),
  ];
}

export const purchases = {
  get: purchaseEntity.get,
  /** The purchase as last written (a strongly consistent read: after a write that lost to another). */
  getConsistent: (companyId: number, id: string) => purchaseEntity.getWith({ consistent: true }, companyId, id),
  read: purchaseEntity.read,

  /** Records a purchase on a tab that belongs to no booking, or that stays open (else the booking's write carries purchaseSteps). */
  record: (companyId: number, p: Purchase, tab: TabPayment, events: readonly DomainEvent[]): Promise<void> =>
    transact(purchaseSteps(companyId, p, tab, events)),

  /** A tab's purchases, oldest first: one Query per page. */
  async listByTab(companyId: number, tabId: string, page: PageRequest): Promise<Page<Purchase>> {
    return logPage(
      await readLog({ index: 'gsi1', partition: tabPartition(companyId, tabId) }, page),
      purchaseEntity.from,
    );
  },

  /** Every purchase of a tab, oldest first (the VAT of a plain amount and the tab's answer read them): one Query; more than 1000 is 422. */
  async allOfTab(companyId: number, tabId: string): Promise<Purchase[]> {
    return (await queryAll({ index: 'gsi1', partition: tabPartition(companyId, tabId) }, 1000)).map(
      purchaseEntity.from,
    );
  },

  /** The tab's newest purchase, if any: one Query of one item. */
  async newest(companyId: number, tabId: string): Promise<Purchase | undefined> {
    const { items } = await queryUntil(
      { index: 'gsi1', partition: tabPartition(companyId, tabId), newestFirst: true },
      1,
    );
    return items[0] && purchaseEntity.from(items[0]);
  },

  /** Marks a purchase picked up, if it is still as read (not picked up), with its event. */
  async pickUp(companyId: number, next: Purchase, event: DomainEvent): Promise<void> {
    await transact([
      conditionalPutStep(
        purchaseEntity.item(companyId, next),
        {
          expression: 'version = :v AND attribute_type(pickedUpAt, :null)',
          values: { ':v': next.version - 1, ':null': 'NULL' },
        },
        () => conflict(`Purchase ${next.id} was changed by another request`),
      ),
      outboxStep(event),
    ]);
  },
};
