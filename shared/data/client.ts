import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';

let client: DynamoDBDocumentClient | undefined;

/** The process-wide document client (created on first use, reused across invocations). */
export function db(): DynamoDBDocumentClient {
  if (!client) {
    const { region, dynamoEndpoint } = config();
    const base = new DynamoDBClient({
      region,
      maxAttempts: 3,
      ...(dynamoEndpoint
        ? { endpoint: dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : {}),
    });
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

/** Replace the client (tests and the local stage, after the endpoint changes). */
export function setDb(next: DynamoDBDocumentClient | undefined): void {
  client = next;
}

export const tableName = (): string => config().tableName;
