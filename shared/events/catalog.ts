/**
 * The event catalog: every event name the API emits, with the resource kind it describes.
 * Areas add their rows here; the outbox, the event log and the webhook pipeline read only this.
 * Names of decisions.md §6, plus events for the other resources (coursings, permissions, roles,
 * guests, locations, tables, booking groups, capacity settings, extended waiting times) so that
 * every change has an event.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../config';

export const eventCatalog = {
  'booking.created': 'booking',
  'booking.confirmed': 'booking',
  'booking.updated': 'booking',
  'booking.cancelled': 'booking',
  'booking.seated': 'booking',
  'booking.unseated': 'booking',
  'booking.completed': 'booking',
  'booking.no-show': 'booking',
  'variant-group.created': 'variant-group',
  'variant-group.updated': 'variant-group',
  'variant-group.deleted': 'variant-group',
  'variant.created': 'variant',
  'variant.updated': 'variant',
  'variant.deleted': 'variant',
  'variant.linked': 'variant',
  'variant.unlinked': 'variant',
  'schedule.created': 'schedule',
  'schedule.updated': 'schedule',
  'schedule.deleted': 'schedule',
  'schedule-rule.created': 'schedule-rule',
  'schedule-rule.updated': 'schedule-rule',
  'schedule-rule.deleted': 'schedule-rule',
  'api-key.created': 'api-key',
  'api-key.updated': 'api-key',
  'api-key.revoked': 'api-key',
  'order.reversed': 'order',
  'menu-layouts.updated': 'menu-layout',
  'location.hours.updated': 'location',
  'coursing.created': 'coursing',
  'coursing.updated': 'coursing',
  'permission.created': 'permission',
  'permission.updated': 'permission',
  'permission.deleted': 'permission',
  'role.created': 'role',
  'role.updated': 'role',
  'guest.created': 'guest',
  'location.created': 'location',
  'location.updated': 'location',
  'location.deleted': 'location',
  'table.created': 'table',
  'table.updated': 'table',
  'table.deleted': 'table',
  'booking-group.created': 'booking-group',
  'booking-group.updated': 'booking-group',
  'booking-group.deleted': 'booking-group',
  'booking-settings.updated': 'booking-settings',
  'capacity-setting.created': 'capacity-setting',
  'capacity-setting.updated': 'capacity-setting',
  'capacity-setting.deleted': 'capacity-setting',
  'extended-waiting-time.created': 'extended-waiting-time',
  'extended-waiting-time.updated': 'extended-waiting-time',
  'extended-waiting-time.deleted': 'extended-waiting-time',
  'tab.updated': 'tab',
  'order.created': 'order',
  'order.updated': 'order',
  'booking-member.added': 'booking-member',
  'booking-member.updated': 'booking-member',
  'webhook-subscription.created': 'webhook-subscription',
  'webhook-subscription.updated': 'webhook-subscription',
  'webhook-subscription.deleted': 'webhook-subscription',
  /** Sent by POST /webhooks/subscriptions/{id}/test to that subscription only; not in the event log. */
  'webhook.test': 'webhook-subscription',
} as const;

export type EventName = keyof typeof eventCatalog;
export const eventNames = Object.keys(eventCatalog) as EventName[];

/** The webhook payload of spec §6, exactly as receivers get it. */
export interface EventPayload {
  id: string;
  event: EventName;
  resource: string;
  resourceId: string;
  timestamp: string;
  apiVersion: string;
  data: Record<string, unknown>;
  changes: Record<string, unknown> | null;
}

/** An event as recorded: the payload plus the tenant it belongs to (never sent). */
export interface DomainEvent {
  companyId: number;
  payload: EventPayload;
}

export function newEvent(
  companyId: number,
  event: EventName,
  resourceId: string,
  data: Record<string, unknown>,
  changes: Record<string, unknown> | null = null,
  now: Date = new Date(),
): DomainEvent {
  return {
    companyId,
    payload: {
      id: randomUUID(),
      event,
      resource: eventCatalog[event],
      resourceId,
      timestamp: now.toISOString(),
      apiVersion: config().apiVersion,
      data,
      changes,
    },
  };
}
