/**
 * The event log (GET /api/v1/events): every event of the caller's company from the last 30 days,
 * oldest first, so a receiver that was down can page through what it missed.
 */
import type { Principal } from '../auth/principal';
import { eventLog, eventPosition, type LoggedEvent } from '../data/events';
import { forbidden, validationFailed } from '../errors';
import { eventCatalog, type EventName } from '../events/catalog';
import type { Page } from '../page';
import type { ListEventsQuery } from '../schemas/webhooks';

/**
 * The event log and webhook subscriptions span every location of the company; a credential
 * limited to some locations would see, or be sent, what happens at the others.
 */
export function assertCompanyWide(principal: Principal): void {
  if (principal.locationIds) throw forbidden('A credential limited to some locations cannot use company-wide events and webhooks');
}

export const isEventName = (name: string): name is EventName => Object.hasOwn(eventCatalog, name);

export function listEvents(principal: Principal, query: ListEventsQuery): Promise<Page<LoggedEvent>> {
  assertCompanyWide(principal);
  if (query.since !== undefined && query.after !== undefined) {
    throw validationFailed('Pass since or after, not both', [{ path: '/after', message: 'cannot be combined with since' }]);
  }
  if (query.type !== undefined && !isEventName(query.type)) {
    throw validationFailed('Unknown event type', [{ path: '/type', message: 'is not an event name' }]);
  }
  const after = query.after === undefined ? undefined : eventPosition(query.after);
  if (query.after !== undefined && after === undefined) {
    throw validationFailed('Invalid event cursor', [{ path: '/after', message: "is not an event's cursor" }]);
  }
  return eventLog.page(principal.companyId, {
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    type: query.type as EventName | undefined,
    since: query.since === undefined ? undefined : new Date(query.since).toISOString(),
    after,
  });
}
