/** A webhook subscription stored as its create stores it, for the pipeline's integration tests. */
import { randomUUID } from 'node:crypto';
import { subscriptions, type StoredSubscription } from '../../shared/data/webhookSubscriptions';
import { newEvent } from '../../shared/events/catalog';
import { newSecret } from '../../shared/webhooks/signing';

/** A subscription of the company to every event at `url`, created a minute ago (what `overrides` says otherwise). */
export async function addSubscription(
  companyId: number,
  url: string,
  overrides: Partial<StoredSubscription> = {},
): Promise<StoredSubscription> {
  const now = new Date(Date.now() - 60_000).toISOString();
  const s: StoredSubscription = {
    id: randomUUID(),
    url,
    events: ['*'],
    description: null,
    active: true,
    previousSecretExpiresAt: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    secret: newSecret(),
    previousSecret: null,
    ...overrides,
  };
  await subscriptions.create(companyId, s, newEvent(companyId, 'webhook-subscription.created', s.id, { id: s.id }));
  return s;
}
