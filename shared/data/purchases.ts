/**
 * Purchases (purchase intents) on tabs, and the day's purchase totals of a location
 * (docs/purchases.md#data):
 *
 *   purchase    C#<cid> / PURCHASE#<id>              gsi1 C#<cid>#TAB#<tabId>#PURCHASES / <createdAt>#<id>   version
 *   day totals  C#<cid> / PDAY#L#<loc:12>#<date>     flat counters, added to in each purchase's transaction
 *   reference   C#<cid> / PREF#<provider>#<reference>  purchaseId: a provider's reference is recorded once
 *
 * A purchase is written with its tab's side (tabs.ts purchaseStep) and its event in one
 * transaction; when it pays the tab in full and the tab belongs to a booking, the booking's write
 * (bookingWrite.ts) carries these steps in `also`.
 */
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { CostCenter } from '../schemas/items';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { logPage, queryUntil, readLog, type PageRequest } from './paging';
import { purchaseStep, type TabPayment } from './tabs';
import { conditionalPutStep, putNewStep, transact, updateStep, type Step } from './transact';

/** A line paid for; prices in minor units, VAT included. */
export interface PurchaseLine {
  itemId: number | null;
  name: string;
  quantity: number;
  unitPrice: number;
  /** quantity × unitPrice. */
  amount: number;
  vatRate: number | null;
  costCenter: CostCenter | null;
}

/** The VAT of one rate in a purchase: `amount` gross (VAT included), `vat` the VAT in it. */
export interface VatRow {
  vatRate: number;
  amount: number;
  vat: number;
}

/** Only payments that happened are recorded (docs/purchases.md#status). */
export type PurchaseStatus = 'succeeded';

export interface Purchase {
  id: string;
  tabId: string;
  bookingId: string | null;
  locationId: number;
  status: PurchaseStatus;
  /** Empty when the purchase pays a plain amount. */
  items: PurchaseLine[];
  /** What pays the bill (minor units), without tip and service fee. */
  amount: number;
  vatRows: VatRow[];
  tip: number;
  serviceFee: number;
  /** amount + tip + serviceFee: what the guest was charged. */
  total: number;
  paymentProvider: string;
  providerReference: string | null;
  /** The location's local date the purchase falls on (its day totals). */
  localDate: string;
  pickedUpAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const tabPartition = (companyId: number, tabId: string) => `${keys.company(companyId)}#TAB#${tabId}#PURCHASES`;

export const purchaseEntity = defineEntity({
  name: 'PURCHASE',
  label: 'purchase',
  key: (companyId: number, id: string) => companyKey(companyId, `PURCHASE#${id}`),
  keyOf: (companyId, p: Purchase) => [companyId, p.id] as const,
  fields: ['id', 'tabId', 'bookingId', 'locationId', 'status', 'items', 'amount', 'vatRows', 'tip', 'serviceFee', 'total', 'paymentProvider', 'providerReference', 'localDate', 'pickedUpAt', 'createdAt', 'updatedAt', 'version'],
  indexes: (companyId, p) => ({ gsi1pk: tabPartition(companyId, p.tabId), gsi1sk: `${p.createdAt}#${p.id}` }),
});

/**
 * The counters a purchase adds to its location's day (the seam the purchase summary reads, one
 * GetItem per day): flat attribute names, so that every counter is one `ADD` and the first
 * purchase of a day needs no create. `n` purchases; `amount`, `tip`, `serviceFee` totals; per VAT
 * rate `vat|<rate>|amount` and `vat|<rate>|vat`; per provider `psp|<provider>|amount` and `…|n`;
 * per line `item|<itemId or name>|<unitPrice>|qty` and `…|amount`; per cost center
 * `cc|<code>|amount`.
 */
export function dayTotals(p: Purchase): Record<string, number> {
  const out: Record<string, number> = { n: 1, amount: p.amount, tip: p.tip, serviceFee: p.serviceFee };
  const add = (name: string, value: number) => void (out[name] = (out[name] ?? 0) + value);
  for (const v of p.vatRows) {
    add(`vat|${v.vatRate}|amount`, v.amount);
    add(`vat|${v.vatRate}|vat`, v.vat);
  }
  add(`psp|${p.paymentProvider}|amount`, p.amount);
  add(`psp|${p.paymentProvider}|tip`, p.tip);
  add(`psp|${p.paymentProvider}|n`, 1);
  for (const l of p.items) {
    const line = `item|${l.itemId ?? `name:${l.name}`}|${l.unitPrice}`;
    add(`${line}|qty`, l.quantity);
    add(`${line}|amount`, l.amount);
    if (l.costCenter) add(`cc|${l.costCenter.code}|amount`, l.amount);
  }
  return out;
}

const dayKey = (companyId: number, locationId: number, localDate: string) => companyKey(companyId, `PDAY#L#${keys.pad(locationId)}#${localDate}`);

/** Adds the purchase to its location's day totals (made by the first purchase of the day). */
function dayTotalsStep(companyId: number, p: Purchase): Step {
  return updateStep(dayKey(companyId, p.locationId, p.localDate), { entity: 'PURCHASE_DAY', companyId, locationId: p.locationId, localDate: p.localDate }, { add: dayTotals(p) });
}

/** A provider's reference is recorded once per company: a second purchase naming it is refused (a POS retrying a payment it already recorded). */
export class ReferenceTaken extends AppError {
  constructor(provider: string, reference: string) {
    super('CONFLICT', `A purchase with ${provider} reference ${reference} is already recorded`, [{ path: '/providerReference', message: 'is already recorded (GET the tab\'s purchases)' }]);
  }
}

const referenceKey = (companyId: number, provider: string, reference: string) => companyKey(companyId, `PREF#${provider}#${reference}`);

/** Every step of recording a purchase but the booking's: the purchase (and its provider reference), its tab's side, the day totals, the events. */
export function purchaseSteps(companyId: number, p: Purchase, tab: TabPayment, events: readonly DomainEvent[]): Step[] {
  const reference = p.providerReference === null
    ? []
    : [putNewStep({ ...referenceKey(companyId, p.paymentProvider, p.providerReference), entity: 'PURCHASE_REF', companyId, purchaseId: p.id, tabId: p.tabId }, () => new ReferenceTaken(p.paymentProvider, p.providerReference!))];
  return [purchaseEntity.newItemStep(companyId, p), ...reference, purchaseStep(companyId, tab, p.createdAt), dayTotalsStep(companyId, p), ...events.map(outboxStep)];
}

export const purchases = {
  get: purchaseEntity.get,
  /** The purchase as last written (a strongly consistent read: after a write that lost to another). */
  getConsistent: (companyId: number, id: string) => purchaseEntity.getWith({ consistent: true }, companyId, id),
  read: purchaseEntity.read,

  /** Records a purchase on a tab that belongs to no booking, or that stays open (else the booking's write carries purchaseSteps). */
  record: (companyId: number, p: Purchase, tab: TabPayment, events: readonly DomainEvent[]): Promise<void> => transact(purchaseSteps(companyId, p, tab, events)),

  /** A tab's purchases, oldest first: one Query per page. */
  async listByTab(companyId: number, tabId: string, page: PageRequest): Promise<Page<Purchase>> {
    return logPage(await readLog({ index: 'gsi1', partition: tabPartition(companyId, tabId) }, page), purchaseEntity.from);
  },

  /** The tab's newest purchase, if any: one Query of one item. */
  async newest(companyId: number, tabId: string): Promise<Purchase | undefined> {
    const { items } = await queryUntil({ index: 'gsi1', partition: tabPartition(companyId, tabId), newestFirst: true }, 1);
    return items[0] && purchaseEntity.from(items[0]);
  },

  /** Marks a purchase picked up, if it is still as read (not picked up), with its event. */
  async pickUp(companyId: number, next: Purchase, event: DomainEvent): Promise<void> {
    await transact([
      conditionalPutStep(purchaseEntity.item(companyId, next), { expression: 'version = :v AND attribute_type(pickedUpAt, :null)', values: { ':v': next.version - 1, ':null': 'NULL' } }, () => conflict(`Purchase ${next.id} was changed by another request`)),
      outboxStep(event),
    ]);
  },
};
