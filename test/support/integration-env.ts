/**
 * Points the data layer of an integration test file at the suite's DynamoDB Local, and records
 * every AWS call the file's document clients make (test/support/aws-call-log.ts) into the suite's
 * call log folder: every client the data layer (or a test) builds with `DynamoDBDocumentClient.from`
 * is recorded, so a test that swaps the client (`setDb`) is still seen. A call is attributed to a
 * function only inside `asFunction` (tests that run a function's entry code); the rest is
 * counted as unattributed.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, inject } from 'vitest';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { AwsCallLog, recordClient } from './aws-call-log';

Object.assign(process.env, { STAGE: 'local', TABLE_NAME: 'brigade-test', DYNAMODB_ENDPOINT: inject('dynamoEndpoint') });
resetConfig();
setDb(undefined);

const calls = AwsCallLog.in(inject('integrationCallLog'), 'integration');
const from = DynamoDBDocumentClient.from.bind(DynamoDBDocumentClient);
DynamoDBDocumentClient.from = (...args: Parameters<typeof DynamoDBDocumentClient.from>) => {
  const client = from(...args);
  recordClient(client, calls);
  return client;
};
afterAll(() => calls.stop());
