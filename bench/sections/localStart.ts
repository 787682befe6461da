/**
 * §4 Local stage start: `npm start` as a newcomer runs it (a fresh in-memory DynamoDB Local, table,
 * seed, server) until GET /live answers 200. Median of a few starts; each is stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../bin/local/dynamodb';
import { median } from '../lib/stats';

export const START_BUDGET_MS = 15_000;
export const START_RUNS = 3;

async function oneStart(root: string): Promise<number> {
  const port = await freePort();
  const localDir = mkdtempSync(join(tmpdir(), 'brigade-bench-start-'));
  const started = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PORT: String(port), LOCAL_DIR: localDir },
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      if (performance.now() - started > 4 * START_BUDGET_MS) throw new Error('no answer from /live within 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}/live`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(localDir, { recursive: true, force: true });
  }
}

export async function localStart(root: string): Promise<{ runs: number[]; median: number }> {
  const runs: number[] = [];
  for (let i = 0; i < START_RUNS; i++) runs.push(await oneStart(root));
  return { runs, median: median(runs) };
}
