import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';

/**
 * One strongly consistent GetItem of a key that never exists: proves the table answers. Raw, not
 * through `sdk()`: the health check reports the SDK's own error (a timeout by its name), which
 * mapping to the contract's 503 would hide.
 */
export async function pingTable(timeoutMs: number): Promise<void> {
  await db().send(
    new GetCommand({ TableName: tableName(), Key: { pk: 'HEALTH', sk: 'HEALTH' }, ConsistentRead: true }),
    {
      abortSignal: AbortSignal.timeout(timeoutMs),
    },
  );
}
