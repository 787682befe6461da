/**
 * One delivery attempt: load the delivery and its subscription, claim the delivery, sign and POST
 * the body, record the outcome with its log entry. The delivery Lambda (SQS) and the local stage's
 * worker (the due index) run exactly this; they differ only in how they wait for the next attempt.
 *
 * The delivery record is the truth, the queue message only a reminder: a message for another
 * round, a finished delivery or one not yet due changes nothing, and a claim (a conditional write
 * with a lease) lets exactly one worker attempt a delivery at a time. A worker that dies mid-attempt
 * leaves the claim to expire; the delivery is then due again and nothing is lost.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { newAlert, type Alert } from '../data/alerts';
import { eventLocation, type EventPayload } from '../events/catalog';
import type { DeliveryRef } from '../data/outbox';
import { deliveries, type AttemptRecord, type StoredDelivery } from '../data/webhookDeliveries';
import type { StoredSubscription } from '../data/webhookSubscriptions';
import { pipelineLogger } from './logger';
import { MAX_ATTEMPTS, leaseMs, retryDelayMs } from './schedule';
import { postWebhook, type SendResult } from './send';
import { webhookSettings, type WebhookSettings } from './settings';
import { signatureHeader } from './signing';

export type AttemptOutcome =
  /** A 2xx: done. */
  | { kind: 'delivered' }
  /** Failed; the next attempt is due at `at` (epoch ms). */
  | { kind: 'retry'; at: number }
  /** Failed for the last time in its round: an alert was raised. */
  | { kind: 'dead'; alertId: string }
  /** Not due yet (or another worker holds it): look again at `at`. */
  | { kind: 'wait'; at: number }
  /** Nothing to do for this reference: finished, another round, or its subscription is gone. */
  | { kind: 'stale' };

export interface AttemptOptions {
  /** Aborting (the local worker stopping) abandons the attempt unrecorded, as a crash would. */
  signal?: AbortSignal | undefined;
  now?: () => number;
  random?: () => number;
  settings?: WebhookSettings;
}

export const DEAD_ALERT_TYPE = 'webhook.delivery.dead';

const iso = (ms: number) => new Date(ms).toISOString();

/** The secrets that sign now: the current one, and the one it replaced until that expires. */
function signingSecrets(s: StoredSubscription, now: number): string[] {
  const previousValid =
    s.previousSecret !== null && s.previousSecretExpiresAt !== null && Date.parse(s.previousSecretExpiresAt) > now;
  return previousValid ? [s.secret, s.previousSecret!] : [s.secret];
}

/** The location of the event a delivery carries (its data's `locationId`, a location's id), or null. */
function deliveredLocation(d: StoredDelivery): number | null {
  try {
    return eventLocation(JSON.parse(d.body) as EventPayload);
  } catch {
    return null;
  }
}

function deadAlert(d: StoredDelivery, s: StoredSubscription, result: SendResult, at: string): Alert {
  return newAlert(
    {
      // The event's location when it has one (a booking's, a table's …): so location-limited
      // operators see it; company-wide otherwise (a guest, a webhook test).
      locationId: deliveredLocation(d),
      alertType: DEAD_ALERT_TYPE,
      severity: 'error',
      title: 'A webhook could not be delivered',
      message: `${d.event} to ${s.url} failed ${MAX_ATTEMPTS} times; last error: ${result.error}`,
      details: {
        subscriptionId: s.id,
        deliveryId: d.id,
        eventId: d.eventId,
        event: d.event,
        url: s.url,
        round: d.round,
        attempts: MAX_ATTEMPTS,
        lastHttpStatus: result.httpStatus,
        lastError: result.error,
      },
      context: { retry: `POST /api/v1/webhooks/deliveries/${d.id}/retry` },
    },
    at,
  );
}

/** The delivery's new state and log entry after attempt number `attempt` gave `result`. */
function outcomeOf(
  d: StoredDelivery,
  s: StoredSubscription,
  result: SendResult,
  started: number,
  finished: number,
  delay: number | undefined,
) {
  const attempt = d.attempts + 1;
  const at = iso(finished);
  const status = result.error === null ? 'delivered' : delay === undefined ? 'dead' : 'failed';
  const nextAttemptAt = status === 'failed' ? iso(finished + delay!) : null;
  const alert = status === 'dead' ? deadAlert(d, s, result, at) : undefined;
  const record: AttemptRecord = {
    delivery: {
      status,
      attempts: attempt,
      nextAttemptAt,
      lastAttemptAt: iso(started),
      lastHttpStatus: result.httpStatus,
      lastError: result.error,
      deliveredAt: status === 'delivered' ? at : d.deliveredAt,
      alertId: alert?.id ?? d.alertId,
      updatedAt: at,
    },
    attempt: {
      id: randomUUID(),
      deliveryId: d.id,
      eventId: d.eventId,
      event: d.event,
      round: d.round,
      attempt,
      status,
      httpStatus: result.httpStatus,
      error: result.error,
      durationMs: result.durationMs,
      startedAt: iso(started),
      finishedAt: at,
      nextAttemptAt,
    },
    alert,
  };
  const outcome: AttemptOutcome =
    status === 'delivered'
      ? { kind: 'delivered' }
      : status === 'dead'
        ? { kind: 'dead', alertId: alert!.id }
        : { kind: 'retry', at: finished + delay! };
  return { record, outcome };
}

export async function attemptDelivery(ref: DeliveryRef, options: AttemptOptions = {}): Promise<AttemptOutcome> {
  const now = options.now ?? Date.now;
  const settings = options.settings ?? webhookSettings();
  const { delivery: d, subscription: s } = await deliveries.load(ref);
  if (!d || d.round !== ref.round || (d.status !== 'pending' && d.status !== 'failed')) return { kind: 'stale' };
  if (!s) {
    await deliveries.cancel(ref.companyId, d, 'the subscription was deleted', iso(now()));
    return { kind: 'stale' };
  }
  const due = Date.parse(d.nextAttemptAt!);
  const started = now();
  if (due > started) return { kind: 'wait', at: due };

  const claim = randomUUID();
  if (!(await deliveries.claim(ref.companyId, d, claim, iso(started), iso(started + leaseMs(settings.timeoutMs)))))
    return { kind: 'stale' };

  const { body } = d;
  const timestamp = Math.floor(started / 1000);
  const result = await postWebhook(
    s.url,
    body,
    {
      'webhook-id': d.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(signingSecrets(s, started), d.id, timestamp, body),
    },
    { timeoutMs: settings.timeoutMs, stage: config().stage, signal: options.signal },
  );
  const finished = now();
  const delay = result.error === null ? undefined : retryDelayMs(d.attempts + 1, settings.backoffScale, options.random);
  const { record, outcome } = outcomeOf(d, s, result, started, finished, delay);
  if (!(await deliveries.record(ref.companyId, d, claim, record))) {
    // The lease ran out first and another worker has the delivery now; its attempt counts.
    pipelineLogger.warn('webhook attempt outlived its lease', { deliveryId: d.id });
    return { kind: 'stale' };
  }
  if (outcome.kind === 'dead')
    pipelineLogger.warn('webhook delivery dead', {
      deliveryId: d.id,
      subscriptionId: s.id,
      event: d.event,
      alertId: outcome.alertId,
    });
  return outcome;
}
