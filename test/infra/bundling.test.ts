/**
 * The bundles as they ship (infra/bundling.ts, the options CDK and the bench share): `node:http`
 * reaches them through shared/runtime/node-http.ts, so loading a handler does not load Node's
 * undici (20-25 ms of every cold start, bench §3), and the webhook sender still gets the real
 * `http.request`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES, ESBUILD_OPTIONS } from '../../infra/bundling';

const root = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'brigade-bundling-'));
  // The bundles leave the SDK out: they find it in the project's node_modules, as the runtime's.
  await symlink(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function bundle(entry: string, alias: Record<string, string> = BUNDLE_ALIASES): Promise<string> {
  const outfile = join(dir, `${entry.replace(/\W/g, '_')}${Object.keys(alias).length}.mjs`);
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    outfile,
    ...ESBUILD_OPTIONS,
    alias,
    logLevel: 'silent',
  });
  return outfile;
}

/** Imports the bundle in a fresh Node and reports whether undici was loaded, and what `check` prints. */
function load(file: string, check = ''): { undici: boolean; out: string } {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); ${check}
console.log(JSON.stringify({ undici: process.moduleLoadList.some((x) => x.includes('undici')) }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, AWS_REGION: 'eu-north-1', TABLE_NAME: 't', DELIVERY_QUEUE_URL: 'q', DELIVERY_DLQ_URL: 'd' } });
  expect(run.status, run.stderr.trim().split('\n').at(-1)).toBe(0);
  const lines = run.stdout.trim().split('\n');
  return { undici: (JSON.parse(lines.at(-1)!) as { undici: boolean }).undici, out: lines.slice(0, -1).join('\n') };
}

describe('handler bundles', () => {
  it('load without Node\'s undici; without the alias the same handler loads it (the test can tell)', async () => {
    expect(load(await bundle('functions/coursings/list.ts')).undici).toBe(false);
    expect(load(await bundle('functions/coursings/list.ts', {})).undici).toBe(true);
  });

  it('give the webhook sender the real http.request and middy its status texts', async () => {
    const file = await bundle('functions/pipeline/delivery.ts');
    const { undici, out } = load(file, 'console.log(typeof m.handler);');
    expect(out).toBe('function');
    expect(undici).toBe(false);
    const shim = await import('../../shared/runtime/node-http');
    const http = await import('node:http');
    expect(shim.request).toBe(http.request);
    expect(shim.STATUS_CODES[404]).toBe('Not Found');
  });
});
