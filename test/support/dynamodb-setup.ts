/**
 * Integration suite: one DynamoDB Local (in memory) with the table, shared by every test file, and
 * the built-in permission catalog in it, as a deployed stage has it from its deploy (files that
 * make companies need their system roles' permissions; seeding races between files would give
 * the built-ins ids out of key order); and a folder for the files' records of AWS calls.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureTable, startDynamoDbLocal } from '../../bin/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** The folder the integration files' AWS calls go to (test/support/aws-call-log.ts; provided to every project: api-coverage checks it). */
    integrationCallLog: string;
  }
}

export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  await ensureTable(dynamo.endpoint, 'brigade-test');
  execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./seed-catalog.ts', import.meta.url))], {
    env: { ...process.env, STAGE: 'local', TABLE_NAME: 'brigade-test', DYNAMODB_ENDPOINT: dynamo.endpoint },
    stdio: 'inherit',
  });
  project.provide('dynamoEndpoint', dynamo.endpoint);
  const callLog = mkdtempSync(join(tmpdir(), 'brigade-integration-calls-'));
  project.vitest.provide('integrationCallLog', callLog);
  return async () => {
    await dynamo.stop();
    rmSync(callLog, { recursive: true, force: true });
  };
}
