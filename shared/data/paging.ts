/**
 * Queries and pages: the one loop that reads a partition (`queryUntil`), and what serves lists with
 * it: counted collections (`listPage`), time-ordered logs (`readLog`), small whole collections
 * (`queryAll`), and the opaque cursor every list accepts.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { AppError, validationFailed } from '../errors';
import { assertPageDepth, Page } from '../page';
import type { Item } from './batch';
import { db, tableName } from './client';
import { sdk } from './errors';
import { table, type IndexName } from './table';
import type { Condition, Step } from './transact';

export interface PageRequest {
  page: number;
  limit: number;
  cursor?: string | undefined;
}

/** The sort keys a read covers. */
export type SortRange =
  | { op: 'begins_with' | '>=' | '>' | '<'; value: string }
  | { op: 'between'; low: string; high: string };

/** Where a query reads: one partition of the table or of an index, optionally a range of sort keys. */
export interface QuerySpan {
  index?: IndexName | undefined;
  partition: string;
  range?: SortRange | undefined;
  newestFirst?: boolean;
  /** Strongly consistent (the table only: indexes are eventually consistent). */
  consistent?: boolean;
  /** Applied after the key condition: what it drops still counts against `Limit`. */
  filter?: Condition;
}

/** A collection: the items under one partition (optionally a sort-key prefix) and its counter item. */
export interface Collection {
  index?: IndexName;
  partition: string;
  prefix?: string;
  /** Read in descending sort-key order (the alerts: newest first). */
  newestFirst?: boolean;
  /** The item whose attribute `n` counts the collection (kept in the same transactions). */
  counter: { pk: string; sk: string };
}

type Key = Record<string, string>;

/** The key attributes of the table, or of an index: what a cursor must carry. */
function keyNames(index?: IndexName): { pk: string; sk: string; all: string[] } {
  const base = [table.partitionKey, table.sortKey];
  if (!index) return { pk: table.partitionKey, sk: table.sortKey, all: base };
  const gsi = table.indexes.find((i) => i.name === index)!;
  return { pk: gsi.partitionKey, sk: gsi.sortKey, all: [...base, gsi.partitionKey, gsi.sortKey] };
}

function inRange(sk: string, range?: SortRange): boolean {
  if (!range) return true;
  switch (range.op) {
    case 'between':
      return sk >= range.low && sk <= range.high;
    case 'begins_with':
      return sk.startsWith(range.value);
    case '>=':
      return sk >= range.value;
    case '>':
      return sk > range.value;
    case '<':
      return sk < range.value;
  }
}

function queryInput(span: QuerySpan): QueryCommandInput {
  const names = keyNames(span.index);
  const range = span.range;
  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: span.index,
    ScanIndexForward: !span.newestFirst,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': names.pk },
    ExpressionAttributeValues: { ':pk': span.partition, ...span.filter?.values },
    ...(span.consistent ? { ConsistentRead: true } : {}),
  };
  if (span.filter) {
    input.FilterExpression = span.filter.expression;
    Object.assign(input.ExpressionAttributeNames!, span.filter.names);
  }
  if (!range) return input;
  input.ExpressionAttributeNames!['#sk'] = names.sk;
  if (range.op === 'between') {
    Object.assign(input.ExpressionAttributeValues!, { ':low': range.low, ':high': range.high });
    input.KeyConditionExpression += ' AND #sk BETWEEN :low AND :high';
  } else {
    input.ExpressionAttributeValues![':sk'] = range.value;
    input.KeyConditionExpression +=
      range.op === 'begins_with' ? ' AND begins_with(#sk, :sk)' : ` AND #sk ${range.op} :sk`;
  }
  return input;
}

/**
 * The one query loop: reads the span from `start` on until `want` items are read or the span ends
 * (DynamoDB pages at 1 MB). Answers the items and the key to go on from, if any. Items a filter
 * drops count as read (DynamoDB's ScannedCount): a filter never makes the loop walk the rest of a
 * partition looking for matches; a filtered span answers fewer items, and `lastKey` says where
 * reading stopped.
 */
export async function queryUntil(
  span: QuerySpan,
  want: number,
  start?: Item,
): Promise<{ items: Item[]; lastKey: Item | undefined }> {
  const input = queryInput(span);
  return sdk(async () => {
    const items: Item[] = [];
    let read = 0;
    let lastKey = start;
    do {
      const limit = Number.isFinite(want) ? { Limit: want - read } : {};
      const out = await db().send(new QueryCommand({ ...input, ...limit, ExclusiveStartKey: lastKey }));
      items.push(...(out.Items ?? []));
      read += out.ScannedCount ?? out.Items?.length ?? 0;
      lastKey = out.LastEvaluatedKey;
    } while (lastKey && read < want);
    return { items, lastKey };
  });
}

/** A collection read whole has more items than its bound: answering it would mean reading without end. */
export class TooMany extends AppError {
  constructor(readonly max: number) {
    super('UNPROCESSABLE', `More than ${max} items to read at once`);
  }
}

/**
 * Every item of a span, for collections known to be small (a party's members, a day's bookings,
 * the permission catalog, a company's webhook subscriptions), never for a list a client pages
 * through. Reads at most `max` + 1 items: more is TooMany (422), never a read to the end of an
 * unbounded partition. Only what is not a request (the no-show sweep) passes Infinity.
 */
export async function queryAll(span: QuerySpan, max = 1000): Promise<Item[]> {
  const { items, lastKey } = await queryUntil(span, max === Infinity ? Infinity : max + 1);
  if (items.length > max || (lastKey !== undefined && max !== Infinity)) throw new TooMany(max);
  return items;
}

/**
 * Opaque to clients: the page number and the last key read; for a list whose pages are not all
 * full (the guest search), also how many items the pages before it listed.
 */
export const encodeCursor = (page: number, key: Key, listed?: number) =>
  Buffer.from(JSON.stringify({ p: page, k: key, ...(listed === undefined ? {} : { n: listed }) })).toString(
    'base64url',
  );

/** The key attributes of an item (of the table, or of an index): where a read goes on after it. */
export const itemKey = (item: Item, index?: IndexName): Key =>
  Object.fromEntries(keyNames(index).all.map((n) => [n, String(item[n])]));

/** The cursor of the page after `page`, continuing after `last`. */
const cursorAfter = (page: number, last: Item, index?: IndexName) => encodeCursor(page + 1, itemKey(last, index));

/**
 * A cursor back into page and key, refused (400) unless it is a cursor of this very list: the
 * same partition (so never another tenant's) and a sort key the list covers.
 */
export function decodeCursor(cursor: string, span: QuerySpan): { page: number; key: Key; listed?: number } {
  const invalid = () =>
    validationFailed('Invalid cursor', [{ path: '/cursor', message: 'is not a cursor of this list' }]);
  let parsed: { p?: unknown; k?: unknown; n?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const names = keyNames(span.index);
  const key = parsed.k as Key | null | undefined;
  const ok =
    Number.isInteger(parsed.p) &&
    (parsed.p as number) >= 1 &&
    key !== null &&
    typeof key === 'object' &&
    names.all.every((n) => typeof key[n] === 'string') &&
    Object.keys(key).length === names.all.length &&
    key[names.pk] === span.partition &&
    inRange(key[names.sk]!, span.range) &&
    (parsed.n === undefined || (Number.isInteger(parsed.n) && (parsed.n as number) >= 0));
  if (!ok) throw invalid();
  return { page: parsed.p as number, key: key!, ...(parsed.n === undefined ? {} : { listed: parsed.n as number }) };
}

/** ADD `delta` to a collection's counter, as one step of the transaction that adds or removes an item. */
export function counterStep(counter: Collection['counter'], delta: number): Step {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: counter,
        UpdateExpression: 'ADD n :d SET entity = :e',
        ExpressionAttributeValues: { ':d': delta, ':e': 'COUNTER' },
      },
    },
  };
}

/**
 * One page of a collection. With a cursor it is one Query; with `page` N it reads the N-1 pages
 * before it too (deep pages should use the cursor). The total comes from the counter item,
 * read in parallel.
 */
export async function listPage<T>(c: Collection, req: PageRequest, map: (item: Item) => T): Promise<Page<T>> {
  const span: QuerySpan = {
    index: c.index,
    partition: c.partition,
    ...(c.prefix ? { range: { op: 'begins_with', value: c.prefix } } : {}),
    ...(c.newestFirst ? { newestFirst: true } : {}),
  };
  const start = req.cursor ? decodeCursor(req.cursor, span) : undefined;
  if (!start) assertPageDepth(req);
  const page = start?.page ?? req.page;
  const skip = start ? 0 : (page - 1) * req.limit;

  const countRead = sdk(() =>
    db().send(new GetCommand({ TableName: tableName(), Key: c.counter, ProjectionExpression: 'n' })),
  );
  const [{ items, lastKey }, count] = await Promise.all([queryUntil(span, skip + req.limit, start?.key), countRead]);
  const total = Math.max(Number(count.Item?.n ?? 0), 0);

  const pageItems = items.slice(skip);
  const last = pageItems.at(-1);
  const more = lastKey !== undefined && page * req.limit < total;
  return new Page(pageItems.map(map), {
    page,
    limit: req.limit,
    total,
    totalPages: Math.ceil(total / req.limit),
    nextCursor: more && last ? cursorAfter(page, last, c.index) : null,
  });
}

/** One page of a log, as `readLog` reads it. */
export interface LogRead {
  /** Items before the page: earlier pages when `page` is walked to, and `lead` items asked for. */
  head: Item[];
  items: Item[];
  page: number;
  limit: number;
  more: boolean;
  nextCursor: string | null;
}

/**
 * One page of a time-ordered log (the event log, webhook delivery attempts, a tab's orders): one
 * Query per page and no counter item, because log items expire by TTL and a counter would drift
 * from what is left. A page reads one item more than it shows, to know whether more follow. With
 * a cursor it is one Query from the cursor's key; with `page` N it reads the pages before it too.
 * `lead` items before the first one are returned in `head` (a caller whose partition starts with
 * a marker item asks for it this way).
 */
export async function readLog(span: QuerySpan, req: PageRequest, lead = 0): Promise<LogRead> {
  const start = req.cursor ? decodeCursor(req.cursor, span) : undefined;
  if (!start) assertPageDepth(req);
  const page = start?.page ?? req.page;
  const skip = start ? 0 : (page - 1) * req.limit + lead;
  const { items, lastKey } = await queryUntil(span, skip + req.limit + 1, start?.key);
  const pageItems = items.slice(skip, skip + req.limit);
  const full = items.length > skip + req.limit;
  // A filter that dropped items leaves the page short with more to read: go on where reading stopped.
  const after = full ? pageItems.at(-1) : span.filter && lastKey;
  const more = full || Boolean(after);
  return {
    head: items.slice(0, skip),
    items: pageItems,
    page,
    limit: req.limit,
    more,
    nextCursor: after ? cursorAfter(page, after, span.index) : null,
  };
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
