/**
 * The company's event log (GET /api/v1/events): the outbox items, oldest first, filtered by type
 * (gsi1), from a time (`since`, inclusive) or after an event (`after`, exclusive).
 *
 * Also the paging of time-ordered logs in general (the event log, webhook delivery attempts): one
 * Query per page and no counter item, because log items expire by TTL and a counter would drift
 * from what is left. A page reads one item more than it shows, to know whether more follow.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EventName, EventPayload } from '../events/catalog';
import { Page } from '../page';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys } from './keys';
import { decodeCursor, encodeCursor, keyNames, type PageRequest } from './paging';
import type { IndexName } from './table';

type Item = Record<string, unknown>;

/** The sort keys a log read covers. */
export type SortRange = { op: '>=' | '>'; value: string } | { op: 'between'; low: string; high: string };

export interface LogSpan {
  index?: IndexName;
  partition: string;
  range?: SortRange;
  newestFirst?: boolean;
}

export interface LogRead {
  /** Items before the page: earlier pages when `page` is walked to, and `lead` items asked for. */
  head: Item[];
  items: Item[];
  page: number;
  limit: number;
  more: boolean;
  nextCursor: string | null;
}

function inRange(sk: string, range?: SortRange): boolean {
  if (!range) return true;
  if (range.op === 'between') return sk >= range.low && sk <= range.high;
  return range.op === '>=' ? sk >= range.value : sk > range.value;
}

function keyCondition(names: { pk: string; sk: string }, span: LogSpan): Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const range = span.range;
  const base = { ExpressionAttributeNames: { '#pk': names.pk } as Record<string, string>, ExpressionAttributeValues: { ':pk': span.partition } as Item };
  if (!range) return { KeyConditionExpression: '#pk = :pk', ...base };
  base.ExpressionAttributeNames['#sk'] = names.sk;
  if (range.op === 'between') {
    Object.assign(base.ExpressionAttributeValues, { ':low': range.low, ':high': range.high });
    return { KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high', ...base };
  }
  base.ExpressionAttributeValues[':from'] = range.value;
  return { KeyConditionExpression: `#pk = :pk AND #sk ${range.op} :from`, ...base };
}

/**
 * Reads one page of a log. With a cursor it is one Query from the cursor's key; with `page` N it
 * reads the pages before it too. `lead` items before the first one are returned in `head`
 * (a caller whose partition starts with a marker item asks for it this way).
 */
export async function readLog(span: LogSpan, req: PageRequest, lead = 0): Promise<LogRead> {
  const names = keyNames(span.index);
  const start = req.cursor ? decodeCursor(req.cursor, { index: span.index, partition: span.partition, sortKeyOk: (sk) => inRange(sk, span.range) }) : undefined;
  const page = start?.page ?? req.page;
  const skip = start ? 0 : (page - 1) * req.limit + lead;
  const want = skip + req.limit + 1;
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: span.index,
    ScanIndexForward: !span.newestFirst,
    ...keyCondition(names, span),
  };
  try {
    const items: Item[] = [];
    let lastKey: Item | undefined = start?.key;
    do {
      const out = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: lastKey, Limit: want - items.length }));
      items.push(...(out.Items ?? []));
      lastKey = out.LastEvaluatedKey;
    } while (lastKey && items.length < want);
    const pageItems = items.slice(skip, skip + req.limit);
    const more = items.length > skip + req.limit;
    const last = pageItems.at(-1);
    const nextCursor = more && last ? encodeCursor(page + 1, Object.fromEntries(names.all.map((n) => [n, String(last[n])]))) : null;
    return { head: items.slice(0, skip), items: pageItems, page, limit: req.limit, more, nextCursor };
  } catch (err) {
    throw toAppError(err);
  }
}

/**
 * A log read as the envelope's page. A log is not counted (its items expire), so `total` counts
 * the items up to the end of this page, plus one when more follow: exact on the last page, a lower
 * bound before it (with `nextCursor` set and `totalPages` at least one more than `page`).
 */
export function logPage<T>(read: LogRead, map: (item: Item) => T): Page<T> {
  const total = (read.page - 1) * read.limit + read.items.length + (read.more ? 1 : 0);
  return new Page(read.items.map(map), {
    page: read.page,
    limit: read.limit,
    total,
    totalPages: Math.ceil(total / read.limit),
    nextCursor: read.nextCursor,
  });
}

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

export const eventLog = {
  page(companyId: number, q: EventLogQuery): Promise<Page<LoggedEvent>> {
    const events = `${keys.company(companyId)}#EVENTS`;
    const span: LogSpan = q.type ? { index: 'gsi1', partition: `${events}#${q.type}` } : { partition: events };
    if (q.after !== undefined) span.range = { op: '>', value: q.after };
    else if (q.since !== undefined) span.range = { op: '>=', value: q.since };
    return readLog(span, q).then((read) =>
      logPage(read, (item) => {
        const { id, event, resource, resourceId, timestamp, apiVersion, data, changes } = item.payload as EventPayload;
        return { id, event, resource, resourceId, timestamp, apiVersion, data, changes, cursor: eventCursor(String(item.sk)) };
      }),
    );
  },
};
