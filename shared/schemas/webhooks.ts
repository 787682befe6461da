import { Type, type Static } from './typebox';
import { Nullable, Uuid, pageQuery } from './common';
import { Prose } from './text';

const instant = Type.String({ format: 'date-time' });

const url = Type.String({ minLength: 1, maxLength: 2048, format: 'uri', description: 'https URL of the receiver' });
/** Event names are checked against the catalog by the domain (so the catalog can grow without regenerating validators). */
const eventName = Type.String({ pattern: '^[a-z]+(-[a-z]+)*(\\.[a-z]+(-[a-z]+)*)+$', maxLength: 100 });
const events = Type.Array(Type.Union([Type.Literal('*'), eventName]), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'event names, or "*" for all',
});
const description = Nullable(Prose(500, { minLength: 0 }));

export const CreateWebhookSubscriptionBody = Type.Object(
  { url, events: Type.Optional(events), description: Type.Optional(description) },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://pos.example.com/brigade/webhooks',
        events: ['booking.created', 'booking.cancelled'],
        description: 'POS sync',
      },
    ],
  },
);

export const UpdateWebhookSubscriptionBody = Type.Object(
  {
    url: Type.Optional(url),
    events: Type.Optional(events),
    description: Type.Optional(description),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ events: ['*'], active: false }] },
);

export const WebhookSubscriptionIdPath = Type.Object({ id: Uuid });
export const WebhookDeliveryIdPath = Type.Object({ deliveryId: Uuid });

export const ListWebhookSubscriptionsQuery = Type.Object(pageQuery(100, 20));
export const ListWebhookDeliveriesQuery = Type.Object(pageQuery(100, 20));

export const ListEventsQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'events at or after this time' })),
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9_-]+$',
      description: "an event's cursor: events after it",
    }),
  ),
  type: Type.Optional(eventName),
  ...pageQuery(100, 20),
});

const subscriptionFields = {
  id: Uuid,
  url: Type.String(),
  events: Type.Array(Type.String(), {
    description: 'the event names selected ("*" is stored as the names it stood for)',
  }),
  description: Nullable(Type.String()),
  active: Type.Boolean(),
  previousSecretExpiresAt: Nullable(instant),
  version: Type.Integer({ minimum: 1 }),
  createdAt: instant,
  updatedAt: instant,
};

export const WebhookSubscriptionView = Type.Object(subscriptionFields, {
  title: 'WebhookSubscription',
  additionalProperties: false,
});

/** Create and rotate-secret answer the signing secret, this once. */
export const WebhookSubscriptionWithSecretView = Type.Object(
  {
    ...subscriptionFields,
    secret: Type.String({
      pattern: '^whsec_',
      description: '`whsec_` + base64 of 32 bytes: store it now, it is never shown again',
    }),
  },
  { title: 'WebhookSubscriptionWithSecret', additionalProperties: false },
);

export const DeletedWebhookSubscriptionView = Type.Object(
  { id: Uuid, deleted: Type.Literal(true) },
  { additionalProperties: false },
);

const status = <const T extends string>(...values: T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** One delivery of an event to a subscription (docs/webhooks.md). */
export const WebhookDeliveryView = Type.Object(
  {
    id: Uuid,
    subscriptionId: Uuid,
    eventId: Uuid,
    event: Type.String(),
    status: status('pending', 'failed', 'delivered', 'dead', 'cancelled'),
    round: Type.Integer({ minimum: 1 }),
    attempts: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Nullable(instant),
    lastAttemptAt: Nullable(instant),
    lastHttpStatus: Nullable(Type.Integer()),
    lastError: Nullable(Type.String({ description: 'timeout, tls, refused, dns, blocked, network or `status N`' })),
    deliveredAt: Nullable(instant),
    alertId: Nullable(Uuid),
    createdAt: instant,
    updatedAt: instant,
  },
  { title: 'WebhookDelivery', additionalProperties: false },
);

/** One attempt of a delivery: what GET …/{id}/deliveries lists. */
export const DeliveryAttemptView = Type.Object(
  {
    id: Type.String(),
    deliveryId: Uuid,
    eventId: Uuid,
    event: Type.String(),
    round: Type.Integer({ minimum: 1 }),
    attempt: Type.Integer({ minimum: 1 }),
    status: status('delivered', 'failed', 'dead'),
    httpStatus: Nullable(Type.Integer()),
    error: Nullable(Type.String()),
    durationMs: Type.Number({ minimum: 0 }),
    startedAt: instant,
    finishedAt: instant,
    nextAttemptAt: Nullable(instant),
  },
  { title: 'WebhookDeliveryAttempt', additionalProperties: false },
);

/** An event of the log (GET /api/v1/events): the webhook payload, and its cursor for `after`. */
export const LoggedEventView = Type.Object(
  {
    id: Uuid,
    event: Type.String(),
    resource: Type.String(),
    resourceId: Type.String(),
    timestamp: instant,
    apiVersion: Type.String({ pattern: '^\\d{8}-\\d{4}-\\d+$' }),
    data: Type.Record(Type.String(), Type.Unknown()),
    changes: Nullable(Type.Record(Type.String(), Type.Unknown())),
    cursor: Type.String(),
  },
  { title: 'LoggedEvent', additionalProperties: false },
);

export type CreateWebhookSubscriptionBody = Static<typeof CreateWebhookSubscriptionBody>;
export type UpdateWebhookSubscriptionBody = Static<typeof UpdateWebhookSubscriptionBody>;
export type ListWebhookSubscriptionsQuery = Static<typeof ListWebhookSubscriptionsQuery>;
export type ListWebhookDeliveriesQuery = Static<typeof ListWebhookDeliveriesQuery>;
export type ListEventsQuery = Static<typeof ListEventsQuery>;
