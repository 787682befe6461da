/**
 * The outbox: every change writes its event as an item in the SAME transaction (README.md, “Architecture”),
 * and the stream carries outbox items, and only those, to the webhook pipeline. This module is the
 * outbox item's one codec: written here, read back by `outboxMessageOf`.
 */
import { eventLocation, type DomainEvent, type EventPayload } from '../events/catalog';
import { keys } from './keys';
import { putNewStep, type Step } from './transact';

/** Events are kept 30 days: the event log (`GET /api/v1/events`) can page back that far. */
const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;
/** A delivery request only has to live until the pipeline has read it from the stream. */
const REQUEST_RETENTION_SECONDS = 24 * 3600;

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
/** The `ttl` of an item kept as long as the events (an event, a webhook delivery, an attempt): 30 days after `iso`. */
export const keptAsEvents = (iso: string) => epochSeconds(iso) + EVENT_RETENTION_SECONDS;

/** One attempt round of one delivery, as the pipeline queues it. */
export interface DeliveryRef {
  companyId: number;
  subscriptionId: string;
  deliveryId: string;
  /** Which manual retry this is (0 for the first delivery): each round is its own message. */
  round: number;
}

/** The partition of a company's event log (oldest first), and of one event type's log (gsi1). */
export const eventLogPartition = (companyId: number, type?: string) =>
  `${keys.company(companyId)}#EVENTS${type ? `#${type}` : ''}`;

/**
 * The outbox item of an event: written in the same transaction as the change it describes. It
 * carries the location of the event's resource (`eventLocation`), when there is one, for the
 * event log's filter of location-limited credentials.
 */
export function outboxStep(event: DomainEvent): Step {
  const { payload, companyId } = event;
  const position = `${payload.timestamp}#${payload.id}`;
  const locationId = eventLocation(payload);
  return putNewStep({
    pk: eventLogPartition(companyId),
    sk: position,
    // The event log by type (GET /api/v1/events?type=…): one Query per page, oldest first.
    gsi1pk: eventLogPartition(companyId, payload.event),
    gsi1sk: position,
    entity: 'OUTBOX',
    companyId,
    ...(locationId === null ? {} : { locationId }),
    payload,
    ttl: keptAsEvents(payload.timestamp),
  });
}

/** The outbox item that asks the pipeline to queue one delivery (a manual retry or a test send). */
export function deliveryRequestStep(ref: DeliveryRef, at: string): Step {
  const { companyId, ...deliveryRequest } = ref;
  return putNewStep({
    pk: `${keys.company(companyId)}#WHREQUESTS`,
    sk: `${at}#${ref.deliveryId}#${ref.round}`,
    entity: 'OUTBOX',
    companyId,
    deliveryRequest,
    ttl: epochSeconds(at) + REQUEST_RETENTION_SECONDS,
  });
}

/** What an outbox item asks of the pipeline: fan an event out, or queue one delivery. */
export type OutboxMessage = { kind: 'event'; event: DomainEvent } | { kind: 'delivery'; ref: DeliveryRef };

/** Reads an outbox item (as the stream's new image holds it, unmarshalled). */
export function outboxMessageOf(item: Record<string, unknown>): OutboxMessage {
  const companyId = Number(item.companyId);
  const request = item.deliveryRequest as Omit<DeliveryRef, 'companyId'> | undefined;
  if (request)
    return {
      kind: 'delivery',
      ref: {
        companyId,
        subscriptionId: request.subscriptionId,
        deliveryId: request.deliveryId,
        round: Number(request.round),
      },
    };
  return { kind: 'event', event: { companyId, payload: item.payload as EventPayload } };
}
