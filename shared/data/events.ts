/**
 * The company's event log (GET /api/v1/events): the outbox items, oldest first, filtered by type
 * (gsi1), from a time (`since`, inclusive) or after an event (`after`, exclusive). The items are
 * kept per location and in shards of the company's (outbox.ts); a page merges the partitions the
 * caller may read. Events expire after 30 days, so the log is not counted.
 */
import { createHash } from 'node:crypto';
import type { EventName, EventPayload } from '../events/catalog';
import { assertPageDepth, Page } from '../page';
import type { Item } from './batch';
import { validationFailed } from '../errors';
import { mapPool } from '../pool';
import { getItem } from './batch';
import { locations } from './locations';
import { companyEventShard, EVENT_SHARDS, eventLogsKey, legacyEventLog, locationEventLog, ofEventType } from './outbox';
import { logPage, queryUntil, type LogRead, type PageRequest, type QuerySpan, type SortRange } from './paging';
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

/** Partitions a page reads at once. */
const LOG_READS_AT_ONCE = 16;
const PAGE_OF_LOCATIONS = 1000;
/** A company's locations read at most (100,000): a bound, not a limit any company nears. */
const MAX_LOCATION_PAGES = 100;

/** Every location of the company whose log may hold events: those recorded, and those listed (made before the record). */
async function loggedLocations(companyId: number): Promise<number[]> {
  const found = new Set<number>();
  const record = await getItem(eventLogsKey(companyId));
  for (const id of (record?.locations as Set<number> | undefined) ?? []) found.add(Number(id));
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_LOCATION_PAGES; page++) {
    const listed = await locations.list(companyId, { page, limit: PAGE_OF_LOCATIONS, ...(cursor ? { cursor } : {}) });
    for (const l of listed.items) found.add(l.id);
    cursor = listed.pagination.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return [...found].sort((a, b) => a - b);
}

/** Every partition of the company's log: its locations', its shards, and the log as it was before. */
export async function eventLogPartitions(companyId: number): Promise<string[]> {
  return partitionsFor(companyId, undefined);
}

/** The partitions of the log a caller reads: the locations it may see (all, unless limited), the company's shards when it may see events that name none, and the log as it was before. */
async function partitionsFor(companyId: number, visible: EventVisibility | undefined): Promise<string[]> {
  const limited = visible !== undefined && visible.locations.length > 0;
  const atLocations = !visible || visible.atLocations.length > 0 || (!limited && visible.anywhere.length > 0);
  const ids = !atLocations ? [] : limited ? visible.locations : await loggedLocations(companyId);
  const shards = !visible || visible.anywhere.length > 0 || !limited;
  return [
    ...ids.map((id) => locationEventLog(companyId, id)),
    ...(shards ? Array.from({ length: EVENT_SHARDS }, (_, i) => companyEventShard(companyId, i)) : []),
    legacyEventLog(companyId),
  ];
}

/**
 * A page cursor of the merged log: the page it opens, the position it reads after, and which list
 * it belongs to (the company and the type: a cursor only works on the list that issued it).
 */
const listOf = (companyId: number, type: string | undefined) =>
  createHash('sha256')
    .update(`${companyId}|${type ?? ''}`)
    .digest('base64url')
    .slice(0, 12);
const logCursor = (list: string, page: number, position: string) =>
  Buffer.from(JSON.stringify({ p: page, at: position, l: list })).toString('base64url');
function readLogCursor(list: string, cursor: string): { page: number; position: string } {
  try {
    const { p, at, l } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (l === list && Number.isInteger(p) && (p as number) >= 1 && typeof at === 'string' && POSITION.test(at))
      return { page: p as number, position: at };
  } catch {
    // not JSON: refused below
  }
  throw validationFailed('Invalid cursor', [{ path: '/cursor', message: 'is not a cursor of this list' }]);
}

/**
 * One page of a log kept in several partitions, merged by position (the sort key every partition
 * shares): each partition is read from the page's start for as many items as the page needs, and
 * the page is what all of them hold up to the earliest point where one stopped reading (a filter
 * that dropped items stops a partition's read short); the next page reads on from there.
 */
async function readMergedLog(
  list: string,
  spans: QuerySpan[],
  req: PageRequest,
  from: SortRange | undefined,
): Promise<LogRead> {
  const start = req.cursor ? readLogCursor(list, req.cursor) : undefined;
  if (!start) assertPageDepth(req);
  const page = start?.page ?? req.page;
  const skip = start ? 0 : (page - 1) * req.limit;
  const range: SortRange | undefined = start ? { op: '>', value: start.position } : from;
  const reads = await mapPool(spans, LOG_READS_AT_ONCE, (span) => queryUntil({ ...span, range }, skip + req.limit + 1));
  const stops = reads.flatMap((r) => (r.lastKey ? [String(r.lastKey.sk)] : []));
  const horizon = stops.length ? stops.sort()[0] : undefined;
  const known = reads
    .flatMap((r) => r.items)
    .filter((i) => horizon === undefined || String(i.sk) <= horizon)
    .sort((a, b) => (String(a.sk) < String(b.sk) ? -1 : String(a.sk) > String(b.sk) ? 1 : 0));
  const items = known.slice(skip, skip + req.limit);
  const full = known.length > skip + req.limit;
  const after = full ? String(items.at(-1)!.sk) : horizon;
  return {
    head: known.slice(0, skip),
    items,
    page,
    limit: req.limit,
    more: after !== undefined,
    nextCursor: after === undefined ? null : logCursor(list, page + 1, after),
  };
}

export const eventLog = {
  /**
   * The log, or one type's (gsi1), of the partitions the caller may read (its locations', the
   * company's shards, the log as it was before the partitions), merged by position, so `since`
   * and `after` are ranges of either. With `visible`, the events the caller may not see are
   * filtered out on the read (a page may read further to fill itself).
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
    const filter = visible ? visibilityFilter(visible) : undefined;
    const spans: QuerySpan[] = (await partitionsFor(companyId, visible)).map((partition) => ({
      index: q.type ? 'gsi1' : undefined,
      partition: q.type ? ofEventType(partition, q.type) : partition,
      ...(filter ? { filter } : {}),
    }));
    return logPage(await readMergedLog(listOf(companyId, q.type), spans, q, range), loggedEventOf);
  },
};
