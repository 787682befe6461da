/**
 * Faults, the database (docs/testing.md): DynamoDB Local is killed (SIGKILL) in the middle of a burst of
 * writes under a running local stage, then started again on the same port and data directory.
 *
 * While it is down every request that needs it answers 503 `UNAVAILABLE` in the envelope with
 * `Retry-After`, `/ready` and `/health` say unhealthy (503) and `/live` still answers. Once it is
 * back the stage recovers by itself: `/ready` is healthy, writes succeed, and the webhook pipeline
 * resumes. Nothing is lost or half written: every acknowledged guest is stored whole, no stored
 * guest is partial, and each stored guest's `guest.created` reaches the subscriber under exactly
 * one webhook-id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../bin/local/dynamodb';
import type { LocalStage } from '../../bin/local/stage';
import { db } from '../../shared/data/client';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../shared/errors';
import { AwsCallLog, recordClient } from '../support/aws-call-log';
import { Receiver, burstOfGuests, createGuest, expectNothingLostAfter, subscribeToGuests } from '../support/faults';

let dir: string;
let dynamo: DynamoDbLocal;
let stage: LocalStage;
const receiver = new Receiver();
/** The stage's AWS calls (test/faults/iam-check.test.ts checks them after the scenarios). */
let calls: AwsCallLog | undefined;

const admin = () => stage.devKeys.companies[0]!.keys.admin;
const companyId = () => stage.devKeys.companies[0]!.companyId;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${stage.baseUrl}${path}`, {
    method,
    headers: { 'X-API-Key': admin(), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brigade-faults-db-'));
  Object.assign(process.env, { WEBHOOK_BACKOFF_SCALE: '0.00002', WEBHOOK_TIMEOUT_MS: '2000' });
  dynamo = await startDynamoDbLocal({ dataDir: join(dir, 'data') });
  const { startLocalStage } = await import('../../bin/local/stage');
  stage = await startLocalStage({ port: 0, localDir: dir, dynamo });
  calls = AwsCallLog.in(inject('faultsCallLog'), 'database-down');
  recordClient(db(), calls);
  await receiver.start();
}, 300_000); // a JVM and the seed on two shared cores: a net, not a budget

afterAll(async () => {
  await stage?.stop();
  calls?.stop();
  await dynamo?.stop();
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('DynamoDB Local killed under a running stage, then back', () => {
  it('answers 503 with Retry-After while it is down, reports unhealthy, recovers, and loses nothing', {
    timeout: 300_000,
  }, async () => {
    await subscribeToGuests(stage.baseUrl, admin(), receiver.url);

    let down = false;
    const burst = await burstOfGuests({
      baseUrl: () => stage.baseUrl,
      key: admin(),
      tag: 'db',
      total: 60,
      concurrency: 6,
      faultAfter: 15,
      fault: async () => {
        await dynamo.kill();
        down = true;
      },
    });
    expect(down).toBe(true);
    // Every answer is a success or the contract's 503: never a 500, never a hang, never a lost answer.
    for (const o of burst.outcomes) {
      if (o.kind === 'acknowledged') continue;
      expect(o, o.email).toMatchObject({
        kind: 'refused',
        status: 503,
        code: 'UNAVAILABLE',
        retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    }
    expect(burst.outcomes.filter((o) => o.kind === 'refused').length).toBeGreaterThan(0);

    // Down: reads and writes answer 503 with Retry-After; the probes say so; /live does not depend on it.
    for (const [method, path, body] of [
      ['GET', '/api/v1/users/search?q=burst'],
      ['POST', '/api/v1/users/guests', { email: 'while-down@faults.example' }],
    ] as const) {
      const out = await call(method, path, body);
      expect(out, `${method} ${path}`).toMatchObject({
        status: 503,
        retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS),
        body: { error: { code: 'UNAVAILABLE' } },
      });
    }
    const ready = await fetch(`${stage.baseUrl}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'unhealthy',
      dependencies: { database: { status: 'unhealthy', error: expect.any(String) } },
    });
    expect((await fetch(`${stage.baseUrl}/health`)).status).toBe(503);
    expect((await fetch(`${stage.baseUrl}/live`)).status).toBe(200);

    // Back, on the same port and data: the stage needs no restart.
    dynamo = await startDynamoDbLocal({ dataDir: join(dir, 'data'), port: dynamo.port });
    const readyAgain = await fetch(`${stage.baseUrl}/ready`);
    expect(readyAgain.status).toBe(200);
    expect(await readyAgain.json()).toMatchObject({
      dependencies: { database: { status: expect.stringMatching(/^(healthy|degraded)$/) } },
    });
    const after = await createGuest(stage.baseUrl, admin(), 'burst-db-after@faults.example', 'After The Fault');
    expect(after.kind).toBe('acknowledged');
    expect((await call('POST', '/api/v1/users/guests', { email: 'while-down@faults.example' })).status).toBe(200); // the refused write was not half done: it can be made now

    await stage.pipeline.drained();
    await expectNothingLostAfter({
      file: import.meta.url,
      scenario: 'DynamoDB Local killed mid-burst, then back',
      endpoint: dynamo.endpoint,
      tableName: stage.tableName,
      companyId: companyId(),
      tag: 'db',
      burst,
      after,
      receiver,
    });
  });
});
