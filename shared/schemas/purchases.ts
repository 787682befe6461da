/** Purchases (purchase intents) on tabs, tabs' own operations, and reviews (docs/purchases.md, “Reviews”; docs/api.md). */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { bookingStatuses, tabStatuses } from './bookingStates';
import { OrderView } from './bookings';
import { CostCenter, Money, VatRate } from './items';
import { Instant, entity, literals, stamps, view } from './views';
import { TEXT_PATTERNS } from './patterns';
import { Line, Name } from './text';

/** A purchase pays for at most this many lines (the lines are stored on the purchase item). */
const MAX_PURCHASE_LINES = 100;
/** At most this many VAT rows: one per rate. */
const MAX_VAT_ROWS = 10;

/**
 * A payment provider: a lower-case handle (`stripe`, `adyen`, `swish`, `klarna`, `card`, `cash`,
 * `invoice`, `gift_card`, …). Free within the pattern: a POS names the provider it used; the
 * purchase summary groups by it.
 */
export const PaymentProvider = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[a-z0-9]+(?:[-_][a-z0-9]+)*$',
  description: 'lower-case handle: stripe, adyen, swish, card, cash, …',
});

const purchaseLine = Type.Object(
  {
    itemId: Type.Optional(NumericId),
    // name and unitPrice are required without itemId (the domain names the line lacking them); with it, the item's unless given.
    name: Type.Optional(Name(200)),
    quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
    unitPrice: Type.Optional(Money),
    vatRate: Type.Optional(VatRate),
    costCenter: Type.Optional(Nullable(CostCenter)),
  },
  { additionalProperties: false },
);

const vatRow = Type.Object(
  {
    vatRate: VatRate,
    amount: Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'gross (VAT included), minor units' }),
    vat: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'the VAT in it, minor units' })),
  },
  { additionalProperties: false },
);

/** POST /api/v1/tabs/{tabId}/purchases: `items` or `amount` (exactly one), what pays the bill; tip and service fee on top. */
export const CreatePurchaseBody = Type.Object(
  {
    items: Type.Optional(Type.Array(purchaseLine, { minItems: 1, maxItems: MAX_PURCHASE_LINES })),
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description: 'minor units paid towards the bill, without tip and service fee',
      }),
    ),
    vatRows: Type.Optional(Type.Array(vatRow, { minItems: 1, maxItems: MAX_VAT_ROWS })),
    tip: Type.Optional(Money),
    serviceFee: Type.Optional(Money),
    paymentProvider: PaymentProvider,
    providerReference: Type.Optional(Nullable(Line({ minLength: 1, maxLength: 200 }))),
  },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          { itemId: 4711, quantity: 2 },
          { name: 'Espresso', quantity: 1, unitPrice: 3500, vatRate: 12 },
        ],
        tip: 2000,
        paymentProvider: 'stripe',
        providerReference: 'pi_3PqR8sLkJ2xY',
      },
      { amount: 45000, vatRows: [{ vatRate: 12, amount: 45000 }], paymentProvider: 'cash' },
    ],
  },
);

export const PurchasePath = Type.Object({ purchaseIntentId: Uuid });
export const ListPurchasesQuery = Type.Object(pageQuery(100, 20));
export const RefundReasonsQuery = Type.Object({ locationId: NumericId });

/** Review tags: at most this many, each at most this long. */
const MAX_REVIEW_TAGS = 10;
const MAX_REVIEW_TAG_LENGTH = 50;

/** POST /api/v1/reviews (docs/purchases.md, “Reviews”). */
export const CreateReviewBody = Type.Object(
  {
    purchaseIntentId: Uuid,
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    reviewTags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: MAX_REVIEW_TAG_LENGTH, pattern: TEXT_PATTERNS.name }), {
        maxItems: MAX_REVIEW_TAGS,
        uniqueItems: true,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        purchaseIntentId: '9c4e2a7b-1d3f-4b5a-8e6c-2f0a1b3c4d5e',
        rating: 5,
        reviewTags: ['friendly staff', 'great food'],
      },
    ],
  },
);

// ---- Answers ----

const count = Type.Integer({ minimum: 0 });
const cents = Type.Integer({ description: 'minor units' });

/** A tab (bill) as its operations answer it: every counter present. */
export const TabView = entity('Tab', {
  id: Uuid,
  locationId: NumericId,
  bookingId: Type.Union([Uuid, Type.Null()], { description: 'null for a tab opened without a booking' }),
  tableId: Nullable(Uuid),
  status: literals(tabStatuses),
  primaryUserId: Nullable(NumericId),
  purchaseCount: count,
  paidCents: Type.Integer({
    minimum: 0,
    description: 'what its purchases paid towards the bill (tips and fees not included)',
  }),
  orderCount: count,
  anonymousMembers: count,
  openedAt: Nullable(Instant),
  closedAt: Nullable(Instant),
  ...stamps,
});

const PurchaseLineView = entity('PurchaseLine', {
  itemId: Nullable(NumericId),
  name: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  unitPrice: Money,
  amount: Type.Integer({ minimum: 0, description: 'quantity × unitPrice' }),
  vatRate: Nullable(VatRate),
  costCenter: Nullable(CostCenter),
});

/** A purchase (purchase intent) as recorded. */
export const PurchaseView = entity('Purchase', {
  id: Uuid,
  tabId: Uuid,
  bookingId: Nullable(Uuid),
  locationId: NumericId,
  status: Type.Literal('succeeded', { description: 'only payments that happened are recorded' }),
  items: Type.Array(PurchaseLineView, { description: 'empty when it pays a plain amount' }),
  amount: Type.Integer({ minimum: 0, description: 'what pays the bill, without tip and service fee' }),
  vatRows: Type.Array(
    view({ vatRate: VatRate, amount: Type.Integer({ minimum: 0 }), vat: Type.Integer({ minimum: 0 }) }),
  ),
  tip: Money,
  serviceFee: Money,
  total: Type.Integer({ minimum: 0, description: 'amount + tip + serviceFee' }),
  paymentProvider: Type.String(),
  providerReference: Nullable(Type.String()),
  localDate: Type.String({ format: 'date', description: "the location's local date the purchase falls on" }),
  pickedUpAt: Nullable(Instant),
  ...stamps,
});
export const PurchaseListView = Type.Array(PurchaseView);
/** The tab's newest purchase, or null when it has none. */
export const RecentPurchaseView = Nullable(PurchaseView);

/** Create answers the purchase and its tab's balance as the purchase leaves it. */
export const RecordedPurchaseView = entity('RecordedPurchase', {
  ...PurchaseView.properties,
  tab: view({ id: Uuid, status: literals(tabStatuses), billCents: cents, paidCents: cents, dueCents: cents }),
});

/** The bill at one VAT rate (null: lines without a rate and the deposit): billed, its VAT, paid and due. */
const TabVatRowView = entity('TabVatRow', {
  vatRate: Nullable(VatRate),
  amount: Type.Integer({ description: 'gross billed at the rate (VAT included), minor units' }),
  vat: Type.Integer({ description: 'the VAT in the gross billed, minor units (0 without a rate)' }),
  paidCents: Type.Integer({ description: "what the tab's purchases paid at the rate" }),
  dueCents: Type.Integer({ description: 'billed less paid' }),
});

/** GET /api/v1/tabs/{tabId}: the tab, its booking and tables, its bill, its orders and its purchases (docs/purchases.md, “Read a tab”). */
export const TabDetailsView = entity('TabDetails', {
  ...TabView.properties,
  booking: Nullable(
    view(
      {
        id: Uuid,
        status: literals(bookingStatuses),
        guestName: Nullable(Type.String()),
        startsAt: Instant,
        endsAt: Instant,
        tableIds: Type.Array(Uuid),
      },
      'the booking the tab serves (null for a tab opened without one, or a booking no longer readable)',
    ),
  ),
  tableIds: Type.Array(Uuid, { description: "the tab's table and its booking's tables, each once" }),
  bill: view({
    totalCents: cents,
    paidCents: cents,
    dueCents: cents,
    vatRows: Type.Array(TabVatRowView, { description: 'per rate, ascending; the row without a rate last' }),
  }),
  orders: Type.Array(OrderView, { description: 'oldest first; the pre-order sent at seating included' }),
  purchases: Type.Array(PurchaseView, { description: 'oldest first' }),
});

export const RefundReasonsView = entity('RefundReasons', {
  locationId: NumericId,
  reasons: Type.Array(view({ code: Type.String(), name: Type.String() })),
});

export const CloseAllTabsView = entity('CloseAllTabsResult', {
  locationIds: Type.Array(NumericId, { description: 'the locations the call looked at' }),
  closed: count,
  skipped: Type.Integer({ minimum: 0, description: 'open tabs that changed while being closed: left as they are' }),
  more: Type.Boolean({ description: 'more open tabs are left than one call closes: call again' }),
});

export const ReviewView = entity('Review', {
  purchaseIntentId: Uuid,
  tabId: Uuid,
  locationId: NumericId,
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  reviewTags: Type.Array(Type.String()),
  createdAt: Instant,
});
/** The purchase's review, or null when it has none. */
export const ReviewOrNoneView = Nullable(ReviewView);

export type CreatePurchaseBody = Static<typeof CreatePurchaseBody>;
export type PurchasePath = Static<typeof PurchasePath>;
export type ListPurchasesQuery = Static<typeof ListPurchasesQuery>;
export type RefundReasonsQuery = Static<typeof RefundReasonsQuery>;
export type CreateReviewBody = Static<typeof CreateReviewBody>;
export type TabDetailsView = Static<typeof TabDetailsView>;
