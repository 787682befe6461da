/** Purchases (purchase intents) on tabs, tabs' own operations, and reviews (spec 2.10, 4.1; decisions.md §7). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { CostCenter, Money, VatRate } from './items';

/** A purchase pays for at most this many lines (the lines are stored on the purchase item). */
export const MAX_PURCHASE_LINES = 100;
/** At most this many VAT rows: one per rate. */
export const MAX_VAT_ROWS = 10;

/**
 * A payment provider: a lower-case handle (`stripe`, `adyen`, `swish`, `klarna`, `card`, `cash`,
 * `invoice`, `gift_card`, …). Free within the pattern: a POS names the provider it used; the
 * purchase summary groups by it.
 */
export const PaymentProvider = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9]+(?:[-_][a-z0-9]+)*$', description: 'lower-case handle: stripe, adyen, swish, card, cash, …' });

const purchaseLine = Type.Object(
  {
    itemId: Type.Optional(NumericId),
    // name and unitPrice are required without itemId (the domain names the line lacking them); with it, the item's unless given.
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
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
    amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'minor units paid towards the bill, without tip and service fee' })),
    vatRows: Type.Optional(Type.Array(vatRow, { minItems: 1, maxItems: MAX_VAT_ROWS })),
    tip: Type.Optional(Money),
    serviceFee: Type.Optional(Money),
    paymentProvider: PaymentProvider,
    providerReference: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  },
  { additionalProperties: false },
);

export const PurchasePath = Type.Object({ purchaseIntentId: Uuid });
export const ListPurchasesQuery = Type.Object(pageQuery(100, 20));
export const RefundReasonsQuery = Type.Object({ locationId: NumericId });

/** Review tags: at most this many, each at most this long. */
export const MAX_REVIEW_TAGS = 10;
export const MAX_REVIEW_TAG_LENGTH = 50;

/** POST /api/v1/reviews (spec 2.10). */
export const CreateReviewBody = Type.Object(
  {
    purchaseIntentId: Uuid,
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    reviewTags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: MAX_REVIEW_TAG_LENGTH, pattern: '\\S' }), { maxItems: MAX_REVIEW_TAGS, uniqueItems: true })),
  },
  { additionalProperties: false },
);

export type CreatePurchaseBody = Static<typeof CreatePurchaseBody>;
export type PurchasePath = Static<typeof PurchasePath>;
export type ListPurchasesQuery = Static<typeof ListPurchasesQuery>;
export type RefundReasonsQuery = Static<typeof RefundReasonsQuery>;
export type CreateReviewBody = Static<typeof CreateReviewBody>;
