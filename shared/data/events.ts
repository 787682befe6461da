/**
 * The company's event log (GET /api/v1/events): the outbox items, oldest first, filtered by type
 * (gsi1), from a time (`since`, inclusive) or after an event (`after`, exclusive). Paged as a log
 * (paging.ts `readLog`): events expire after 30 days, so they are not counted.
 */
import type { EventName, EventPayload } from '../events/catalog';
import { Page } from '../page';
import type { Item } from './batch';
import { eventLogPartition } from './outbox';
import { logPage, readLog, type PageRequest, type QuerySpan, type SortRange } from './paging';
import type { Condition } from './transact';

/** An event as the log shows it: the webhook payload (with the event's own id) and its position. */
export type LoggedEvent = EventPayload & { cursor: string };

export interface EventLogQuery extends PageRequest {
  type?: EventName | undefined;
  /** ISO timestamp: events at or after it. */
  since?: string | undefined;
  /** An event's `cursor`: events after it. */
  after?: string | undefined;
}

/**
 * The events a caller may see, when not all: those of `anywhere` (types shown wherever they
 * happened), and those of `atLocations` types whose location is one of `locations`.
 */
export interface EventVisibility {
  anywhere: EventName[];
  atLocations: EventName[];
  locations: number[];
}

/** `#name IN (:prefix0, …)`, at most 100 values (DynamoDB's bound for IN). */
function inList(
  name: string,
  prefix: string,
  values: readonly (string | number)[],
  into: Record<string, unknown>,
): string {
  if (values.length > 100) throw new Error(`an IN list holds at most 100 values (${values.length})`);
  values.forEach((v, i) => (into[`:${prefix}${i}`] = v));
  return `${name} IN (${values.map((_, i) => `:${prefix}${i}`).join(', ')})`;
}

const seesNothing = (v: EventVisibility) =>
  v.anywhere.length === 0 && (v.atLocations.length === 0 || v.locations.length === 0);

/** The filter of a log read by visibility (which must let some events through). */
export function visibilityFilter(v: EventVisibility): Condition {
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  if (v.anywhere.length) parts.push(inList('#payload.#event', 'e', v.anywhere, values));
  if (v.atLocations.length && v.locations.length)
    parts.push(
      `(${inList('#payload.#event', 'le', v.atLocations, values)} AND ${inList('#locationId', 'l', v.locations, values)})`,
    );
  if (!parts.length) throw new Error('visibilityFilter: nothing is visible');
  const names: Record<string, string> = { '#payload': 'payload', '#event': 'event' };
  if (parts.length > 1 || !v.anywhere.length) names['#locationId'] = 'locationId';
  return { expression: parts.join(' OR '), names, values };
}

/** An event's position in the log (its sort key), opaque to clients. */
const eventCursor = (position: string) => Buffer.from(position).toString('base64url');
const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9a-f-]{36}$/;

/** The position an event cursor names, or undefined when it is not one. */
export function eventPosition(cursor: string): string | undefined {
  const position = Buffer.from(cursor, 'base64url').toString('utf8');
  return POSITION.test(position) ? position : undefined;
}

/** An outbox item as the log shows it. */
function loggedEventOf(item: Item): LoggedEvent {
  const { id, event, resource, resourceId, timestamp, apiVersion, data, changes } = item.payload as EventPayload;
  return {
    id,
    event,
    resource,
    resourceId,
    timestamp,
    apiVersion,
    data,
    changes,
    cursor: eventCursor(String(item.sk)),
  };
}

export const eventLog = {
  /**
   * The company's log or one type's (gsi1): both ordered by position, so `since` and `after` are
   * ranges of either. With `visible`, the events the caller may not see are filtered out on the
   * read (pages stay full; a page may read further to fill itself).
   */
  async page(companyId: number, q: EventLogQuery, visible?: EventVisibility): Promise<Page<LoggedEvent>> {
    if (visible && seesNothing(visible))
      return new Page([], { page: q.page, limit: q.limit, total: 0, totalPages: 0, nextCursor: null });
    const range: SortRange | undefined =
      q.after !== undefined
        ? { op: '>', value: q.after }
        : q.since !== undefined
          ? { op: '>=', value: q.since }
          : undefined;
    const span: QuerySpan = {
      index: q.type ? 'gsi1' : undefined,
      partition: eventLogPartition(companyId, q.type),
      range,
      ...(visible ? { filter: visibilityFilter(visible) } : {}),
    };
    return logPage(await readLog(span, q), loggedEventOf);
  },
};
