/**
 * `npm start` as a newcomer runs it: /ready answers 503 from the moment the stage listens until it
 * serves whole (seeded, dev-keys.json written), then 200; it serves /live, writes dev-keys.json as
 * the contract describes (docs/decisions.md, “The local stage”), and leaves no Java process behind when stopped. How fast it starts (budget
 * 15 s) is measured by `npm run bench`, not asserted here: these machines are noisy.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bin/local/dynamodb';

const localDir = mkdtempSync(join(tmpdir(), 'brigade-start-'));
afterAll(() => rmSync(localDir, { recursive: true, force: true }));

/**
 * The processes of a process group that still run, from Linux's /proc: `pid (name)` each. A process
 * that is ending does not count: one that has closed all its files (the kernel does that before it
 * marks the process a zombie) or a zombie (ended, waiting for its parent, e.g. init, to reap it).
 */
function runningInGroup(pgid: number): string[] {
  const running: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (name) state ppid pgrp …"; the name may hold spaces and parentheses.
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) !== pgid || state === 'Z' || state === 'X' || readdirSync(`/proc/${pid}/fd`).length === 0)
        continue;
      running.push(`${pid} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)}`);
    } catch {
      continue; // ended meanwhile
    }
  }
  return running;
}

/**
 * `npm start` in a process group of its own (so the test can see every process it started: npm,
 * tsx, node, java), and the moments the test awaits: the line the stage prints once it listens
 * (before it seeds), the banner it prints once it serves, and the end of npm with every output of
 * the group closed.
 */
function startStage(port: number) {
  const child = spawn('npm', ['start'], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), LOCAL_DIR: localDir },
  });
  let output = '';
  /** Resolves with the URL of the first stdout line that `line` matches; fails if npm ends first. */
  const printed = (line: RegExp) => {
    const seen = new Promise<string>((ok, fail) => {
      child.stdout.on('data', () => {
        const match = line.exec(output);
        if (match) ok(match[1]!);
      });
      child.once('exit', (code) => fail(new Error(`npm start ended (${code}) before it printed ${line}: ${output}`)));
    });
    seen.catch(() => undefined); // awaited below; a failure after the line is not this promise's
    return seen;
  };
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const listening = printed(/^Listening at (\S+);/m);
  const serving = printed(/serving at (\S+)/);
  const closed = new Promise<void>((ok) => child.once('close', () => ok()));
  return { pid: child.pid!, listening, serving, closed };
}

interface ReadyAnswer {
  status: number;
  /** Whether dev-keys.json existed when the request was sent, and when its answer had come. */
  keysWhenAsked: boolean;
  keysWhenAnswered: boolean;
}

/** GET /ready again and again, each as soon as the last one answered, until one answers 200. */
async function readyUntilServing(baseUrl: string, keysPath: string): Promise<ReadyAnswer[]> {
  const answers: ReadyAnswer[] = [];
  for (;;) {
    const keysWhenAsked = existsSync(keysPath);
    const out = await fetch(`${baseUrl}/ready`);
    await out.arrayBuffer();
    answers.push({ status: out.status, keysWhenAsked, keysWhenAnswered: existsSync(keysPath) });
    if (out.status === 200) return answers;
  }
}

describe('npm start', () => {
  // A whole start (operation modules, DynamoDB Local's JVM, the seed) on a shared 2-core machine: a generous net, not a budget.
  it('answers /ready 503 until it serves, then 200; serves /live, writes dev-keys.json per the contract, and stops cleanly on SIGTERM', {
    timeout: 180_000,
  }, async () => {
    const port = await freePort();
    const stage = startStage(port);
    const keysPath = join(localDir, 'dev-keys.json');
    try {
      // It listens before it seeds: from that moment /ready must say 503 until the keys file exists.
      expect(await stage.listening).toBe(`http://127.0.0.1:${port}`);
      const answers = await readyUntilServing(`http://127.0.0.1:${port}`, keysPath);
      const whileSeeding = answers.filter((a) => !a.keysWhenAnswered);
      expect(whileSeeding.length, 'answers before the keys file existed').toBeGreaterThan(0);
      expect(new Set(whileSeeding.map((a) => a.status))).toEqual(new Set([503]));
      // 200 only with the keys file there; and once it is there when asked, 200 at once (a request
      // already on its way when the file was written may answer either).
      expect(answers.at(-1)).toEqual({ status: 200, keysWhenAsked: expect.any(Boolean), keysWhenAnswered: true });
      expect(answers.filter((a) => a.keysWhenAsked && a.status !== 200)).toEqual([]);
      // The banner comes once the stage is whole: it listens, and the seed wrote dev-keys.json.
      expect(await stage.serving).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/live`)).ok).toBe(true);
      const devKeys = JSON.parse(readFileSync(keysPath, 'utf8'));
      expect(devKeys).toEqual({
        baseUrl: `http://127.0.0.1:${port}`,
        operatorToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
        companies: [expect.anything(), expect.anything()],
      });
      for (const c of devKeys.companies) {
        expect(c).toEqual({
          companyId: expect.any(Number),
          name: expect.any(String),
          locations: expect.any(Array),
          keys: expect.any(Object),
        });
        expect(Object.keys(c.keys).sort()).toEqual(['admin', 'premium', 'readonly', 'standard']);
        for (const key of Object.values(c.keys)) expect(key).toMatch(/^brigade_dev_[a-z0-9]{12}_[A-Za-z0-9]{40}$/);
        expect(c.locations.length).toBeGreaterThanOrEqual(1);
        for (const l of c.locations) {
          expect(l).toEqual({
            locationId: expect.any(Number),
            name: expect.any(String),
            timezone: expect.any(String),
            tables: expect.any(Array),
          });
          expect(l.tables.length).toBeGreaterThanOrEqual(8);
          for (const t of l.tables)
            expect(t).toEqual({
              id: expect.stringMatching(/^[0-9a-f-]{36}$/),
              name: expect.any(String),
              minCapacity: expect.any(Number),
              maxCapacity: expect.any(Number),
            });
          expect(new Set(l.tables.map((t: { maxCapacity: number }) => t.maxCapacity)).size).toBeGreaterThan(2);
        }
      }
      expect(devKeys.companies[0].companyId).toBe(1);
      expect(devKeys.companies[0].locations[0]).toMatchObject({ locationId: 101, timezone: 'Europe/Stockholm' });

      // Each key's tier shows in its limit header; readonly may read but not write.
      const limitOf = async (key: string) =>
        (await fetch(`${devKeys.baseUrl}/api/v1/coursings`, { headers: { 'X-API-Key': key } })).headers.get(
          'x-ratelimit-limit',
        );
      const keys = devKeys.companies[0].keys;
      expect(await limitOf(keys.admin)).toBe('100000');
      expect(await limitOf(keys.readonly)).toBe('1000');
      expect(await limitOf(keys.standard)).toBe('1000');
      expect(await limitOf(keys.premium)).toBe('10000');
      const write = await fetch(`${devKeys.baseUrl}/api/v1/coursings`, {
        method: 'POST',
        headers: { 'X-API-Key': keys.readonly, 'Content-Type': 'application/json' },
        body: '{"locationId":101,"title":"x","order":1}',
      });
      expect(write.status).toBe(403);
    } finally {
      try {
        process.kill(-stage.pid, 'SIGTERM');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err; // already ended (a failed start): the test's own error tells why
      }
    }
    // The group's output closes once every process holding it (npm, sh, tsx, node) has closed its
    // files, i.e. is ending; the stage's node ends only after DynamoDB Local's JVM has ended (and
    // reaps it). So nothing of the group may still run, the JVM least of all.
    await stage.closed;
    expect(runningInGroup(stage.pid)).toEqual([]);
  });
});
