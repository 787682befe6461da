/**
 * API suite: one local stage (fresh in-memory DynamoDB Local, seeded) on a free port; the records
 * of the routes the suite called (test/support/route-log.ts) and of the AWS calls each function of
 * the stage made (test/support/aws-call-log.ts), which the api-coverage project checks; every answer
 * it serves checked against the OpenAPI description (test/support/answer-log.ts); and a loopback
 * door to the stage's webhook pipeline, so that test files (in workers of their own) can await it
 * instead of polling (`settledDelivery` in test/support/http.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { DevKeys } from '../../bin/local/seed';
import { startLocalStage } from '../../bin/local/stage';
import { pipelineDoor } from './pipeline-door';
import { recordAnswers } from './answer-log';
import { db } from '../../shared/data/client';
import { AwsCallLog, recordClient } from './aws-call-log';
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
    /** Base URL of the door to the stage's webhook pipeline (see `pipelineDoor`). */
    pipelineDoor: string;
    /** The folder the AWS calls of the API suite's stage go to (test/support/aws-call-log.ts; read by api-coverage). */
    apiCallLog: string;
    /**
     * The file the answer check of the API suite goes to (test/support/answer-log.ts): read by
     * api-coverage and the summary reporter; kept after the run (.local/answer-check.json).
     */
    answerLog: string;
  }
}

/** Where the answer check's record stays after the run (git-ignored). */
const answerLogDir = new URL('../../.local/', import.meta.url).pathname;

export default async function setup(project: TestProject) {
  const localDir = mkdtempSync(join(tmpdir(), 'brigade-api-'));
  const stage = await startLocalStage({ port: 0, localDir });
  const routeLog = join(localDir, 'route-log.json');
  const apiCallLog = join(localDir, 'aws-calls');
  mkdirSync(apiCallLog);
  const port = Number(new URL(stage.devKeys.baseUrl).port);
  const stopRecording = recordRoutes(port, routeLog);
  // The stage's one data client (SQS and API Gateway are stand-ins in the local stage).
  const calls = AwsCallLog.in(apiCallLog, 'api');
  const stopRecordingCalls = recordClient(db(), calls);
  const answerLog = join(answerLogDir, 'answer-check.json');
  mkdirSync(answerLogDir, { recursive: true });
  const stopCheckingAnswers = recordAnswers(port, answerLog);
  project.vitest.provide('answerLog', answerLog);
  project.vitest.provide('routeLog', routeLog);
  project.vitest.provide('apiCallLog', apiCallLog);
  project.provide('devKeys', stage.devKeys);
  project.provide('stageDatabase', { endpoint: stage.dynamoEndpoint, tableName: stage.tableName });
  project.provide('jwtSecret', process.env.JWT_SECRET!); // startLocalStage put it there
  const door = await pipelineDoor(stage.pipeline);
  project.provide('pipelineDoor', door.url);
  return async () => {
    stopRecording();
    stopRecordingCalls();
    calls.stop();
    stopCheckingAnswers();
    await stage.stop(); // answers the door's waiters (503) before it closes
    await new Promise<void>((ok) => door.server.close(() => ok()));
    rmSync(localDir, { recursive: true, force: true });
  };
}
