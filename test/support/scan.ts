/** Every item of the table the data layer is connected to, page by page (a Scan: for assertions about what is stored, never on a request path). */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/data/client';

export async function allItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
