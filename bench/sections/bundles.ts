/**
 * §3 Handler bundles: each route's handler file bundled the way a Lambda would ship it (esbuild,
 * ESM, node22, minified, @aws-sdk/* external), then imported in fresh Node processes to time
 * module initialisation. The SDK is external, so its load time is part of the init figure.
 */
import { spawn } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { ESBUILD_OPTIONS } from '../../infra/bundling';
import { routes, type Route } from '../../shared/routes';
import { median } from '../lib/stats';

export const BUNDLE_BUDGET_BYTES = 400 * 1024;

/**
 * The handler files allowed past BUNDLE_BUDGET_BYTES, each with a ceiling of its own and the
 * reason (this is the only place; docs/benchmarks.md).
 */
export const BUNDLE_BUDGET_EXEMPTIONS: Readonly<Record<string, { bytes: number; reason: string }>> = {
  'functions/openapi/scalar.ts': {
    bytes: 2 * 1024 * 1024,
    reason:
      "GET /docs/scalar.js answers Scalar's standalone browser bundle (megabytes of JavaScript), held gzipped in the function because the docs page loads nothing from a CDN (docs/docs-page.md); it reads no data and only the docs page asks for it",
  },
};

/** The size a handler file's bundle must stay within: the budget, or its exemption's ceiling. */
export const bundleBudgetOf = (handler: string): number =>
  BUNDLE_BUDGET_EXEMPTIONS[handler]?.bytes ?? BUNDLE_BUDGET_BYTES;
export const INIT_BUDGET_MS = 60;
export const INIT_RUNS = 5;

export interface Contributor {
  name: string;
  bytes: number;
}

export interface BundleRow {
  handler: string;
  operations: string[];
  bytes: number;
  initRuns: number[];
  initMedian: number;
  /** Init with the external SDK packages imported (untimed) first: the bundle's own code only. */
  ownRuns: number[];
  ownMedian: number;
  contributors: Contributor[];
  externals: string[];
  error?: string;
}

export interface BundlesResult {
  rows: BundleRow[];
  /** Importing only the SDK packages the bundles leave external, in a fresh process. */
  sdkOnly: { runs: number[]; median: number; error?: string };
  /** `await import()` of an empty module: the floor of the measurement. */
  emptyModule: { runs: number[]; median: number; error?: string };
  node: string;
}

/** functions/coursings/list.ts → functions__coursings__list.mjs */
const bundleName = (handler: string) => `${handler.replace(/\.ts$/, '').replace(/[\\/]/g, '__')}.mjs`;

/** `node_modules/@scope/pkg/…` → `@scope/pkg`; project files → `(project) shared/…` by folder. */
function packageOf(input: string): string {
  const i = input.lastIndexOf('node_modules/');
  if (i < 0) {
    const parts = input.split('/');
    return `(project) ${parts.slice(0, Math.min(2, parts.length - 1)).join('/') || input}`;
  }
  const rest = input.slice(i + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

function contributors(meta: Metafile, outFile: string): Contributor[] {
  const out = Object.entries(meta.outputs).find(([k]) => outFile.endsWith(k) || k.endsWith(basename(outFile)));
  if (!out) return [];
  const by = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(out[1].inputs)) {
    const name = packageOf(input);
    by.set(name, (by.get(name) ?? 0) + bytesInOutput);
  }
  return [...by.entries()].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** Environment for the child: no tsx loader or inspector flags from the parent. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (k !== 'NODE_OPTIONS' && !k.startsWith('TSX')) env[k] = v;
  return { ...env, STAGE: 'local', TABLE_NAME: 'bench' };
}

const IMPORT_SCRIPT = `
const specs = process.argv.slice(1);
for (const p of (process.env.BENCH_PRELOAD || '').split(',').filter(Boolean)) await import(p);
const t0 = performance.now();
for (const s of specs) await import(s);
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms }));
`;

/** Imports the specifiers in a fresh `node` and returns the import duration in ms (after untimed preloads). */
function timeImport(root: string, specifiers: string[], preload: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', IMPORT_SCRIPT, ...specifiers], {
      cwd: root,
      env: { ...childEnv(), BENCH_PRELOAD: preload.join(',') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /\{"ms":[^}]+\}/.exec(out);
      if (code === 0 && m) resolve((JSON.parse(m[0]) as { ms: number }).ms);
      else
        reject(
          new Error(
            `import failed (exit ${code}): ${err.trim().split('\n').slice(0, 3).join(' / ') || out.slice(0, 200)}`,
          ),
        );
    });
  });
}

export async function bundles(root: string): Promise<BundlesResult> {
  const outDir = await mkdtemp(join(tmpdir(), 'brigade-bench-'));
  try {
    return await measure(root, outDir);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

async function measure(root: string, outDir: string): Promise<BundlesResult> {
  // ESM resolves bare specifiers from the importing file's folder, not from the cwd: a link to the
  // project's node_modules lets the bundles in the temp dir find the external @aws-sdk packages.
  await symlink(join(root, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  await mkdir(join(outDir, 'out'));

  const byFile = new Map<string, string[]>();
  for (const r of routes as readonly Route[]) byFile.set(r.handler, [...(byFile.get(r.handler) ?? []), r.operationId]);

  const rows: BundleRow[] = [];
  for (const [handler, operations] of byFile) {
    const outFile = join(outDir, 'out', bundleName(handler));
    const row: BundleRow = {
      handler,
      operations,
      bytes: 0,
      initRuns: [],
      initMedian: Number.NaN,
      ownRuns: [],
      ownMedian: Number.NaN,
      contributors: [],
      externals: [],
    };
    try {
      const result = await build({
        absWorkingDir: root,
        entryPoints: [join(root, handler)],
        outfile: outFile,
        ...ESBUILD_OPTIONS,
        metafile: true,
        logLevel: 'silent',
      });
      row.bytes = (await stat(outFile)).size;
      row.contributors = contributors(result.metafile, outFile);
      const out = Object.values(result.metafile.outputs)[0];
      row.externals = [
        ...new Set((out?.imports ?? []).filter((i) => i.external && !isBuiltin(i.path)).map((i) => i.path)),
      ].sort();
    } catch (err) {
      row.error = `bundle failed: ${(err as Error).message.split('\n')[0]}`;
    }
    rows.push(row);
  }

  const sdkSpecs = [...new Set(rows.flatMap((r) => r.externals))];
  const sdkOnly: BundlesResult['sdkOnly'] = { runs: [], median: Number.NaN };
  const emptyFile = join(outDir, 'out', 'empty.mjs');
  await writeFile(emptyFile, 'export {};\n');
  const emptyModule: BundlesResult['emptyModule'] = { runs: [], median: Number.NaN };

  // Round-robin the runs so background noise spreads over all bundles alike.
  for (let run = 0; run < INIT_RUNS; run++) {
    for (const row of rows) {
      if (row.error) continue;
      const url = pathToFileURL(join(outDir, 'out', bundleName(row.handler))).href;
      try {
        row.initRuns.push(await timeImport(root, [url]));
        if (row.externals.length) row.ownRuns.push(await timeImport(root, [url], row.externals));
      } catch (err) {
        row.error = (err as Error).message;
      }
    }
    if (sdkSpecs.length && !sdkOnly.error) {
      try {
        sdkOnly.runs.push(await timeImport(root, sdkSpecs));
      } catch (err) {
        sdkOnly.error = (err as Error).message;
      }
    }
    try {
      emptyModule.runs.push(await timeImport(root, [pathToFileURL(emptyFile).href]));
    } catch (err) {
      emptyModule.error = (err as Error).message;
    }
  }
  for (const row of rows) {
    row.initMedian = row.initRuns.length ? median(row.initRuns) : Number.NaN;
    row.ownMedian = row.ownRuns.length ? median(row.ownRuns) : Number.NaN;
  }
  sdkOnly.median = sdkOnly.runs.length ? median(sdkOnly.runs) : Number.NaN;
  emptyModule.median = emptyModule.runs.length ? median(emptyModule.runs) : Number.NaN;

  const node = await new Promise<string>((resolve) => {
    const c = spawn(process.execPath, ['--version'], { env: childEnv() });
    let v = '';
    c.stdout.on('data', (d: Buffer) => (v += d.toString()));
    c.on('close', () => resolve(v.trim()));
    c.on('error', () => resolve('unknown'));
  });
  return {
    rows,
    sdkOnly: { ...sdkOnly, ...(sdkSpecs.length ? {} : { error: 'no external SDK imports' }) },
    emptyModule,
    node,
  };
}
