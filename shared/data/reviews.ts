/**
 * Reviews, one per purchase (docs/purchases.md#reviews):
 *
 *   review   C#<cid> / REVIEW#<purchaseIntentId>
 *
 * Keyed by the purchase, written put-if-absent: of concurrent submissions one is stored, the
 * others find it and answer it.
 */
import type { Static } from '@sinclair/typebox';
import type { DomainEvent } from '../events/catalog';
import { ReviewView } from '../schemas/purchases';
import { companyKey, defineEntity } from './entity';
import { outboxStep } from './outbox';
import { transact } from './transact';
import { AppError } from '../errors';

/** A review as stored and shown: declared by ReviewView. */
export type Review = Static<typeof ReviewView>;

const reviewEntity = defineEntity({
  name: 'REVIEW',
  label: 'review',
  key: (companyId: number, purchaseIntentId: string) => companyKey(companyId, `REVIEW#${purchaseIntentId}`),
  schema: ReviewView,
  keyOf: (companyId, r) => [companyId, r.purchaseIntentId] as const,
});

/** The purchase already has its review. */
export class ReviewExists extends AppError {
  constructor() {
    super('CONFLICT', 'The purchase already has a review');
  }
}

export const reviews = {
  get: reviewEntity.get,
  read: reviewEntity.read,
  /** The review as stored (strongly consistent: after a submission that lost to another). */
  getConsistent: (companyId: number, purchaseIntentId: string) =>
    reviewEntity.getWith({ consistent: true }, companyId, purchaseIntentId),
  /** Stores the purchase's review with its event, unless it has one (ReviewExists). */
  create: (companyId: number, review: Review, event: DomainEvent): Promise<void> =>
    transact([reviewEntity.newItemStep(companyId, review, () => new ReviewExists()), outboxStep(event)]),
};
