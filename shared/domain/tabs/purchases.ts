/**
 * Purchases (purchase intents) on tabs (docs/purchases.md): record one, list a
 * tab's, the newest, mark one picked up, and the refund reasons of a location. Recording reads the
 * tab, then at once its orders, its booking and its location, and writes one transaction: the
 * purchase, the tab's paid total (at the version read), the day totals, the events and, when it
 * pays the bill in full, the tab's closing with its table's claim released and its booking's
 * record of it.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/principal';
import { noRead, readTogether } from '../../data/batch';
import { bookings, type Booking } from '../../data/bookings';
import { writeBooking } from '../../data/bookingWrite';
import { locations } from '../../data/locations';
import { orders, type Order } from '../../data/orders';
import { purchases, purchaseSteps, ReferenceTaken, type Purchase, type PurchaseLine } from '../../data/purchases';
import { tabs, type Tab } from '../../data/tabs';
import { AppError, conflict, notFound, validationFailed, type FieldProblem } from '../../errors';
import { newEvent, type DomainEvent } from '../../events/catalog';
import type { Page } from '../../page';
import type { CreatePurchaseBody, ListPurchasesQuery, RefundReasonsQuery } from '../../schemas/purchases';
import { assertLocationAllowed } from '../access';
import { lineItems } from '../bookings/orders';
import { claimChanges, withTabs } from '../bookings/tabs';
import { localDateTime } from '../bookings/time';
import { billByRate, billOf, purchaseVat, settle, sharedVatRows, type BillSources } from './bill';

/** A tab as the API shows it: the counters it may not have stored yet as 0. */
export const shownTab = (t: Tab): Required<Tab> => ({
  ...t,
  purchaseCount: t.purchaseCount ?? 0,
  paidCents: t.paidCents ?? 0,
  orderCount: t.orderCount ?? 0,
  anonymousMembers: t.anonymousMembers ?? 0,
});

/** The tab, for a caller who may act on its location (404 for none, another company's included). */
export async function tabOf(principal: Principal, tabId: string): Promise<Tab> {
  const tab = await tabs.get(principal.companyId, tabId);
  if (!tab) throw notFound(`Tab ${tabId}`);
  assertLocationAllowed(principal, tab.locationId);
  return tab;
}

/** The deposit a tab carries: a booking's deposit is a required item of its primary tab. */
const depositOn = (tab: Pick<Tab, 'id'>, booking: Pick<Booking, 'tab' | 'depositAmountCents'> | undefined): number =>
  booking && booking.tab.id === tab.id && (booking.depositAmountCents ?? 0) > 0 ? booking.depositAmountCents! : 0;

/** What a tab's bill is made of as read now: its orders, its booking (the deposit), and earlier purchases when asked. */
export interface TabReading {
  orders: Order[];
  booking: Booking | undefined;
  purchases: Purchase[];
  sources: BillSources;
  billCents: number;
}

/**
 * Reads a tab's orders and booking (and, with `withPurchases`, its purchases) for its bill. The
 * indexes trail the tab by a moment: when they show fewer orders (purchases) than the tab counts,
 * they are read again, up to ATTEMPTS times, then 409 "try again" rather than a short bill.
 */
export async function readBill(companyId: number, tab: Tab, withPurchases = false): Promise<TabReading> {
  for (let attempt = 1; ; attempt++) {
    const [onTab, booking, paid] = await Promise.all([
      orders.allOfTab(companyId, tab.id),
      tab.bookingId ? bookings.get(companyId, tab.bookingId) : undefined,
      withPurchases && (tab.purchaseCount ?? 0) > 0 ? purchases.allOfTab(companyId, tab.id) : [],
    ]);
    const behind =
      onTab.filter((o) => o.kind === 'order').length < tab.orderCount ||
      (withPurchases && paid.length < (tab.purchaseCount ?? 0));
    if (!behind) {
      const sources = { orders: onTab, depositCents: depositOn(tab, booking) };
      return { orders: onTab, booking, purchases: paid, sources, billCents: billOf(sources) };
    }
    if (attempt >= ATTEMPTS) throw conflict(`Tab ${tab.id} changed a moment ago and is not readable yet; try again`);
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
  }
}

/** The lines of a purchase: a line naming an item takes its name, price, VAT rate and cost center unless it gives them. */
async function purchaseLines(
  companyId: number,
  locationId: number,
  lines: NonNullable<CreatePurchaseBody['items']>,
): Promise<PurchaseLine[]> {
  const named = await lineItems(companyId, locationId, lines);
  const problems: FieldProblem[] = [];
  const out = lines.map((l, index): PurchaseLine => {
    const item = named[index];
    const name = l.name ?? item?.name;
    const unitPrice = l.unitPrice ?? item?.price;
    if (name === undefined) problems.push({ path: `/items/${index}/name`, message: 'is required without itemId' });
    if (unitPrice === undefined)
      problems.push({ path: `/items/${index}/unitPrice`, message: 'is required without itemId' });
    const vatRate = l.vatRate ?? item?.vatRate ?? null;
    if (vatRate !== null && Math.round(vatRate * 100) !== vatRate * 100)
      problems.push({ path: `/items/${index}/vatRate`, message: 'has at most two decimals' });
    const costCenter = l.costCenter !== undefined ? l.costCenter : (item?.costCenter ?? null);
    return {
      itemId: l.itemId ?? null,
      name: name!,
      quantity: l.quantity,
      unitPrice: unitPrice!,
      amount: unitPrice! * l.quantity,
      vatRate,
      costCenter,
    };
  });
  if (problems.length) throw validationFailed('The purchase is not valid', problems);
  return out;
}

/** The tab as a purchase leaves it, as the create answer shows it. */
interface TabBalance {
  id: string;
  status: Tab['status'];
  billCents: number;
  paidCents: number;
  dueCents: number;
}

export type RecordedPurchase = Purchase & { tab: TabBalance };

/** Attempts of a purchase whose write met a concurrent change of its tab, booking or day totals: each reads again. */
const ATTEMPTS = 5;

/**
 * Records a purchase that pays some or all of a tab's bill: `items` (the amount is their sum) or
 * a plain `amount`, VAT rows per rate (computed from the lines; given rows are checked), tip and
 * service fee on top. 409 on a closed tab; 422 when it would pay more than is due. When the bill
 * is paid in full and the tab is open, the tab closes in the same transaction and its table is
 * free for the next party.
 */
export async function createPurchase(
  principal: Principal,
  tabId: string,
  input: CreatePurchaseBody,
): Promise<RecordedPurchase> {
  if ((input.items === undefined) === (input.amount === undefined)) {
    throw validationFailed('A purchase pays either items or an amount', [
      {
        path: input.items ? '/amount' : '/items',
        message: input.items ? 'cannot be combined with items' : 'items or amount is required',
      },
    ]);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await recordOnce(principal, tabId, input);
    } catch (err) {
      if (!(err instanceof Moved) || attempt >= ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** A write that met a concurrent change (the tab's version, the booking's, a transaction conflict): worth reading again. */
class Moved extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

async function recordOnce(principal: Principal, tabId: string, input: CreatePurchaseBody): Promise<RecordedPurchase> {
  const { companyId } = principal;
  const tab = await tabOf(principal, tabId);
  if (tab.status === 'closed') throw conflict(`Tab ${tabId} is closed: its bill is settled`);
  // A plain amount without rows of its own shares out what is left of the bill per rate: the tab's earlier purchases say what that is.
  const sharesBill = !input.items && !input.vatRows;
  const [onTab, { booking, location }, lines, earlier] = await Promise.all([
    orders.allOfTab(companyId, tabId),
    readTogether({
      booking: tab.bookingId ? bookings.read(companyId, tab.bookingId) : noRead(undefined),
      location: locations.read(companyId, tab.locationId),
    }),
    input.items ? purchaseLines(companyId, tab.locationId, input.items) : undefined,
    sharesBill && (tab.purchaseCount ?? 0) > 0 ? purchases.allOfTab(companyId, tabId) : [],
  ]);
  if (!location) throw notFound(`Location ${tab.locationId}`);
  // The orders index trails the tab by a moment: an order the tab counts must be on the bill.
  if (onTab.filter((o) => o.kind === 'order').length < tab.orderCount)
    throw new Moved('An order placed a moment ago is not readable yet; try again');
  if (sharesBill && earlier.length < (tab.purchaseCount ?? 0))
    throw new Moved('A purchase recorded a moment ago is not readable yet; try again');

  const sources = { orders: onTab, depositCents: depositOn(tab, booking) };
  const bill = billOf(sources);
  const amount = lines ? lines.reduce((sum, l) => sum + l.amount, 0) : input.amount!;
  const vatRows = sharesBill
    ? sharedVatRows(billByRate(sources), earlier, amount)
    : purchaseVat(lines, amount, input.vatRows);
  const { paidCents, settled } = settle(bill, tab.paidCents ?? 0, amount);
  const closes = settled && tab.status === 'open';

  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const tip = input.tip ?? 0;
  const serviceFee = input.serviceFee ?? 0;
  const purchase: Purchase = {
    id: randomUUID(),
    tabId,
    bookingId: tab.bookingId,
    locationId: tab.locationId,
    status: 'succeeded',
    items: lines ?? [],
    amount,
    vatRows,
    tip,
    serviceFee,
    total: amount + tip + serviceFee,
    paymentProvider: input.paymentProvider,
    providerReference: input.providerReference ?? null,
    localDate: localDateTime(nowMs, location.timezone).date,
    pickedUpAt: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  const after: Tab = {
    ...tab,
    paidCents,
    purchaseCount: (tab.purchaseCount ?? 0) + 1,
    ...(closes ? { status: 'closed' as const, closedAt: now } : {}),
    updatedAt: now,
    version: tab.version + 1,
  };
  const balance: TabBalance = {
    id: tabId,
    status: after.status,
    billCents: bill,
    paidCents,
    dueCents: bill - paidCents,
  };
  const events: DomainEvent[] = [
    newEvent(companyId, 'purchase.created', purchase.id, { ...purchase, tab: balance }),
    ...(closes
      ? [
          newEvent(
            companyId,
            'tab.closed',
            tabId,
            { ...shownTab(after), reason: 'paid' },
            { status: 'closed', closedAt: now },
          ),
        ]
      : []),
  ];
  const payment = { read: tab, paidCents, closes };
  try {
    if (closes && booking)
      await writeBooking(companyId, {
        ...closingOf(companyId, booking, tabId, now),
        also: purchaseSteps(companyId, purchase, payment, events),
      });
    else await purchases.record(companyId, purchase, payment, events);
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT' && !(err instanceof ReferenceTaken))
      throw new Moved(err.message);
    throw err;
  }
  return { ...purchase, tab: balance };
}

/**
 * A booking's side of one of its tabs closing (paid, or close-all): the tab is closed in the
 * booking's list, the table its open tab claimed is released (no other tab of the booking serves
 * it), and `booking.updated` carries the new tabs. The tab's own step is the caller's.
 */
export function closingOf(companyId: number, prev: Booking, tabId: string, now: string) {
  const next = withTabs(
    { ...prev, version: prev.version + 1, updatedAt: now },
    prev.tabs.map((t) => (t.id === tabId ? { ...t, status: 'closed' as const } : t)),
  );
  return {
    prev,
    next,
    openTabs: claimChanges(prev, next),
    events: [newEvent(companyId, 'booking.updated', prev.id, { ...next }, { tabs: next.tabs })],
  };
}

/** A tab's purchases, oldest first: one Query per page (an empty page reads the tab, for 404). */
export async function listPurchases(
  principal: Principal,
  tabId: string,
  query: ListPurchasesQuery,
): Promise<Page<Purchase>> {
  const page = await purchases.listByTab(principal.companyId, tabId, query);
  const first = page.items[0];
  if (first) assertLocationAllowed(principal, first.locationId);
  else await tabOf(principal, tabId);
  return page;
}

/** The tab's newest purchase (one Query), or null (then the tab is read: 404 for an unknown tab). */
export async function recentPurchase(principal: Principal, tabId: string): Promise<Purchase | null> {
  const newest = await purchases.newest(principal.companyId, tabId);
  if (newest) assertLocationAllowed(principal, newest.locationId);
  else await tabOf(principal, tabId);
  return newest ?? null;
}

/** Marks a purchase picked up. Idempotent: a repeat (concurrent too) answers the purchase with the first pickedUpAt. */
export async function markPickedUp(principal: Principal, purchaseId: string): Promise<Purchase> {
  const { companyId } = principal;
  const prev = await purchases.get(companyId, purchaseId);
  if (!prev) throw notFound(`Purchase ${purchaseId}`);
  assertLocationAllowed(principal, prev.locationId);
  if (prev.pickedUpAt !== null) return prev;
  const now = new Date().toISOString();
  const next: Purchase = { ...prev, pickedUpAt: now, updatedAt: now, version: prev.version + 1 };
  try {
    await purchases.pickUp(
      companyId,
      next,
      newEvent(companyId, 'purchase.updated', purchaseId, { ...next }, { pickedUpAt: now }),
    );
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
    const current = await purchases.getConsistent(companyId, purchaseId);
    if (current?.pickedUpAt) return current;
    throw err;
  }
  return next;
}

/** A reason a purchase may be refunded for. */
export interface RefundReason {
  code: string;
  name: string;
}

/** The reasons every location has (a location's own are not settable yet: docs/purchases.md). */
const defaultRefundReasons: readonly RefundReason[] = [
  { code: 'customer_request', name: 'Customer request' },
  { code: 'wrong_item', name: 'Wrong item served' },
  { code: 'quality_issue', name: 'Quality issue' },
  { code: 'long_wait', name: 'Long waiting time' },
  { code: 'duplicate_payment', name: 'Duplicate payment' },
  { code: 'other', name: 'Other' },
];

/** The refund reasons of a location (404 for a location the company lacks). */
export async function refundReasons(
  principal: Principal,
  query: RefundReasonsQuery,
): Promise<{ locationId: number; reasons: readonly RefundReason[] }> {
  assertLocationAllowed(principal, query.locationId);
  if (!(await locations.get(principal.companyId, query.locationId))) throw notFound(`Location ${query.locationId}`);
  return { locationId: query.locationId, reasons: defaultRefundReasons };
}
