import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { conditionFailed, sdk } from './errors';
import { writeGate } from './writeGate';

/** Kinds of numeric id (docs/conventions.md, “Ids”): each has its own platform-wide counter. */
export type IdKind =
  | 'company'
  | 'location'
  | 'user'
  | 'permission'
  | 'role'
  | 'item'
  | 'custom-tag'
  | 'variant-group'
  | 'variant'
  | 'schedule'
  | 'schedule-rule';

/**
 * Ids are reserved from the counter in blocks, one atomic ADD per block, and handed out from
 * memory: a create costs no extra call most of the time. Ids stay unique across the platform and
 * are never reused; a container that stops leaves a gap, which ids are allowed to have.
 */
export const ID_BLOCK_SIZE = 10;

interface Block {
  next: number;
  last: number;
}
const blocks = new Map<IdKind, Block>();
const reserving = new Map<IdKind, Promise<Block>>();

/** One atomic ADD answering the new value: an UpdateItem of its own, not a transaction step. */
async function reserveBlock(kind: IdKind): Promise<Block> {
  await writeGate();
  const out = await sdk(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: 'SEQ', sk: kind },
        UpdateExpression: 'ADD v :n SET entity = :e',
        ExpressionAttributeValues: { ':n': ID_BLOCK_SIZE, ':e': 'SEQUENCE' },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  const last = Number(out.Attributes!.v);
  return { next: last - ID_BLOCK_SIZE + 1, last };
}

/** The next id of a kind. Concurrent callers share one reservation when the block runs out. */
export async function nextId(kind: IdKind): Promise<number> {
  for (;;) {
    const block = blocks.get(kind);
    if (block && block.next <= block.last) return block.next++;
    let pending = reserving.get(kind);
    if (!pending) {
      pending = reserveBlock(kind).finally(() => reserving.delete(kind));
      reserving.set(kind, pending);
      blocks.set(kind, await pending);
    } else {
      // Another request's reservation: if it fails (its own refusal, say), try again with our own.
      await pending.catch(() => undefined);
    }
  }
}

/** Forget reserved blocks (tests that move counters, and the local stage when it changes tables). */
export const releaseIdBlocks = () => blocks.clear();

/** Moves a counter forward so every id handed out from now on is above `floor` (seeded ids stay below it). */
export async function reserveIdsBelow(kind: IdKind, floor: number): Promise<void> {
  blocks.delete(kind);
  await writeGate();
  await sdk(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: 'SEQ', sk: kind },
        UpdateExpression: 'SET v = :floor, entity = :e',
        ConditionExpression: 'attribute_not_exists(v) OR v < :floor',
        ExpressionAttributeValues: { ':floor': floor, ':e': 'SEQUENCE' },
      }),
    ),
  ).catch((err: unknown) => {
    // Already at or above the floor: nothing to move.
    if (!conditionFailed(err)) throw err;
  });
}
