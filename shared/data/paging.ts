import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { Page } from '../page';
import { validationFailed } from '../errors';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { table, type IndexName } from './table';
import type { Step } from './transact';

export interface PageRequest {
  page: number;
  limit: number;
  cursor?: string | undefined;
}

/** A collection: the items under one partition (optionally a sort-key prefix) and its counter item. */
export interface Collection {
  index?: IndexName;
  partition: string;
  prefix?: string;
  /** The item whose attribute `n` counts the collection (kept in the same transactions). */
  counter: { pk: string; sk: string };
}

type Key = Record<string, string>;

/** The key attributes of the table, or of an index: what a cursor must carry. */
export function keyNames(index?: IndexName): { pk: string; sk: string; all: string[] } {
  const base = [table.partitionKey, table.sortKey];
  if (!index) return { pk: table.partitionKey, sk: table.sortKey, all: base };
  const gsi = table.indexes.find((i) => i.name === index)!;
  return { pk: gsi.partitionKey, sk: gsi.sortKey, all: [...base, gsi.partitionKey, gsi.sortKey] };
}

/** Opaque to clients: the page number and the last key read. */
export const encodeCursor = (page: number, key: Key) => Buffer.from(JSON.stringify({ p: page, k: key })).toString('base64url');

/**
 * A cursor back into page and key, refused (400) unless it is a cursor of this very list: the
 * same partition (so never another tenant's) and a sort key the list covers.
 */
export function decodeCursor(cursor: string, list: { index?: IndexName | undefined; partition: string; sortKeyOk: (sk: string) => boolean }): { page: number; key: Key } {
  const invalid = () => validationFailed('Invalid cursor', [{ path: '/cursor', message: 'is not a cursor of this list' }]);
  let parsed: { p?: unknown; k?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const names = keyNames(list.index);
  const key = parsed.k as Key | null | undefined;
  const ok =
    Number.isInteger(parsed.p) &&
    (parsed.p as number) >= 1 &&
    key !== null &&
    typeof key === 'object' &&
    names.all.every((n) => typeof key[n] === 'string') &&
    Object.keys(key).length === names.all.length &&
    key[names.pk] === list.partition &&
    list.sortKeyOk(key[names.sk]!);
  if (!ok) throw invalid();
  return { page: parsed.p as number, key: key! };
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
export async function listPage<T>(c: Collection, req: PageRequest, map: (item: Record<string, unknown>) => T): Promise<Page<T>> {
  const names = keyNames(c.index);
  const start = req.cursor ? decodeCursor(req.cursor, { index: c.index, partition: c.partition, sortKeyOk: (sk) => sk.startsWith(c.prefix ?? '') }) : undefined;
  const page = start?.page ?? req.page;
  const skip = start ? 0 : (page - 1) * req.limit;
  const want = skip + req.limit;

  const input: QueryCommandInput = {
    TableName: tableName(),
    IndexName: c.index,
    KeyConditionExpression: c.prefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
    ExpressionAttributeNames: c.prefix ? { '#pk': names.pk, '#sk': names.sk } : { '#pk': names.pk },
    ExpressionAttributeValues: c.prefix ? { ':pk': c.partition, ':prefix': c.prefix } : { ':pk': c.partition },
    ExclusiveStartKey: start?.key,
  };

  try {
    const countRead = db().send(new GetCommand({ TableName: tableName(), Key: c.counter, ProjectionExpression: 'n' }));
    const items: Record<string, unknown>[] = [];
    let lastKey: Record<string, unknown> | undefined = start?.key;
    do {
      const out = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: lastKey, Limit: want - items.length }));
      items.push(...(out.Items ?? []));
      lastKey = out.LastEvaluatedKey;
    } while (lastKey && items.length < want);
    const total = Math.max(Number((await countRead).Item?.n ?? 0), 0);

    const pageItems = items.slice(skip);
    const last = pageItems.at(-1);
    const more = lastKey !== undefined && page * req.limit < total;
    const nextCursor =
      more && last ? encodeCursor(page + 1, Object.fromEntries(names.all.map((n) => [n, String(last[n])]))) : null;
    return new Page(pageItems.map(map), {
      page,
      limit: req.limit,
      total,
      totalPages: Math.ceil(total / req.limit),
      nextCursor,
    });
  } catch (err) {
    throw toAppError(err);
  }
}

/**
 * Every item a Query matches, reading page after page (DynamoDB pages at 1 MB). For collections
 * known to be small (a party's members, a day's bookings, the permission catalog), never for a list.
 */
export async function queryAll(input: Omit<QueryCommandInput, 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  try {
    do {
      const out = await db().send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
  } catch (err) {
    throw toAppError(err);
  }
  return items;
}
