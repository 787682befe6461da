/**
 * §11 Proof (docs/testing.md): the machinery that sweeps every route, run by the bench so its figures sit
 * in the report beside the budgets: the fuzz and the tenancy / permission sweeps (the api suite's
 * two files, against a local stage the api project's setup starts), and the fault scenarios
 * (`npm run faults`). Each writes its counts to `.local/` as it does under `npm test`; this section
 * runs them in child processes and reads those counts back, only if written by this run.
 *
 *   npx tsx bench/sections/proof.ts     (this section alone)
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaultCounts } from '../../test/support/fault-log';
import { table, type Verdict } from '../lib/md';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const local = (name: string) => join(root, '.local', name);

interface Run {
  command: string;
  code: number | null;
  seconds: number;
  /** The run's last lines (Vitest's summary and the project's own). */
  tail: string;
}

/** Vitest in a child process (nice'd: the bench's other sections are done by now, but the machine may be shared). */
function vitest(args: readonly string[]): Promise<Run> {
  const command = `vitest run ${args.join(' ')}`;
  const started = performance.now();
  return new Promise((ok, fail) => {
    const child = spawn('npx', ['vitest', 'run', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let out = '';
    const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', fail);
    child.on('close', (code) =>
      ok({
        command,
        code,
        seconds: (performance.now() - started) / 1000,
        tail: out
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('npm warn'))
          .slice(-40)
          .join('\n'),
      }),
    );
  });
}

/** A JSON record of `.local/` written after `since` (epoch ms), else undefined. */
function freshJson<T>(file: string, since: number): T | undefined {
  return existsSync(file) && statSync(file).mtimeMs >= since
    ? (JSON.parse(readFileSync(file, 'utf8')) as T)
    : undefined;
}

export interface FuzzCounts {
  seed: number;
  routes: number;
  requests: number;
  refused: number;
  fiveXX: number;
  faults: number;
  stateChanges: number;
}
export interface SweepCounts {
  swept: number;
  tenancy: number;
  permission: number;
  location: number;
  sanity: number;
  leaks: number;
  missing404s: number;
  missing403s: number;
  writes: number;
}
/** A fault scenario's record (test/support/fault-log.ts), with the file that wrote it. */
export type FaultRecord = FaultCounts & { file: string; scenario: string };

export interface ProofResult {
  apiRun: Run;
  faultRun: Run;
  fuzz: FuzzCounts | undefined;
  sweeps: SweepCounts | undefined;
  faults: FaultRecord[];
}

export async function proof(): Promise<ProofResult> {
  const since = Date.now();
  const apiRun = await vitest(['--project', 'api', 'test/api/fuzz.test.ts', 'test/api/sweeps.test.ts']);
  const faultRun = await vitest(['--config', 'vitest.faults.config.ts']);
  const faultsDir = local('faults');
  const faults = existsSync(faultsDir)
    ? readdirSync(faultsDir)
        .filter((f) => f.endsWith('.json'))
        .flatMap((f) => {
          const record = freshJson<Omit<FaultRecord, 'file'>>(join(faultsDir, f), since);
          return record ? [{ file: `test/faults/${f.replace(/\.json$/, '.test.ts')}`, ...record }] : [];
        })
    : [];
  return {
    apiRun,
    faultRun,
    fuzz: freshJson<FuzzCounts>(local('fuzz.json'), since),
    sweeps: freshJson<SweepCounts>(local('sweeps.json'), since),
    faults,
  };
}

/** [check, budget, measured, verdict] rows for the summary. */
export function proofChecks(p: ProofResult): [string, string, string, Verdict][] {
  const rows: [string, string, string, Verdict][] = [];
  const f = p.fuzz;
  rows.push([
    '§11 Fuzz of every route',
    '0 answers 5xx, 0 wrong answers, 0 state changes on refusals',
    f
      ? `${f.requests} requests to ${f.routes} routes (${f.refused} refused): ${f.fiveXX} × 5xx, ${f.faults} wrong, ${f.stateChanges} state changes; seed ${f.seed}`
      : `no counts (exit ${p.apiRun.code})`,
    f && p.apiRun.code === 0 && f.fiveXX === 0 && f.faults === 0 && f.stateChanges === 0 ? 'PASS' : 'FAIL',
  ]);
  const s = p.sweeps;
  rows.push([
    '§11 Tenancy and permission sweeps',
    '0 leaks, 0 missing 404s, 0 missing 403s, 0 writes',
    s
      ? `${s.swept} routes (tenancy ${s.tenancy}, permission ${s.permission}, location ${s.location}, sanity ${s.sanity}): ${s.leaks} leaks, ${s.missing404s} missing 404s, ${s.missing403s} missing 403s, ${s.writes} writes`
      : `no counts (exit ${p.apiRun.code})`,
    s && p.apiRun.code === 0 && s.leaks + s.missing404s + s.missing403s + s.writes === 0 ? 'PASS' : 'FAIL',
  ]);
  for (const x of p.faults) {
    rows.push([
      `§11 Fault: ${x.scenario}`,
      "every acknowledged write stored whole, each stored write's event delivered once by webhook-id, none of an unstored one",
      `${x.sent} sent, ${x.acknowledged} acknowledged, ${x.refused} refused 503, ${x.lost} unanswered; ${x.stored} stored, ${x.delivered} delivered once (${x.arrivals} arrivals); ${x.lostToDynamoDbLocal} in DynamoDB Local's kill window`,
      p.faultRun.code === 0 ? 'PASS' : 'FAIL',
    ]);
  }
  if (p.faults.length < 2)
    rows.push([
      '§11 Fault scenarios',
      'both scenarios ran and recorded their counts',
      `${p.faults.length} recorded (exit ${p.faultRun.code})`,
      'FAIL',
    ]);
  return rows;
}

export function proofMarkdown(p: ProofResult): string[] {
  return [
    'The fuzz and the sweeps run as `npm test` runs them (10 cases per route, seed 15001), against a local stage of their own; the',
    'fault scenarios as `npm run faults` runs them. What each proves and how: docs/testing.md ("The fuzz", "Sweeps over the route',
    'table", "Faults"). Their counts come from the files they write in `.local/`, read only if this run wrote them.',
    '',
    table(
      ['Run', 'Exit', 'Took'],
      [p.apiRun, p.faultRun].map((r) => [`\`${r.command}\``, String(r.code), `${r.seconds.toFixed(1)} s`]),
    ),
    '',
    ...[p.apiRun, p.faultRun]
      .filter((r) => r.code !== 0)
      .flatMap((r) => [`Last lines of \`${r.command}\`:`, '', '```', r.tail, '```', '']),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const p = await proof();
  for (const row of proofChecks(p)) console.log(row.join(' | '));
  for (const line of proofMarkdown(p)) console.log(line);
}
