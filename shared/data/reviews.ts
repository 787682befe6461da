/**
 * Reviews, one per purchase (docs/purchases.md#reviews):
 *
 *   review   C#<cid> / REVIEW#<purchaseIntentId>
 *
 * Keyed by the purchase, written put-if-absent: of concurrent submissions one is stored, the
 * others find it and answer it.
 */
import type { DomainEvent } from '../events/catalog';
import { companyKey, defineEntity } from './entity';
import { outboxStep } from './outbox';
import { transact } from './transact';
import { AppError } from '../errors';

export interface Review {
  purchaseIntentId: string;
  tabId: string;
  locationId: number;
  rating: number;
  reviewTags: string[];
  createdAt: string;
}

const reviewEntity = defineEntity({
  name: 'REVIEW',
  label: 'review',
  key: (companyId: number, purchaseIntentId: string) => companyKey(companyId, `REVIEW#${purchaseIntentId}`),
  keyOf: (companyId, r: Review) => [companyId, r.purchaseIntentId] as const,
  fields: ['purchaseIntentId', 'tabId', 'locationId', 'rating', 'reviewTags', 'createdAt'],
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
