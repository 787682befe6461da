/**
 * The outbox: every change writes its event as an item in the SAME transaction (README.md, “Architecture”),
 * and the stream carries outbox items, and only those, to the webhook pipeline. This module is the
 * outbox item's one codec: written here, read back by `outboxMessageOf`.
 */
import { eventLocation, type DomainEvent, type EventPayload } from '../events/catalog';
import { tableName } from './client';
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

/**
 * Shards of a company's events that name no location (guests, keys, roles, subscriptions): each its
 * own partition, so that they too never meet in one.
 */
export const EVENT_SHARDS = 8;

/** The log of a location's events (oldest first). */
export const locationEventLog = (companyId: number, locationId: number) =>
  `${keys.company(companyId)}#L#${keys.pad(locationId)}#EVENTS`;
/** One shard of the log of the company's events that name no location. */
export const companyEventShard = (companyId: number, shard: number) =>
  `${keys.company(companyId)}#EVENTS#${String(shard).padStart(2, '0')}`;
/**
 * Where every event of the company was before the log was partitioned: read beside the others
 * until its last event has expired (30 days after the release that partitioned the log).
 */
export const legacyEventLog = (companyId: number) => `${keys.company(companyId)}#EVENTS`;
/** A log partition's events of one type (gsi1). */
export const ofEventType = (partition: string, type: string) => `${partition}#${type}`;

/** The log partition of an event: its location's, or a shard (by its id) of the company's for one that names none. */
const eventLogPartition = (companyId: number, locationId: number | null, eventId: string) =>
  locationId === null
    ? companyEventShard(companyId, keys.bucket(eventId, EVENT_SHARDS))
    : locationEventLog(companyId, locationId);

/**
 * The outbox item of an event: written in the same transaction as the change it describes, in its
 * location's log partition (or a shard of the company's), so that no partition takes the writes of
 * every location (docs/webhooks.md, “The event log's partitions”). It carries the location of the
 * event's resource (`eventLocation`), when there is one, for the filter of location-limited
 * credentials.
 */
export function outboxStep(event: DomainEvent): Step {
  const { payload, companyId } = event;
  const position = `${payload.timestamp}#${payload.id}`;
  const locationId = eventLocation(payload);
  const partition = eventLogPartition(companyId, locationId, payload.id);
  return putNewStep({
    pk: partition,
    sk: position,
    // The event log by type (GET /api/v1/events?type=…): the same partitions' events of one type.
    gsi1pk: ofEventType(partition, payload.event),
    gsi1sk: position,
    entity: 'OUTBOX',
    companyId,
    ...(locationId === null ? {} : { locationId }),
    payload,
    ttl: keptAsEvents(payload.timestamp),
  });
}

/** The company's record of the locations whose log partitions hold events: `C#<cid>` / `EVENTLOGS`. */
export const eventLogsKey = (companyId: number) => ({ pk: keys.company(companyId), sk: 'EVENTLOGS' });

/**
 * Adds a location to the company's record of log partitions (in its creation's and its deletion's
 * transactions): the log's readers find every location's events there, a deleted one's too.
 */
export const eventLogLocationStep = (companyId: number, locationId: number): Step => ({
  item: {
    Update: {
      TableName: tableName(),
      Key: eventLogsKey(companyId),
      UpdateExpression: 'ADD #l :l SET entity = :e',
      ExpressionAttributeNames: { '#l': 'locations' },
      ExpressionAttributeValues: { ':l': new Set([locationId]), ':e': 'EVENT_LOGS' },
    },
  },
});

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
