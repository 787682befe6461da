import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { unavailable } from '../errors';
import { toAppError } from './errors';

export type ItemKey = { pk: string; sk: string };

/** BatchGetItem takes at most this many keys per call. */
const MAX_KEYS = 100;
/** Unprocessed keys (DynamoDB sheds load this way) are asked again, a few times, with backoff. */
const RETRIES = 4;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The items that exist among `keys`, in no particular order: one BatchGetItem per 100 keys. */
export async function getItems(keys: ItemKey[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  try {
    for (let i = 0; i < keys.length; i += MAX_KEYS) {
      let pending: ItemKey[] = keys.slice(i, i + MAX_KEYS);
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > RETRIES) throw unavailable();
        if (attempt > 0) await pause(20 * 2 ** attempt);
        const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
        found.push(...(out.Responses?.[tableName()] ?? []));
        pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as ItemKey[];
      }
    }
  } catch (err) {
    throw toAppError(err);
  }
  return found;
}
