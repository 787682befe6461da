import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid, pageQuery } from './common';

const url = Type.String({ minLength: 1, maxLength: 2048, format: 'uri', description: 'https URL of the receiver' });
/** Event names are checked against the catalog by the domain (so the catalog can grow without regenerating validators). */
const eventName = Type.String({ pattern: '^[a-z]+(-[a-z]+)*(\\.[a-z]+(-[a-z]+)*)+$', maxLength: 100 });
const events = Type.Array(Type.Union([Type.Literal('*'), eventName]), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'event names, or "*" for all' });
const description = Nullable(Type.String({ maxLength: 500 }));

export const CreateWebhookSubscriptionBody = Type.Object(
  { url, events: Type.Optional(events), description: Type.Optional(description) },
  { additionalProperties: false },
);

export const UpdateWebhookSubscriptionBody = Type.Object(
  { url: Type.Optional(url), events: Type.Optional(events), description: Type.Optional(description), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookSubscriptionIdPath = Type.Object({ id: Uuid });
export const WebhookDeliveryIdPath = Type.Object({ deliveryId: Uuid });

export const ListWebhookSubscriptionsQuery = Type.Object(pageQuery(100, 20));
export const ListWebhookDeliveriesQuery = Type.Object(pageQuery(100, 20));

export const ListEventsQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'events at or after this time' })),
  after: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$', description: "an event's cursor: events after it" })),
  type: Type.Optional(eventName),
  ...pageQuery(100, 20),
});

export type CreateWebhookSubscriptionBody = Static<typeof CreateWebhookSubscriptionBody>;
export type UpdateWebhookSubscriptionBody = Static<typeof UpdateWebhookSubscriptionBody>;
export type ListWebhookSubscriptionsQuery = Static<typeof ListWebhookSubscriptionsQuery>;
export type ListWebhookDeliveriesQuery = Static<typeof ListWebhookDeliveriesQuery>;
export type ListEventsQuery = Static<typeof ListEventsQuery>;
