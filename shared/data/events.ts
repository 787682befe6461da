/**
 * The company's event log (GET /api/v1/events): the outbox items, oldest first, filtered by type
 * (gsi1), from a time (`since`, inclusive) or after an event (`after`, exclusive). Paged as a log
 * (paging.ts `readLog`): events expire after 30 days, so they are not counted.
 */
import type { EventName, EventPayload } from '../events/catalog';
import type { Page } from '../page';
import type { Item } from './batch';
import { eventLogPartition } from './outbox';
import { logPage, readLog, type PageRequest, type QuerySpan, type SortRange } from './paging';

/** An event as the log shows it: the webhook payload (with the event's own id) and its position. */
export type LoggedEvent = EventPayload & { cursor: string };

export interface EventLogQuery extends PageRequest {
  type?: EventName | undefined;
  /** ISO timestamp: events at or after it. */
  since?: string | undefined;
  /** An event's `cursor`: events after it. */
  after?: string | undefined;
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
  return { id, event, resource, resourceId, timestamp, apiVersion, data, changes, cursor: eventCursor(String(item.sk)) };
}

export const eventLog = {
  /** The company's log or one type's (gsi1): both ordered by position, so `since` and `after` are ranges of either. */
  async page(companyId: number, q: EventLogQuery): Promise<Page<LoggedEvent>> {
    const range: SortRange | undefined = q.after !== undefined ? { op: '>', value: q.after } : q.since !== undefined ? { op: '>=', value: q.since } : undefined;
    const span: QuerySpan = { index: q.type ? 'gsi1' : undefined, partition: eventLogPartition(companyId, q.type), range };
    return logPage(await readLog(span, q), loggedEventOf);
  },
};
