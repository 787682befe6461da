/**
 * Reads by key: one item (GetItem) or many (BatchGetItem), and reads of several item families in
 * one round trip (`readTogether`): an operation that must read before it writes names everything
 * it needs at once, and DynamoDB serves it in one BatchGetItem.
 */
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { unavailable } from '../errors';
import { db, tableName } from './client';
import { sdk } from './errors';

export type ItemKey = { pk: string; sk: string };
export type Item = Record<string, unknown>;

/** BatchGetItem takes at most this many keys per call. */
const MAX_KEYS = 100;
/** Unprocessed keys (DynamoDB sheds load this way) are asked again, a few times, with backoff. */
const RETRIES = 4;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const keyId = (k: ItemKey) => `${k.pk}\u0000${k.sk}`;

export interface ReadOptions {
  /** Strongly consistent: sees every write that succeeded before the read. */
  consistent?: boolean;
}

/** One item, or undefined: one GetItem. */
export function getItem(key: ItemKey, options: ReadOptions = {}): Promise<Item | undefined> {
  return sdk(
    async () =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: options.consistent }))).Item,
  );
}

/** The keys' chunk of at most 100, with unprocessed keys asked again. */
async function getChunk(keys: ItemKey[], options: ReadOptions): Promise<Item[]> {
  const found: Item[] = [];
  let pending = keys;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > RETRIES) throw unavailable();
    if (attempt > 0) await pause(20 * 2 ** attempt);
    const out = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: options.consistent } } }),
    );
    found.push(...(out.Responses?.[tableName()] ?? []));
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as ItemKey[];
  }
  return found;
}

/**
 * The items that exist among `keys`, in no particular order. Up to 100 distinct keys are one
 * BatchGetItem; more are several, sent at once (still one round trip of latency).
 */
export function getItems(keys: readonly ItemKey[], options: ReadOptions = {}): Promise<Item[]> {
  const distinct = [...new Map(keys.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()];
  if (distinct.length === 0) return Promise.resolve([]);
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < distinct.length; i += MAX_KEYS) chunks.push(distinct.slice(i, i + MAX_KEYS));
  return sdk(async () => (await Promise.all(chunks.map((c) => getChunk(c, options)))).flat());
}

/** The items found by a read, by key. */
interface Found {
  get(key: ItemKey): Item | undefined;
}

/** A read of one or more keys and what it answers once they are fetched (see `Entity.read`). */
export interface ReadRequest<R> {
  keys: ItemKey[];
  answer: (found: Found) => R;
}

/** A read of raw items by key, answered in the order asked (undefined where absent). */
export const readItems = (keys: ItemKey[]): ReadRequest<(Item | undefined)[]> => ({
  keys,
  answer: (found) => keys.map((k) => found.get(k)),
});

type Answers<R extends Record<string, ReadRequest<unknown>>> = {
  [K in keyof R]: R[K] extends ReadRequest<infer A> ? A : never;
};

/**
 * Every read request at once, in one round trip: one GetItem when a single key is asked, else
 * BatchGetItem. `readTogether({ location: locations.read(c, 1), tables: tables.readMany(...) })`
 * answers `{ location, tables }`, each as its request maps it.
 */
export async function readTogether<R extends Record<string, ReadRequest<unknown>>>(
  requests: R,
  options: ReadOptions = {},
): Promise<Answers<R>> {
  const all = Object.values(requests).flatMap((r) => r.keys);
  const items =
    all.length === 1
      ? [await getItem(all[0]!, options)].filter((i): i is Item => i !== undefined)
      : await getItems(all, options);
  const byKey = new Map(items.map((i) => [keyId(i as ItemKey), i]));
  const found: Found = { get: (key) => byKey.get(keyId(key)) };
  return Object.fromEntries(Object.entries(requests).map(([name, r]) => [name, r.answer(found)])) as Answers<R>;
}

/** A read that asks for nothing and answers `value`: for what an operation reads only sometimes. */
export const noRead = <T>(value: T): ReadRequest<T> => ({ keys: [], answer: () => value });
