/**
 * Faults, the stage (docs/testing.md): the local stage's process group (Node and its DynamoDB Local) is
 * killed with SIGKILL in the middle of a burst of writes, then started again on the same DATA_DIR.
 *
 * Every acknowledged write is there, whole; a write that got no answer is either whole or absent;
 * and after the restart every stored guest's `guest.created` reaches the subscriber under exactly
 * one webhook-id, none for a guest that is not stored (the pipeline reads the stream from its start
 * again, and its delivery records make that harmless). The restarted stage proves "nothing more
 * comes" by draining its pipeline, then the receiver is counted.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DevKeys } from '../../bin/local/seed';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../shared/errors';
import { Receiver, burstOfGuests, createGuest, expectNothingLostAfter, subscribeToGuests } from '../support/faults';

interface Served {
  baseUrl: string;
  dynamoEndpoint: string;
  tableName: string;
  devKeys: DevKeys;
}

let dir: string;
/** Each start of the stage records its AWS calls in a file of its own (test/faults/iam-check.test.ts checks them). */
let starts = 0;
const receiver = new Receiver();
const running = new Set<ChildProcessWithoutNullStreams>();

/** Starts test/support/stage-process.ts in a process group of its own; resolves once it serves. */
async function startStage() {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('../support/stage-process.ts', import.meta.url).pathname],
    {
      detached: true,
      env: {
        ...process.env,
        DATA_DIR: join(dir, 'data'),
        LOCAL_DIR: dir,
        WEBHOOK_BACKOFF_SCALE: '0.00002',
        WEBHOOK_TIMEOUT_MS: '2000',
        AWS_CALL_LOG: join(inject('faultsCallLog'), `stage-killed-${process.pid}-${++starts}.json`),
      },
    },
  );
  running.add(child);
  let errors = '';
  child.stderr.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const next = async (): Promise<string> => {
    const line = await Promise.race([lines.next(), exited.then(() => ({ done: true, value: undefined }))]);
    if (line.done) throw new Error(`the stage process ended (${child.exitCode ?? child.signalCode}): ${errors}`);
    return line.value as string;
  };
  // The first line that is the stage's JSON (a dependency may print a line of its own before it).
  let served: Served | undefined;
  while (!served) {
    const line = await next();
    if (line.startsWith('{"baseUrl"')) served = JSON.parse(line) as Served;
  }
  return {
    ...served,
    /** Resolves when the stage's webhook pipeline has nothing left to do. */
    drained: async () => {
      child.stdin.write('drained\n');
      expect(await next()).toBe('drained');
    },
    /** SIGKILL to the whole group: Node and its Java, at once, as a crash or a pulled plug would. */
    kill: async () => {
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
      running.delete(child);
    },
    /** A clean stop (stdin closed), waited for. */
    stop: async () => {
      child.stdin.end();
      await exited;
      running.delete(child);
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brigade-faults-stage-'));
  await receiver.start();
});

afterAll(async () => {
  for (const child of running) process.kill(-child.pid!, 'SIGKILL');
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the local stage killed with SIGKILL mid-burst, restarted on the same DATA_DIR', () => {
  it("keeps every acknowledged write whole and delivers each stored write's event exactly once", {
    timeout: 300_000,
  }, async () => {
    let stage = await startStage();
    const admin = stage.devKeys.companies[0]!.keys.admin;
    const companyId = stage.devKeys.companies[0]!.companyId;
    await subscribeToGuests(stage.baseUrl, admin, receiver.url);

    let killed = false;
    const firstBaseUrl = stage.baseUrl;
    const burst = await burstOfGuests({
      baseUrl: () => firstBaseUrl,
      key: admin,
      tag: 'kill',
      total: 80,
      concurrency: 8,
      faultAfter: 20,
      fault: async () => {
        await stage.kill();
        killed = true;
      },
    });
    expect(killed).toBe(true);
    // Requests cut off by the kill have no answer; any answer given was a success or the contract's 503.
    expect(burst.outcomes.filter((o) => o.kind === 'lost').length).toBeGreaterThan(0);
    for (const o of burst.outcomes.filter((x) => x.kind === 'refused')) {
      expect(o, o.email).toMatchObject({
        status: 503,
        code: 'UNAVAILABLE',
        retryAfter: String(UNAVAILABLE_RETRY_AFTER_SECONDS),
      });
    }

    // The same data directory, a new process: the seed is not repeated, the keys still work.
    stage = await startStage();
    expect(stage.devKeys.companies[0]!.keys.admin).toBe(admin);
    const after = await createGuest(stage.baseUrl, admin, 'burst-kill-after@faults.example', 'After The Kill');
    expect(after.kind).toBe('acknowledged');

    await stage.drained();
    try {
      const scenario = 'the stage killed (SIGKILL) mid-burst, restarted on its DATA_DIR';
      await expectNothingLostAfter({
        file: import.meta.url,
        scenario,
        endpoint: stage.dynamoEndpoint,
        tableName: stage.tableName,
        companyId,
        tag: 'kill',
        burst,
        after,
        receiver,
      });
    } finally {
      await stage.stop();
    }
  });
});
