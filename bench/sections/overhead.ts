/**
 * §1 Middleware overhead: the full handler (Middy chain + domain call, DynamoDB mocked) against a
 * bare async function that parses the same body and stringifies a response of the same shape.
 * Samples are taken in interleaved batches so drift on a noisy machine hits both alike.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/data/client';
import { route, type OperationId, type Route } from '../../shared/routes';
import { fixtures, type Fixture } from '../fixtures';
import { describeResponse, isOk, type Harness } from '../lib/harness';
import { nowMs, summarize, type Summary } from '../lib/stats';

export const OVERHEAD_ROUTES: OperationId[] = ['listCoursings', 'createCoursing', 'updateCoursing'];
export const OVERHEAD_BUDGET_MS = 0.5;

const WARMUP = 500;
const ROUNDS = 10;
const BATCH = 1_000;

export interface OverheadRow {
  operationId: string;
  handler: Summary;
  baseline: Summary;
  /** The same handler with a plain `send` stub instead of aws-sdk-client-mock (reference only). */
  plain: Summary;
  /** Median handler − median baseline. */
  overhead: number;
  overheadP99: number;
  /** Median plain − median baseline: the chain and domain logic without the mock's cost. */
  plainOverhead: number;
  sendsPerRequest: number;
  /** Key lookups (bcrypt path) while measuring, both handler variants: 0 means every call was warm. */
  keyLookups: number;
  error?: string;
}

export interface OverheadResult {
  rows: OverheadRow[];
  mockSend: Summary;
  settings: { warmup: number; rounds: number; batch: number };
}

let sink: unknown;

/** What the bare function returns: the same status, headers and body shape, nothing else. */
function baselineOf(template: Record<string, unknown>) {
  return async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const input = event.body ? (JSON.parse(event.body) as unknown) : undefined;
    sink = input;
    const requestId = event.requestContext.requestId;
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId },
      body: JSON.stringify({ ...template, meta: { ...(template.meta as object), requestId } }),
    };
  };
}

interface Task {
  op: string;
  kind: 'handler' | 'plain' | 'baseline';
  fixture: Fixture;
  run: () => Promise<APIGatewayProxyResult>;
  samples: number[];
}

async function batch(h: Harness, task: Task, n: number, record: boolean): Promise<number> {
  h.db.use(task.fixture.responders ?? {});
  h.db.resetHistory();
  const before = h.db.keyLookups();
  const loop = async () => {
    for (let i = 0; i < n; i++) {
      const t0 = nowMs();
      const res = await task.run();
      const t1 = nowMs();
      if (record) task.samples.push(t1 - t0);
      sink = res;
    }
  };
  if (task.kind === 'plain') await h.db.withPlainSend(loop);
  else await loop();
  h.db.resetHistory(); // sinon keeps every call; keep the history short
  return h.db.keyLookups() - before;
}

/** Cost of one mocked `send` (a GetItem through the stubbed document client). */
async function mockSendCost(h: Harness): Promise<Summary> {
  h.db.use({ GetItem: () => ({}) });
  const samples: number[] = [];
  for (let r = 0; r < 5; r++) {
    for (let i = 0; i < 2_000; i++) {
      const t0 = nowMs();
      sink = await db().send(new GetCommand({ TableName: 'bench', Key: { pk: 'C#42', sk: 'X' } }));
      if (r > 0) samples.push(nowMs() - t0);
    }
    h.db.resetHistory();
  }
  return summarize(samples);
}

export async function middlewareOverhead(h: Harness): Promise<OverheadResult> {
  const tasks: Task[] = [];
  const meta = new Map<string, { sends: number; error?: string }>();
  for (const op of OVERHEAD_ROUTES) {
    const r: Route = route(op);
    const fixture = fixtures[op];
    if (!fixture) {
      meta.set(op, { sends: 0, error: 'MISSING FIXTURE' });
      continue;
    }
    const handler = await h.handler(r);
    const context = h.context(r);
    h.db.use(fixture.responders ?? {});
    // First call: cold key cache → bcrypt verification; afterwards the cache holds the key.
    await handler(h.event(r, fixture), context);
    h.db.resetHistory();
    const res = await handler(h.event(r, fixture), context);
    const sends = h.db.calls().length;
    h.db.resetHistory();
    if (!isOk(res, fixture.expectStatus)) {
      meta.set(op, { sends, error: `request failed: ${describeResponse(res)}` });
      continue;
    }
    meta.set(op, { sends });
    const template = JSON.parse(res.body) as Record<string, unknown>;
    const baseline = baselineOf(template);
    tasks.push({ op, kind: 'handler', fixture, run: () => handler(h.event(r, fixture), context), samples: [] });
    tasks.push({ op, kind: 'plain', fixture, run: () => handler(h.event(r, fixture), context), samples: [] });
    tasks.push({ op, kind: 'baseline', fixture, run: () => baseline(h.event(r, fixture)), samples: [] });
  }

  for (const t of tasks) await batch(h, t, WARMUP, false);
  const lookups = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round so no task always runs right after another's garbage.
    for (let i = 0; i < tasks.length; i++) {
      const t = tasks[(i + round) % tasks.length]!;
      const n = await batch(h, t, BATCH, true);
      if (t.kind !== 'baseline') lookups.set(t.op, (lookups.get(t.op) ?? 0) + n);
    }
  }
  const mockSend = await mockSendCost(h);

  const rows: OverheadRow[] = OVERHEAD_ROUTES.map((op) => {
    const m = meta.get(op)!;
    const hs = tasks.find((t) => t.op === op && t.kind === 'handler');
    const ps = tasks.find((t) => t.op === op && t.kind === 'plain');
    const bs = tasks.find((t) => t.op === op && t.kind === 'baseline');
    const handler = summarize(hs?.samples ?? []);
    const plain = summarize(ps?.samples ?? []);
    const baseline = summarize(bs?.samples ?? []);
    return {
      operationId: op,
      handler,
      plain,
      baseline,
      overhead: handler.median - baseline.median,
      overheadP99: handler.p99 - baseline.p99,
      plainOverhead: plain.median - baseline.median,
      sendsPerRequest: m.sends,
      keyLookups: lookups.get(op) ?? 0,
      ...(m.error ? { error: m.error } : {}),
    };
  });
  void sink;
  return { rows, mockSend, settings: { warmup: WARMUP, rounds: ROUNDS, batch: BATCH } };
}

/** `npx tsx bench/sections/overhead.ts` prints §1 alone (the same settings as bench/run.ts). */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.STAGE = 'local';
  process.env.TABLE_NAME = 'bench';
  delete process.env.DYNAMODB_ENDPOINT;
  process.env.AWS_REGION ??= 'eu-north-1';
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const { resetConfig } = await import('../../shared/config');
  resetConfig();
  const { createHarness } = await import('../lib/harness');
  const harness = await createHarness(resolve(dirname(fileURLToPath(import.meta.url)), '../..'));
  const result = await middlewareOverhead(harness);
  harness.db.restore();
  const ms = (v: number) => `${v.toFixed(3)} ms`;
  const lines = [
    '## 1. Middleware overhead per request',
    '',
    '| Operation | Handler median | Baseline median | Overhead (plain stub) | Overhead (mock) | Handler p99 |',
    '| --- | --- | --- | --- | --- | --- |',
    ...result.rows.map((r) =>
      r.error
        ? `| \`${r.operationId}\` | ${r.error} | | | | |`
        : `| \`${r.operationId}\` | ${ms(r.handler.median)} | ${ms(r.baseline.median)} | ${ms(r.plainOverhead)} | ${ms(r.overhead)} | ${ms(r.handler.p99)} |`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
