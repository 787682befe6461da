/**
 * The event log (GET /api/v1/events): the events of the caller's company from the last 30 days,
 * oldest first, so a receiver that was down can page through what it missed. A credential sees an
 * event only if it could read the event's resource directly (`resourceAccess`): with the
 * resource's read permission and, for a credential limited to some locations, at one of them.
 */
import type { Principal } from '../auth/principal';
import { eventLog, eventPosition, type EventVisibility, type LoggedEvent } from '../data/events';
import { AppError, forbidden, validationFailed } from '../errors';
import { eventCatalog, eventNames, resourceAccess, type EventName } from '../events/catalog';
import type { Page } from '../page';
import type { ListEventsQuery } from '../schemas/webhooks';

/**
 * Webhook subscriptions span every location of the company; a credential limited to some
 * locations would be sent what happens at the others. (The event log filters instead.)
 */
export function assertCompanyWide(principal: Principal): void {
  if (principal.locationIds)
    throw forbidden('A credential limited to some locations cannot use webhooks, which span every location');
}

export const isEventName = (name: string): name is EventName => Object.hasOwn(eventCatalog, name);

/** The permission that reads an event's resource (and so the event). */
export const readPermissionOf = (name: EventName): string => resourceAccess[eventCatalog[name]].read;

/** Whether the credential holds the read permission of the event's resource. */
export const canReadEvent = (principal: Principal, name: EventName): boolean =>
  principal.permissions.includes(readPermissionOf(name));

/** The events that are logged (and so may be subscribed to by `*`): every name but `webhook.test`. */
export const loggedEventNames: readonly EventName[] = eventNames.filter((n) => n !== 'webhook.test');

/** The logged events whose resource the credential can read, in catalog order. */
export const readableEvents = (principal: Principal): EventName[] =>
  loggedEventNames.filter((n) => canReadEvent(principal, n));

/**
 * Which events of the log the credential may see, among `names` (every logged event, or one
 * type): undefined when it may see them all. A location-limited credential sees the events of
 * company-wide resources anywhere, and the others only at its locations.
 */
function visibility(principal: Principal, names: readonly EventName[]): EventVisibility | undefined {
  const readable = names.filter((n) => canReadEvent(principal, n));
  if (principal.locationIds === null)
    return readable.length === names.length ? undefined : { anywhere: readable, atLocations: [], locations: [] };
  const companyWide = (n: EventName) => resourceAccess[eventCatalog[n]].scope === 'company';
  return {
    anywhere: readable.filter(companyWide),
    atLocations: readable.filter((n) => !companyWide(n)),
    locations: principal.locationIds,
  };
}

/**
 * A page of the log, of the events the caller may see (see `visibility`). A `type` whose resource
 * the caller cannot read answers 403.
 */
export function listEvents(principal: Principal, query: ListEventsQuery): Promise<Page<LoggedEvent>> {
  if (query.since !== undefined && query.after !== undefined) {
    throw validationFailed('Pass since or after, not both', [
      { path: '/after', message: 'cannot be combined with since' },
    ]);
  }
  if (query.type !== undefined && !isEventName(query.type)) {
    throw validationFailed('Unknown event type', [{ path: '/type', message: 'is not an event name' }]);
  }
  const type = query.type as EventName | undefined;
  if (type !== undefined && !canReadEvent(principal, type)) {
    throw new AppError('FORBIDDEN', `Reading ${type} events needs ${readPermissionOf(type)}`, [
      { path: '/type', message: `needs ${readPermissionOf(type)}` },
    ]);
  }
  const after = query.after === undefined ? undefined : eventPosition(query.after);
  if (query.after !== undefined && after === undefined) {
    throw validationFailed('Invalid event cursor', [{ path: '/after', message: "is not an event's cursor" }]);
  }
  const log = {
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    type,
    since: query.since === undefined ? undefined : new Date(query.since).toISOString(),
    after,
  };
  return eventLog.page(principal.companyId, log, visibility(principal, type ? [type] : loggedEventNames));
}
