/**
 * §10 Load (docs/testing.md): autocannon against the local stage over loopback, 50 connections for 30 s
 * on a read route and a write route with company 1's admin key (unlimited tier), then the raw
 * DynamoDB Local calls those requests make, sent by as many concurrent loops for the same time, so
 * the stage's cost reads as a ratio to what its database alone manages on this machine.
 *
 *   npx tsx bench/sections/load.ts     (this section alone)
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import {
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type GetCommandInput,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { maxLeaseBlock } from '../../shared/domain/rateWindow';
import { rateLeases } from '../../shared/domain/rateLeases';
import { tierLimits } from '../../shared/auth/principal';
import { ms, table, verdict, type Verdict } from '../lib/md';
import { nowMs, percentile } from '../lib/stats';
import { theOne, withBenchStage, type SentCommand } from '../lib/stage';

export const LOAD_CONNECTIONS = 50;
/** A read over the whole stack serves at least this share of what a raw GetItem loop does. */
export const READ_FLOOR_RATIO = 0.5;
export const LOAD_SECONDS = 30;
/** The raw loops run for less time: their figures settle sooner, and the section stays near two minutes. */
const RAW_SECONDS = 10;

interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; average: number; max: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}
interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  method?: string;
  /** A JSON body; `[<id>]` in it becomes a fresh random id in each request (autocannon's `--idReplacement`). */
  body?: string;
}

/**
 * autocannon in a process of its own (its command line, JSON out): in this process it would share
 * the event loop with the stage it measures, and in a worker thread it takes itself for one of its
 * own workers.
 */
function autocannon(o: AutocannonOptions): Promise<AutocannonResult> {
  const cli = join(dirname(createRequire(import.meta.url).resolve('autocannon')), 'autocannon.js');
  const args = [cli, '--json', '-c', String(o.connections), '-d', String(o.duration)];
  for (const [k, v] of Object.entries(o.headers)) args.push('-H', `${k}=${v}`);
  if (o.method) args.push('-m', o.method);
  if (o.body) args.push('-b', o.body, '--idReplacement');
  args.push(o.url);
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0
        ? ok(JSON.parse(out) as AutocannonResult)
        : fail(new Error(`autocannon exited ${code}: ${err.slice(-500)}`)),
    );
  });
}

export interface LoadFigures {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Answers by status; anything but 200 (and 429, which the unlimited key should never get) is an error. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts. */
  errors: number;
}

export interface LoadCase {
  name: string;
  http: string;
  raw: string;
  stage: LoadFigures;
  rawFigures: LoadFigures;
  /** The one raw call the operation cannot do without (a GetItem, a PutItem), alone. */
  floor: string;
  floorFigures: LoadFigures;
  /** What the stage sent for one warm request. */
  stageCommands: string[];
}

export interface LoadResult {
  cases: LoadCase[];
  load: { before: number[]; after: number[] };
}

function figures(r: AutocannonResult): LoadFigures {
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    requests: r.requests.total,
    perSecond: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    statuses,
    errors: r.errors + r.timeouts,
  };
}

/** `loops` concurrent loops of `send` for `seconds`; the latency of each call. */
async function rawLoad(send: (i: number) => Promise<unknown>, loops: number, seconds: number): Promise<LoadFigures> {
  const samples: number[] = [];
  let errors = 0;
  let next = 0;
  const end = nowMs() + seconds * 1000;
  const t0 = nowMs();
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (nowMs() < end) {
        const start = nowMs();
        try {
          await send(next++);
          samples.push(nowMs() - start);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (nowMs() - t0) / 1000;
  samples.sort((a, b) => a - b);
  return {
    requests: samples.length,
    perSecond: samples.length / elapsed,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    statuses: {},
    errors,
  };
}

/** The input with every occurrence of each `from` (in strings and as a number) replaced by its `to`. */
function rekey<T>(input: T, replacements: readonly [string | number, string | number][]): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string')
      return replacements.reduce<string>((s, [from, to]) => s.split(String(from)).join(String(to)), v);
    if (typeof v === 'number') return replacements.find(([from]) => from === v)?.[1] ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(input) as T;
}

const pad12 = (n: number) => String(n).padStart(12, '0');
const names = (sent: readonly SentCommand[]) => sent.map((s) => s.name.replace(/Command$/, ''));

export async function loadSection(): Promise<LoadResult> {
  return withBenchStage('load', async (stage) => {
    const headers = { 'X-API-Key': stage.adminKey, 'Content-Type': 'application/json' };
    const url = stage.baseUrl;
    const readPath = `/api/v1/locations/${stage.locationId}`;
    const bodyTemplate = JSON.stringify({
      locationId: stage.locationId,
      name: 'Load test dish [<id>]',
      price: 16500,
      vatRate: 12,
      categoryHandle: 'starters',
    });
    const itemBody = (n: number) => bodyTemplate.replace('[<id>]', String(n));
    const post = async (n: number) => {
      const res = await fetch(`${url}/api/v1/items`, { method: 'POST', headers, body: itemBody(n) });
      if (res.status !== 200) throw new Error(`POST /api/v1/items answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { data: { id: number } }).data.id;
    };
    const get = async () => {
      const res = await fetch(`${url}${readPath}`, { headers });
      if (res.status !== 200) throw new Error(`GET ${readPath} answered ${res.status}`);
      await res.arrayBuffer();
    };
    // Warm the key cache, then record one warm request of each, on a fresh container so that the
    // window's lease is among its commands (most requests send none: docs/api.md).
    await get();
    await post(-1);
    rateLeases.forget();
    const readSent = await stage.record(get);
    let recordedId = 0;
    const writeSent = await stage.record(async () => (recordedId = await post(0)));
    const getInput = theOne(readSent, 'GetItemCommand', `GET ${readPath}`) as unknown as GetCommandInput;
    const windowInput = theOne(readSent, 'UpdateItemCommand', `GET ${readPath}`) as unknown as UpdateCommandInput;
    const writeInput = theOne(
      writeSent,
      'TransactWriteItemsCommand',
      'POST /api/v1/items',
    ) as unknown as TransactWriteCommandInput;

    const before = loadavg();
    const read = figures(
      await autocannon({ url: `${url}${readPath}`, connections: LOAD_CONNECTIONS, duration: LOAD_SECONDS, headers }),
    );
    const write = figures(
      await autocannon({
        url: `${url}/api/v1/items`,
        connections: LOAD_CONNECTIONS,
        duration: LOAD_SECONDS,
        method: 'POST',
        headers,
        body: bodyTemplate,
      }),
    );
    // The raw calls. The design's: the read's GetItem, and the window's lease beside one request in
    // a block (the admin key's tier leases blocks of `block` once warm); the write's transaction
    // with a fresh item id and name each time (ids far above the stage's), the lease likewise. The
    // floor: the GetItem alone, and a PutItem of the transaction's item alone.
    const block = maxLeaseBlock(tierLimits.unlimited);
    const lease = (i: number) => (i % block === 0 ? [stage.raw.send(new UpdateCommand(windowInput))] : []);
    const rawRead = await rawLoad(
      (i) => Promise.all([stage.raw.send(new GetCommand(getInput)), ...lease(i)]),
      LOAD_CONNECTIONS,
      RAW_SECONDS,
    );
    const floorRead = await rawLoad(() => stage.raw.send(new GetCommand(getInput)), LOAD_CONNECTIONS, RAW_SECONDS);
    const freshWrite = (i: number) =>
      rekey(writeInput, [
        [pad12(recordedId), pad12(900_000_000 + i)],
        [recordedId, 900_000_000 + i],
        ['Load test dish 0', `Raw dish ${i}`],
        ['load test dish 0', `raw dish ${i}`],
      ]);
    const rawWrite = await rawLoad(
      (i) => Promise.all([stage.raw.send(new TransactWriteCommand(freshWrite(i))), ...lease(i)]),
      LOAD_CONNECTIONS,
      RAW_SECONDS,
    );
    const itemPut = (i: number) => {
      const put = freshWrite(i + 5_000_000).TransactItems!.find((t) => t.Put)!.Put!;
      return new PutCommand({ TableName: put.TableName, Item: put.Item });
    };
    const floorWrite = await rawLoad((i) => stage.raw.send(itemPut(i)), LOAD_CONNECTIONS, RAW_SECONDS);
    const after = loadavg();
    return {
      cases: [
        {
          name: 'read',
          http: `GET ${readPath}`,
          raw: `its GetItem, and the window's lease beside one request in ${block}`,
          stage: read,
          rawFigures: rawRead,
          floor: 'its GetItem alone',
          floorFigures: floorRead,
          stageCommands: names(readSent),
        },
        {
          name: 'write',
          http: 'POST /api/v1/items (a new dish each time)',
          raw: `its TransactWriteItems (fresh id), and the window's lease beside one request in ${block}`,
          stage: write,
          rawFigures: rawWrite,
          floor: "a PutItem of the transaction's item alone",
          floorFigures: floorWrite,
          stageCommands: names(writeSent),
        },
      ],
      load: { before, after },
    };
  });
}

/** Answers that are errors: anything but 200, and 429 only because the unlimited key never meets its window. */
export const loadErrors = (f: LoadFigures) =>
  f.errors +
  Object.entries(f.statuses)
    .filter(([code]) => code !== '200')
    .reduce((s, [, c]) => s + c, 0);

export function loadChecks(r: LoadResult): [string, string, string, Verdict][] {
  return r.cases.flatMap((c): [string, string, string, Verdict][] => [
    [
      `§10 Load ${c.name}: errors under ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s`,
      '0 (other than 429)',
      `${loadErrors(c.stage)} of ${c.stage.requests}`,
      verdict(loadErrors(c.stage) === 0),
    ],
    [
      `§10 Load ${c.name}: throughput, stage / the design's raw calls`,
      'reported',
      `${c.stage.perSecond.toFixed(0)} / ${c.rawFigures.perSecond.toFixed(0)} per s = ${(c.stage.perSecond / c.rawFigures.perSecond).toFixed(2)}`,
      'INFO',
    ],
    [
      `§10 Load ${c.name}: throughput, stage / ${c.floor}`,
      c.name === 'read' ? `≥ ${READ_FLOOR_RATIO}` : 'reported',
      `${c.stage.perSecond.toFixed(0)} / ${c.floorFigures.perSecond.toFixed(0)} per s = ${(c.stage.perSecond / c.floorFigures.perSecond).toFixed(2)}`,
      c.name === 'read' ? verdict(c.stage.perSecond / c.floorFigures.perSecond >= READ_FLOOR_RATIO) : 'INFO',
    ],
    [
      `§10 Load ${c.name}: p50 / p99 latency, stage / raw`,
      'reported',
      `${ms(c.stage.p50)} / ${ms(c.stage.p99)} against ${ms(c.rawFigures.p50)} / ${ms(c.rawFigures.p99)}`,
      'INFO',
    ],
  ]);
}

const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

export function loadMarkdown(r: LoadResult): string[] {
  return [
    `autocannon against the local stage (in this process, loopback only; webhook pipeline and no-show sweep stopped), ${LOAD_CONNECTIONS} connections`,
    `for ${LOAD_SECONDS} s per route, company 1's admin key (unlimited tier: the rate window never refuses, so every answer but 200 is an error).`,
    `Then the raw DynamoDB Local calls one such request makes (recorded from the stage's client; the window's lease beside one request in a block), sent by ${LOAD_CONNECTIONS} concurrent loops`,
    `for ${RAW_SECONDS} s with a DocumentClient of the bench's own, and the one call the operation cannot do without, alone (the floor):`,
    'the ratios say what the whole stack costs over its database on this machine.',
    'Everything shares the 2 cores: the stage, DynamoDB Local and autocannon itself.',
    '',
    table(
      [
        'Route',
        'Requests',
        'Per second',
        'p50',
        'p99',
        'Answers',
        'Errors',
        'Raw calls',
        'Raw per second',
        'Raw p50',
        'Raw p99',
        'Throughput ratio',
        'p50 ratio',
        'Floor: one call alone',
        'Floor per second',
        'Stage / floor',
        'Commands the stage sent (warm)',
      ],
      r.cases.map((c) => [
        `\`${c.http}\``,
        c.stage.requests,
        c.stage.perSecond.toFixed(0),
        ms(c.stage.p50),
        ms(c.stage.p99),
        Object.entries(c.stage.statuses)
          .map(([code, count]) => `${code}: ${count}`)
          .join(', '),
        loadErrors(c.stage),
        c.raw,
        c.rawFigures.perSecond.toFixed(0),
        ms(c.rawFigures.p50),
        ms(c.rawFigures.p99),
        `**${(c.stage.perSecond / c.rawFigures.perSecond).toFixed(2)}**`,
        `**${(c.stage.p50 / c.rawFigures.p50).toFixed(2)}**`,
        c.floor,
        c.floorFigures.perSecond.toFixed(0),
        `**${(c.stage.perSecond / c.floorFigures.perSecond).toFixed(2)}**`,
        c.stageCommands.join(', '),
      ]),
    ),
    '',
    `Load average (1, 5, 15 min) before: ${loads(r.load.before)}; after: ${loads(r.load.after)}.`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const r = await loadSection();
  console.log(loadMarkdown(r).join('\n'));
  for (const [check, budget, measured, v] of loadChecks(r)) console.log(`${v} ${check}: ${measured} (${budget})`);
}
