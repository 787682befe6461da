import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';

/** One strongly consistent GetItem of a key that never exists: proves the table answers. */
export async function pingTable(timeoutMs: number): Promise<void> {
  await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'HEALTH', sk: 'HEALTH' }, ConsistentRead: true }), {
    abortSignal: AbortSignal.timeout(timeoutMs),
  });
}
