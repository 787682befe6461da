/**
 * The event catalog: every event name the API emits, with the resource kind it describes.
 * Areas add their rows here; the outbox, the event log and the webhook pipeline read only this.
 * Every resource that changes has its events here, so that every change has an event: the booking's life
 * (bookings, members, tabs, orders, purchases, reviews, the waitlist) as much as the setup (coursings, items, custom
 * tags, permissions, roles, companies, guests, locations, tables, booking groups, capacity settings, extended waiting
 * times, printer groups, terminals, print jobs, report emails, export settings). Names are `<resource>.<change>`
 * (docs/conventions.md, “Events”).
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
  'item.created': 'item',
  'item.updated': 'item',
  'item.deleted': 'item',
  'custom-tag.created': 'custom-tag',
  'coursing.created': 'coursing',
  'coursing.updated': 'coursing',
  'permission.created': 'permission',
  'permission.updated': 'permission',
  'permission.deleted': 'permission',
  'role.created': 'role',
  'role.updated': 'role',
  'company.created': 'company',
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
  'waitlist.joined': 'waitlist-entry',
  'waitlist.offered': 'waitlist-entry',
  'waitlist.accepted': 'waitlist-entry',
  'waitlist.declined': 'waitlist-entry',
  'waitlist.expired': 'waitlist-entry',
  'waitlist.left': 'waitlist-entry',
  'booking-member.added': 'booking-member',
  'booking-member.updated': 'booking-member',
  'webhook-subscription.created': 'webhook-subscription',
  'webhook-subscription.updated': 'webhook-subscription',
  'webhook-subscription.deleted': 'webhook-subscription',
  // tabs, purchases and reviews (docs/purchases.md)
  'tab.closed': 'tab',
  'purchase.created': 'purchase',
  'purchase.updated': 'purchase',
  'review.created': 'review',
  'printer-group.created': 'printer-group',
  'printer-group.updated': 'printer-group',
  'printer-group.deleted': 'printer-group',
  'terminal.created': 'terminal',
  'terminal.updated': 'terminal',
  'terminal.deleted': 'terminal',
  'print-job.created': 'print-job',
  'print-job.updated': 'print-job',
  // reporting (docs/reporting.md): a location's report emails and export settings
  'report-emails.updated': 'report-emails',
  'export-settings.updated': 'export-settings',
  /** Sent by POST /webhooks/subscriptions/{id}/test to that subscription only; not in the event log. */
  'webhook.test': 'webhook-subscription',
} as const;

export type EventName = keyof typeof eventCatalog;
export const eventNames = Object.keys(eventCatalog) as EventName[];
export type ResourceKind = (typeof eventCatalog)[EventName];

/**
 * Who may see an event of each resource kind: a credential that could read the resource directly.
 * `read` is the permission its read operations require. `scope` says whether those reads are
 * limited by a credential's locations: `location` (the event is shown to a location-limited
 * credential only when it names one of its locations, see eventLocation), or `company` (keys,
 * roles and the permission catalog are read company-wide).
 */
export const resourceAccess: Record<ResourceKind, { read: string; scope: 'location' | 'company' }> = {
  booking: { read: 'bookings.read', scope: 'location' },
  'booking-member': { read: 'bookings.read', scope: 'location' },
  'booking-settings': { read: 'bookings.read', scope: 'location' },
  'waitlist-entry': { read: 'bookings.read', scope: 'location' },
  guest: { read: 'bookings.read', scope: 'location' },
  'variant-group': { read: 'variant_groups.read', scope: 'location' },
  variant: { read: 'variant_groups.read', scope: 'location' },
  schedule: { read: 'schedules.read', scope: 'location' },
  'schedule-rule': { read: 'schedules.read', scope: 'location' },
  'menu-layout': { read: 'schedules.read', scope: 'location' },
  order: { read: 'orders.read', scope: 'location' },
  tab: { read: 'tabs.read', scope: 'location' },
  location: { read: 'locations.read', scope: 'location' },
  table: { read: 'tables.read', scope: 'location' },
  'booking-group': { read: 'booking_groups.read', scope: 'location' },
  coursing: { read: 'coursings.read', scope: 'location' },
  item: { read: 'items.read', scope: 'location' },
  'custom-tag': { read: 'custom_tags.read', scope: 'company' },
  'capacity-setting': { read: 'capacity_settings.read', scope: 'location' },
  'extended-waiting-time': { read: 'locations.read', scope: 'location' },
  'api-key': { read: 'api_keys.read', scope: 'company' },
  role: { read: 'roles.read', scope: 'company' },
  permission: { read: 'permissions.read', scope: 'company' },
  // Written to the new company's own log; its admin keys (which hold every permission) can read it.
  company: { read: 'companies.read', scope: 'company' },
  'webhook-subscription': { read: 'webhooks.read', scope: 'location' },
  purchase: { read: 'purchases.read', scope: 'location' },
  review: { read: 'reviews.read', scope: 'location' },
  'printer-group': { read: 'printer_groups.read', scope: 'location' },
  terminal: { read: 'terminals.read', scope: 'location' },
  'print-job': { read: 'print_jobs.read', scope: 'location' },
  'report-emails': { read: 'reports.read', scope: 'location' },
  'export-settings': { read: 'reports.read', scope: 'location' },
};

/**
 * The location an event's resource belongs to, when the event says: the `locationId` of its data
 * (bookings, tables, coursings, orders …), or the resource id of a location or of its booking
 * settings. Null otherwise (guests and webhook subscriptions belong to no location; some events
 * do not carry theirs): a location-limited credential is not shown such an event unless its
 * resource is read company-wide.
 */
export function eventLocation(payload: Pick<EventPayload, 'resource' | 'resourceId' | 'data'>): number | null {
  const fromData = payload.data.locationId;
  if (typeof fromData === 'number') return fromData;
  if (payload.resource === 'location' || payload.resource === 'booking-settings') {
    const id = Number(payload.resourceId);
    return Number.isInteger(id) && id > 0 ? id : null;
  }
  return null;
}

/** The webhook payload (docs/webhooks.md), exactly as receivers get it. */
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
