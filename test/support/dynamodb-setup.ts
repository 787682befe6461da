/** Integration suite: one DynamoDB Local (in memory) with the table, shared by every test file. */
import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoDbLocal } from '../../bin/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  await ensureTable(dynamo.endpoint, 'brigade-test');
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
