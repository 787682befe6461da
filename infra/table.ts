/**
 * The single table, built from shared/data/table.ts, the same definition the local stage creates
 * in DynamoDB Local, so the two cannot drift.
 */
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { createTableInput, table } from '../shared/data/table';
import type { Durability } from './settings';

/** Key attribute types exactly as the local stage declares them. */
const keyTypes = new Map(
  (createTableInput('').AttributeDefinitions ?? []).map((a) => [a.AttributeName, a.AttributeType]),
);

function key(name: string): dynamodb.Attribute {
  const type = keyTypes.get(name);
  if (!type) throw new Error(`shared/data/table.ts declares no type for key attribute ${name}`);
  return { name, type: type as dynamodb.AttributeType };
}

export class BrigadeTable extends dynamodb.Table {
  constructor(scope: Construct, id: string, durability: Durability) {
    super(scope, id, {
      partitionKey: key(table.partitionKey),
      sortKey: key(table.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: table.ttlAttribute,
      stream: dynamodb.StreamViewType[table.streamView],
      deletionProtection: durability.deletionProtection,
      removalPolicy: durability.removalPolicy,
    });
    for (const index of table.indexes) {
      this.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }

  /** An index by name: grants need no `index/*` wildcard. */
  indexArn(name: string): string {
    return `${this.tableArn}/index/${name}`;
  }
}
