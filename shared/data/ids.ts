import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { toAppError } from './errors';

/** Kinds of numeric id (decisions.md §9): each has its own platform-wide counter. */
export type IdKind = 'company' | 'location' | 'user' | 'permission' | 'role' | 'item' | 'custom-tag' | 'variant-group' | 'variant' | 'schedule' | 'schedule-rule';

/** The next id of a kind: one atomic ADD, so ids are unique across the platform and never reused. */
export async function nextId(kind: IdKind): Promise<number> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: 'SEQ', sk: kind },
        UpdateExpression: 'ADD v :one SET entity = :e',
        ExpressionAttributeValues: { ':one': 1, ':e': 'SEQUENCE' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes!.v);
  } catch (err) {
    throw toAppError(err);
  }
}

/** Moves a counter forward so the next id is above `floor` (seeded ids stay below it). */
export async function reserveIdsBelow(kind: IdKind, floor: number): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: 'SEQ', sk: kind },
        UpdateExpression: 'SET v = :floor, entity = :e',
        ConditionExpression: 'attribute_not_exists(v) OR v < :floor',
        ExpressionAttributeValues: { ':floor': floor, ':e': 'SEQUENCE' },
      }),
    );
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw toAppError(err);
  }
}
