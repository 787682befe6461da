/**
 * The bundles as they ship (infra/bundling.ts, the options CDK and the bench share): `node:http`
 * reaches them through shared/runtime/node-http.ts, so loading a handler does not load Node's
 * undici (20-25 ms of every cold start, bench §3), and the webhook sender still gets the real
 * `http.request`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES, ESBUILD_OPTIONS } from '../../infra/bundling';
import { buildSolverLayer, SOLVER_LAYER_MODULE } from '../../infra/solver-layer';
import { buildTracingLayer, TRACING_LAYER_FILE } from '../../infra/tracing-layer';
import { TRACING_LAYER_MODULE } from '../../shared/runtime/tracing';

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
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'eu-north-1', TABLE_NAME: 't', DELIVERY_QUEUE_URL: 'q', DELIVERY_DLQ_URL: 'd' },
  });
  expect(run.status, run.stderr.trim().split('\n').at(-1)).toBe(0);
  const lines = run.stdout.trim().split('\n');
  return { undici: (JSON.parse(lines.at(-1)!) as { undici: boolean }).undici, out: lines.slice(0, -1).join('\n') };
}

describe('handler bundles', () => {
  it("load without Node's undici; without the alias the same handler loads it (the test can tell)", async () => {
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

/**
 * The tracer lives in the tracing layer (infra/tracing-layer.ts), not in the handlers' bundles:
 * the bundles import it at run time from a path esbuild cannot follow, and only where tracing is on.
 */
describe('tracing', () => {
  const tracerInputs = (inputs: string[]) =>
    inputs.filter((i) => /node_modules\/(@aws-lambda-powertools\/tracer|aws-xray-sdk-core|cls-hooked)\//.test(i));

  it.each(['functions/bookings/create.ts', 'functions/waitlist/accept.ts', 'functions/authorizer.ts'])(
    '%s: the bundle holds none of the Tracer or the X-Ray SDK',
    async (entry) => {
      const result = await build({
        absWorkingDir: root,
        entryPoints: [join(root, entry)],
        outfile: join(dir, 'metafile-only.mjs'),
        write: false,
        metafile: true,
        ...ESBUILD_OPTIONS,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs).toContain('shared/runtime/tracing.ts');
      expect(tracerInputs(inputs)).toEqual([]);
      expect(result.outputFiles[0]!.text).not.toContain('XRaySDKInstrumentation');
    },
  );

  it('builds the layer as the synth does: one ES module with the Tracer, the same bytes each time', async () => {
    const file = buildTracingLayer(join(dir, 'layer-a'));
    expect(file).toBe(join(dir, 'layer-a', TRACING_LAYER_FILE));
    expect(`/opt/${TRACING_LAYER_FILE}`).toBe(TRACING_LAYER_MODULE);
    const bytes = await readFile(file);
    expect(bytes.equals(await readFile(buildTracingLayer(join(dir, 'layer-b'))))).toBe(true);
    expect(bytes.length).toBeGreaterThan(50 * 1024);
    expect(bytes.toString()).toContain('XRaySDKInstrumentation');
  });

  it('a traced bundle loads the layer, answers, and records its DynamoDB call as a subsegment (no X-Ray daemon)', async () => {
    const layer = buildTracingLayer(join(dir, 'layer-run'));
    const file = await bundle('functions/health/ready.ts');
    // DynamoDB's stand-in: every call answers an empty item; the "daemon": a UDP socket that keeps what it gets.
    const dynamo = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}'));
    });
    const daemon = createSocket('udp4');
    const datagrams: string[] = [];
    daemon.on('message', (m) => datagrams.push(m.toString()));
    await new Promise<void>((r) => dynamo.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => daemon.bind(0, '127.0.0.1', r));
    try {
      const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});
const answer = await m.handler({ httpMethod: 'GET', path: '/ready', resource: '/ready', headers: {}, multiValueHeaders: {}, queryStringParameters: null, pathParameters: null, body: null, isBase64Encoded: false, requestContext: { requestId: 'r-1', identity: { sourceIp: '127.0.0.1' } } }, { awsRequestId: 'r-1', functionName: 'brigade-test-ready', getRemainingTimeInMillis: () => 10000 });
const layer = await import(${JSON.stringify(pathToFileURL(layer).href)});
await new Promise((r) => setTimeout(r, 300));
console.log(JSON.stringify({ statusCode: answer.statusCode, body: JSON.parse(answer.body), tracer: typeof layer.Tracer }));`;
      const env = {
        ...process.env,
        AWS_REGION: 'eu-north-1',
        TABLE_NAME: 't',
        DYNAMODB_ENDPOINT: `http://127.0.0.1:${(dynamo.address() as AddressInfo).port}`,
        POWERTOOLS_TRACE_ENABLED: 'true',
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
        BRIGADE_TRACING_MODULE: layer,
        // What Lambda sets for an active trace: the runtime, the handler, the trace header, the daemon.
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_LAMBDA_FUNCTION_NAME: 'brigade-test-ready',
        LAMBDA_TASK_ROOT: dir,
        _HANDLER: 'index.handler',
        _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
        AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
        AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
      };
      const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, env });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
      expect(run.status, run.stderr).toBe(0);
      const out = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
        statusCode: number;
        body: { status: string; dependencies: { database: { status: string; error: unknown } } };
        tracer: string;
      };
      expect(out.tracer).toBe('function');
      expect(out.statusCode).toBe(200);
      expect(out.body.dependencies.database).toMatchObject({ error: null });
      const sent = datagrams.join('\n');
      expect(sent).toContain('"name":"## index.handler"');
      expect(sent).toMatch(/"name":"DynamoDB"[^]*"operation":"GetItem"|"operation":"GetItem"[^]*"name":"DynamoDB"/);
    } finally {
      daemon.close();
      await new Promise((r) => dynamo.close(r));
    }
  });
});

/**
 * HiGHS lives in the solver layer (infra/solver-layer.ts), not in the handlers' bundles:
 * shared/domain/bookings/solver.ts imports it at run time from BRIGADE_SOLVER_MODULE (the layer's
 * module on AWS), a specifier esbuild cannot follow.
 */
describe('solver', () => {
  const highsInputs = (inputs: string[]) => inputs.filter((i) => /node_modules\/highs\//.test(i));

  it.each([
    'functions/bookings/create.ts',
    'functions/bookings/availability.ts',
    'functions/bookings/update.ts',
    'functions/waitlist/offer.ts',
    'shared/domain/bookings/solver.ts',
  ])('%s: the bundle holds none of HiGHS', async (entry) => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [join(root, entry)],
      outfile: join(dir, 'metafile-only.mjs'),
      write: false,
      metafile: true,
      ...ESBUILD_OPTIONS,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    // The handlers hold the solver module (its import of HiGHS left to run time), not HiGHS.
    expect(inputs).toContain('shared/domain/bookings/solver.ts');
    expect(highsInputs(inputs)).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toContain('highs.wasm');
  });

  it('a bundle of the solver module, where no highs package can be found, loads HiGHS from a built layer and solves a 0-1 program; without BRIGADE_SOLVER_MODULE it cannot', async () => {
    // A folder with no node_modules above it: `highs` resolves nowhere, as on Lambda.
    const alone = await mkdtemp(join(tmpdir(), 'brigade-solver-'));
    try {
      const files = buildSolverLayer(join(alone, 'opt'));
      expect(files).toEqual(['brigade-solver/highs.mjs', 'brigade-solver/highs.wasm', 'brigade-solver/LICENSE']);
      expect(SOLVER_LAYER_MODULE).toBe(`/opt/${files[0]}`);
      const bundled = join(alone, 'solver.mjs');
      await build({
        absWorkingDir: root,
        entryPoints: [join(root, 'shared/domain/bookings/solver.ts')],
        outfile: bundled,
        ...ESBUILD_OPTIONS,
        logLevel: 'silent',
      });
      // Two of three items, the middle one excluding both others: the best is the outer two.
      const script = join(alone, 'solve.mjs');
      await writeFile(
        script,
        `const { loadSolver } = await import(${JSON.stringify(pathToFileURL(bundled).href)});
const solver = await loadSolver();
const x = solver.solveBinary({ columns: 3, cost: [-3, -5, -4], rows: [{ columns: [0, 1], lower: 0, upper: 1 }, { columns: [1, 2], lower: 0, upper: 1 }], maxNodes: 100, timeLimitSeconds: 2 });
console.log(JSON.stringify([...x]));`,
      );
      const run = (env: Record<string, string>) =>
        spawnSync(process.execPath, [script], {
          cwd: alone,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, ...env },
        });
      const solved = run({ BRIGADE_SOLVER_MODULE: join(alone, 'opt', files[0]!) });
      expect(solved.status, solved.stderr).toBe(0);
      expect(JSON.parse(solved.stdout.trim())).toEqual([1, 0, 1]);
      const without = run({});
      expect(without.status).not.toBe(0);
      expect(without.stderr).toMatch(/Cannot find package 'highs'/);
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  });
});
