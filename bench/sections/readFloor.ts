/**
 * §6 Reads at the round-trip floor (issue 8): a GET by id and a list page over HTTP through the
 * local stage, each against the one raw DynamoDB call that serves it, in one run against ONE
 * DynamoDB Local. The raw call is the very command the handler sends (recorded from the stage's
 * client during a warm-up request), replayed with a DocumentClient of its own on the same endpoint.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand, type GetCommandInput, type QueryCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { startLocalStage } from '../../bin/local/stage';
import { resetConfig } from '../../shared/config';
import { db } from '../../shared/data/client';
import { ms, table } from '../lib/md';
import { nowMs, percentile } from '../lib/stats';

export const FLOOR_BUDGET_RATIO = 1.5;
const WARMUP = 100;
const ROUNDS = 30;
const BLOCK = 10;

export interface Timing {
  median: number;
  p90: number;
  n: number;
}

export interface FloorCase {
  name: string;
  http: string;
  raw: string;
  httpTiming: Timing;
  rawTiming: Timing;
  /** Median over HTTP / median of the raw call. */
  ratio: number;
  /** The raw call and the rate window's UpdateItem sent together (what the stage sends), and the HTTP median over it. */
  pairTiming: Timing;
  pairRatio: number;
  /** The DynamoDB commands the stage sent for one warm request, in order. */
  stageCommands: string[];
}

export interface ReadFloorResult {
  cases: FloorCase[];
  /** The rate window's UpdateItem sent raw, for information: with the overlap, the slower of it and the read sets the floor. */
  rawWindow: Timing;
  settings: { warmup: number; rounds: number; block: number };
  /** 1-minute load average before and after the timed rounds. */
  load: { before: number[]; after: number[] };
}

const timing = (samples: number[]): Timing => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p90: percentile(sorted, 90), n: sorted.length };
};

/** GET over one keep-alive connection; resolves when the whole body has arrived (refuses anything but 200). */
function httpGetter(baseUrl: string, key: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(baseUrl);
  const get = (path: string) =>
    new Promise<string>((ok, fail) => {
      const req = request({ agent, hostname, port, path, method: 'GET', headers: { 'X-API-Key': key } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode === 200) ok(body);
          else fail(new Error(`GET ${path} answered ${res.statusCode}: ${body.slice(0, 200)}`));
        });
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

/** Records the input of every command the stage's document client sends, while `recording` is on. */
function recorder() {
  const sent: { name: string; input: Record<string, unknown> }[] = [];
  let recording = false;
  db().middlewareStack.add(
    (next, context) => (args) => {
      if (recording) sent.push({ name: String(context.commandName), input: structuredClone(args.input as Record<string, unknown>) });
      return next(args);
    },
    { step: 'initialize', name: 'benchRecordCommands' },
  );
  return {
    async during(run: () => Promise<unknown>) {
      sent.length = 0;
      recording = true;
      try {
        await run();
      } finally {
        recording = false;
      }
      return [...sent];
    },
  };
}

/** The one command of the given type among those a request sent; throws unless there is exactly one. */
function theOne(sent: { name: string; input: Record<string, unknown> }[], name: string, what: string): Record<string, unknown> {
  const found = sent.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`${what} sent ${found.length} ${name} (commands: ${sent.map((s) => s.name).join(', ')})`);
  return found[0]!.input;
}

type Run = () => Promise<unknown>;

/** Warm-up, then ROUNDS rounds; each round runs a block of every task in turn, so drift hits all alike. */
async function interleaved(tasks: Run[]): Promise<number[][]> {
  for (const task of tasks) for (let i = 0; i < WARMUP; i++) await task();
  const samples = tasks.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let t = 0; t < tasks.length; t++) {
      for (let i = 0; i < BLOCK; i++) {
        const t0 = nowMs();
        await tasks[t]!();
        samples[t]!.push(nowMs() - t0);
      }
    }
  }
  return samples;
}

const STAGE_ENV = ['STAGE', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'JWT_SECRET', 'INTERNAL_OPERATOR_IDS', 'NO_SHOW_SWEEP_MS'] as const;

export async function readFloor(): Promise<ReadFloorResult> {
  const savedEnv = Object.fromEntries(STAGE_ENV.map((k) => [k, process.env[k]]));
  const localDir = mkdtempSync(join(tmpdir(), 'brigade-bench-floor-'));
  // Only the requests talk to DynamoDB while they are recorded and timed: no no-show sweep, and the
  // webhook pipeline (which polls the stream and the due deliveries) is stopped once the seed is in.
  process.env.NO_SHOW_SWEEP_MS = String(24 * 3600_000);
  const stage = await startLocalStage({ port: 0, localDir });
  await stage.pipeline.stop();
  const raw = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: stage.dynamoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const company = stage.devKeys.companies[0]!;
  // The unlimited tier: 100,000 requests an hour, so the window never refuses during the run.
  const http = httpGetter(stage.baseUrl, company.keys.admin);
  try {
    const locationId = company.locations[0]!.locationId;
    const byIdPath = `/api/v1/locations/${locationId}`;
    const listPath = `/api/v1/locations/${locationId}/tables?limit=20`;
    // A first request of each warms the key cache; the second, warm, is the one recorded.
    await http.get(byIdPath);
    await http.get(listPath);
    const record = recorder();
    const byIdSent = await record.during(() => http.get(byIdPath));
    const listSent = await record.during(() => http.get(listPath));
    const getInput = theOne(byIdSent, 'GetItemCommand', `GET ${byIdPath}`) as unknown as GetCommandInput;
    const queryInput = theOne(listSent, 'QueryCommand', `GET ${listPath}`) as unknown as QueryCommandInput;
    const windowInput = theOne(byIdSent, 'UpdateItemCommand', `GET ${byIdPath}`) as unknown as UpdateCommandInput;

    const tasks: Run[] = [
      () => http.get(byIdPath),
      () => raw.send(new GetCommand(getInput)),
      () => http.get(listPath),
      () => raw.send(new QueryCommand(queryInput)),
      () => raw.send(new UpdateCommand(windowInput)),
      () => Promise.all([raw.send(new GetCommand(getInput)), raw.send(new UpdateCommand(windowInput))]),
      () => Promise.all([raw.send(new QueryCommand(queryInput)), raw.send(new UpdateCommand(windowInput))]),
    ];
    const before = loadavg();
    const [httpGet, rawGet, httpList, rawQuery, rawWindow, getPair, queryPair] = (await interleaved(tasks)).map(timing) as [Timing, Timing, Timing, Timing, Timing, Timing, Timing];
    const after = loadavg();
    const names = (sent: { name: string }[]) => sent.map((s) => s.name.replace(/Command$/, ''));
    return {
      cases: [
        { name: 'GET by id', http: `GET ${byIdPath}`, raw: 'GetItem of the same item', httpTiming: httpGet, rawTiming: rawGet, ratio: httpGet.median / rawGet.median, pairTiming: getPair, pairRatio: httpGet.median / getPair.median, stageCommands: names(byIdSent) },
        { name: 'list page', http: `GET ${listPath}`, raw: 'Query of the same index and partition', httpTiming: httpList, rawTiming: rawQuery, ratio: httpList.median / rawQuery.median, pairTiming: queryPair, pairRatio: httpList.median / queryPair.median, stageCommands: names(listSent) },
      ],
      rawWindow,
      settings: { warmup: WARMUP, rounds: ROUNDS, block: BLOCK },
      load: { before, after },
    };
  } finally {
    http.close();
    raw.destroy();
    await stage.stop();
    rmSync(localDir, { recursive: true, force: true });
    for (const [k, v] of Object.entries(savedEnv)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
  }
}

/** Checks of the section: [check, budget, measured, passed]. */
export function readFloorChecks(r: ReadFloorResult): [string, string, string, boolean][] {
  return r.cases.flatMap((c): [string, string, string, boolean][] => [
    [
      `§6 Round-trip floor: ${c.name} over HTTP / ${c.raw}`,
      `≤ ${FLOOR_BUDGET_RATIO} (median)`,
      `${c.ratio.toFixed(2)} (${ms(c.httpTiming.median)} / ${ms(c.rawTiming.median)})`,
      c.ratio <= FLOOR_BUDGET_RATIO,
    ],
    [
      `§6 Round-trip floor: ${c.name} over HTTP / the same call and the window's UpdateItem sent together raw`,
      `≤ ${FLOOR_BUDGET_RATIO} (median)`,
      `${c.pairRatio.toFixed(2)} (${ms(c.httpTiming.median)} / ${ms(c.pairTiming.median)})`,
      c.pairRatio <= FLOOR_BUDGET_RATIO,
    ],
  ]);
}

const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

export function readFloorMarkdown(r: ReadFloorResult): string[] {
  const { warmup, rounds, block } = r.settings;
  return [
    'The local stage (`startLocalStage`: in-memory DynamoDB Local, seed, HTTP server) on a free port, in this process; its webhook',
    'pipeline and no-show sweep are stopped, so that nothing but the measured requests talks to DynamoDB Local.',
    'Each HTTP request goes through the whole stage (HTTP edge, Middy chain with key verification from the cache, rate window,',
    'domain and data layer) with company 1\'s admin key (unlimited tier, never refused), over one keep-alive connection. The raw call',
    'is the DynamoDB command the handler itself sent for that request (recorded during a warm request), sent again with a',
    'DocumentClient of its own on the same DynamoDB Local. Requests are sequential; after',
    `${warmup} warm-up requests of each kind, ${rounds} rounds each run a block of ${block} of every kind in turn (${rounds * block} samples each).`,
    'Each round also sends a block of the rate window\'s UpdateItem raw (below the table), and blocks of each raw call sent together with',
    'the window\'s UpdateItem, as the stage sends them ("raw + window together"): the floor of this design on this DynamoDB Local.',
    '',
    table(
      ['Case', 'Over HTTP', 'Raw', 'HTTP median', 'HTTP p90', 'Raw median', 'Raw p90', 'Ratio of medians', 'Raw + window together', 'Ratio to that', 'Budget', 'Commands the stage sent (warm)'],
      r.cases.map((c) => [
        c.name,
        `\`${c.http}\``,
        c.raw,
        ms(c.httpTiming.median),
        ms(c.httpTiming.p90),
        ms(c.rawTiming.median),
        ms(c.rawTiming.p90),
        `**${c.ratio.toFixed(2)}**`,
        ms(c.pairTiming.median),
        `**${c.pairRatio.toFixed(2)}**`,
        `≤ ${FLOOR_BUDGET_RATIO}`,
        c.stageCommands.join(', '),
      ]),
    ),
    '',
    `For information, the rate window's own UpdateItem (as the stage sent it) sent raw in the same rounds: median ${ms(r.rawWindow.median)}, p90 ${ms(r.rawWindow.p90)};`,
    `with the raw GetItem, one after the other, ${ms(r.rawWindow.median + r.cases[0]!.rawTiming.median)}. The chain sends the two together; DynamoDB would serve them`,
    'side by side (the slower one sets the floor), DynamoDB Local serves them one after the other (docs/benchmarks.md, §6).',
    '',
    `Load average (1, 5, 15 min) before the timed rounds: ${loads(r.load.before)}; after: ${loads(r.load.after)} (2 cores: above 2 the figures are CPU-starved).`,
  ];
}
