/**
 * API suite: one local stage (fresh in-memory DynamoDB Local, seeded) on a free port, and the records
 * of the routes the suite called (test/support/route-log.ts) and of the DynamoDB calls each route's
 * handler made (test/support/dynamo-log.ts), which the api-coverage project checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { DevKeys } from '../../bin/local/seed';
import { startLocalStage } from '../../bin/local/stage';
import { recordDynamoCalls } from './dynamo-log';
import { recordRoutes } from './route-log';

declare module 'vitest' {
  export interface ProvidedContext {
    devKeys: DevKeys;
    /** The stage's database, for fixtures a test cannot make over HTTP. */
    stageDatabase: { endpoint: string; tableName: string };
    /** The stage's HS256 secret, so tests can sign bearer tokens of users other than the operator. */
    jwtSecret: string;
    /** The file the route record of the API suite goes to (provided to every project: api-coverage reads it). */
    routeLog: string;
    /** The file the DynamoDB calls of the API suite's requests go to (read by api-coverage). */
    dynamoLog: string;
  }
}

export default async function setup(project: TestProject) {
  const localDir = mkdtempSync(join(tmpdir(), 'brigade-api-'));
  const stage = await startLocalStage({ port: 0, localDir });
  const routeLog = join(localDir, 'route-log.json');
  const dynamoLog = join(localDir, 'dynamo-log.json');
  const port = Number(new URL(stage.devKeys.baseUrl).port);
  const stopRecording = recordRoutes(port, routeLog);
  const stopRecordingCalls = recordDynamoCalls(port, dynamoLog);
  project.vitest.provide('routeLog', routeLog);
  project.vitest.provide('dynamoLog', dynamoLog);
  project.provide('devKeys', stage.devKeys);
  project.provide('stageDatabase', { endpoint: stage.dynamoEndpoint, tableName: stage.tableName });
  project.provide('jwtSecret', process.env.JWT_SECRET!); // startLocalStage put it there
  return async () => {
    stopRecording();
    stopRecordingCalls();
    await stage.stop();
    rmSync(localDir, { recursive: true, force: true });
  };
}
