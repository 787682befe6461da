/** A webhook subscription stored as its create stores it, for the pipeline's integration tests. */
import { randomUUID } from 'node:crypto';
import { subscriptions, type StoredSubscription } from '../../shared/data/webhookSubscriptions';
import { newEvent } from '../../shared/events/catalog';
import { newSecret } from '../../shared/webhooks/signing';

/** A subscription to every event (what `overrides` says otherwise), as stored: its secret with it. */
export function aSubscription(overrides: Partial<StoredSubscription> = {}): StoredSubscription {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    url: 'https://hooks.example.com/x',
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
}

/** A subscription of the company to every event at `url`, created a minute ago (what `overrides` says otherwise). */
export async function addSubscription(
  companyId: number,
  url: string,
  overrides: Partial<StoredSubscription> = {},
): Promise<StoredSubscription> {
  const minuteAgo = new Date(Date.now() - 60_000).toISOString();
  const s = aSubscription({ url, createdAt: minuteAgo, updatedAt: minuteAgo, ...overrides });
  await subscriptions.create(companyId, s, newEvent(companyId, 'webhook-subscription.created', s.id, { id: s.id }));
  return s;
}
