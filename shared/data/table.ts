/**
 * The single table's shape. CDK (infra/) and the local stage both build the table from this, so
 * the two can never drift. docs/data-model.md lists what each key serves.
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Overloaded global secondary indexes, projecting everything. */
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  /** Epoch seconds after which DynamoDB deletes the item (rate windows, idempotency, attempts). */
  ttlAttribute: 'ttl',
  /** The outbox pipeline reads new images from the stream. */
  streamView: 'NEW_IMAGE',
} as const;

export type IndexName = (typeof table.indexes)[number]['name'];

export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyAttrs = [table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttrs.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: table.partitionKey, KeyType: 'HASH' },
      { AttributeName: table.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: table.indexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' },
        { AttributeName: i.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: table.streamView },
  };
}
