/**
 * Reviews (docs/purchases.md, “Reviews”): one per purchase. A submission for a purchase that has one answers the
 * stored review (200, the same body), concurrent submissions included: the review is written
 * put-if-absent, and a submission that loses reads the winner's. GET answers null when none.
 */
import type { Principal } from '../../auth/principal';
import { readTogether } from '../../data/batch';
import { purchases } from '../../data/purchases';
import { reviews, ReviewExists, type Review } from '../../data/reviews';
import { notFound } from '../../errors';
import { newEvent } from '../../events/catalog';
import type { CreateReviewBody } from '../../schemas/purchases';
import { assertLocationAllowed } from '../access';

/** Reviews the purchase (404 for none, 403 outside the key's locations); the purchase and its review are read in one round trip. */
export async function createReview(principal: Principal, input: CreateReviewBody): Promise<Review> {
  const { companyId } = principal;
  const { purchase, stored } = await readTogether({
    purchase: purchases.read(companyId, input.purchaseIntentId),
    stored: reviews.read(companyId, input.purchaseIntentId),
  });
  if (!purchase) throw notFound(`Purchase ${input.purchaseIntentId}`);
  assertLocationAllowed(principal, purchase.locationId);
  if (stored) return stored;
  const review: Review = {
    purchaseIntentId: purchase.id,
    tabId: purchase.tabId,
    locationId: purchase.locationId,
    rating: input.rating,
    reviewTags: input.reviewTags ?? [],
    createdAt: new Date().toISOString(),
  };
  try {
    await reviews.create(companyId, review, newEvent(companyId, 'review.created', purchase.id, { ...review }));
    return review;
  } catch (err) {
    if (!(err instanceof ReviewExists)) throw err;
    return (await reviews.getConsistent(companyId, purchase.id))!;
  }
}

/**
 * The purchase's review, or null when there is none (docs/conventions.md, “Not found versus empty”: not an error; an unknown purchase,
 * or another company's, has none either). One GetItem.
 */
export async function getReview(principal: Principal, purchaseIntentId: string): Promise<Review | null> {
  const review = await reviews.get(principal.companyId, purchaseIntentId);
  if (review) assertLocationAllowed(principal, review.locationId);
  return review ?? null;
}
