/**
 * §6 Reads at the round-trip floor (docs/benchmarks.md): a GET by id and a list page over HTTP through the
 * local stage, each against the one raw DynamoDB call that serves it, in one run against ONE
 * DynamoDB Local. The raw call is the very command the handler sends (recorded from the stage's
 * client during a warm-up request), replayed with a DocumentClient of its own on the same endpoint.
 */
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import {
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type GetCommandInput,
  type QueryCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ms, table } from '../lib/md';
import { rateLeases } from '../../shared/domain/rateLeases';
import { theOne, withBenchStage } from '../lib/stage';
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

export async function readFloor(): Promise<ReadFloorResult> {
  return withBenchStage('floor', async (stage) => {
    const http = httpGetter(stage.baseUrl, stage.adminKey);
    try {
      const byIdPath = `/api/v1/locations/${stage.locationId}`;
      const listPath = `/api/v1/locations/${stage.locationId}/tables?limit=20`;
      // A first request of each warms the key cache; the second, warm, is the one recorded, each on a
      // fresh container so that the window's lease is among its commands (most requests send none).
      await http.get(byIdPath);
      await http.get(listPath);
      rateLeases.forget();
      const byIdSent = await stage.record(() => http.get(byIdPath));
      rateLeases.forget();
      const listSent = await stage.record(() => http.get(listPath));
      const getInput = theOne(byIdSent, 'GetItemCommand', `GET ${byIdPath}`) as unknown as GetCommandInput;
      const queryInput = theOne(listSent, 'QueryCommand', `GET ${listPath}`) as unknown as QueryCommandInput;
      const windowInput = theOne(byIdSent, 'UpdateItemCommand', `GET ${byIdPath}`) as unknown as UpdateCommandInput;
      const { raw } = stage;

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
      const [httpGet, rawGet, httpList, rawQuery, rawWindow, getPair, queryPair] = (await interleaved(tasks)).map(
        timing,
      ) as [Timing, Timing, Timing, Timing, Timing, Timing, Timing];
      const after = loadavg();
      const names = (sent: { name: string }[]) => sent.map((s) => s.name.replace(/Command$/, ''));
      return {
        cases: [
          {
            name: 'GET by id',
            http: `GET ${byIdPath}`,
            raw: 'GetItem of the same item',
            httpTiming: httpGet,
            rawTiming: rawGet,
            ratio: httpGet.median / rawGet.median,
            pairTiming: getPair,
            pairRatio: httpGet.median / getPair.median,
            stageCommands: names(byIdSent),
          },
          {
            name: 'list page',
            http: `GET ${listPath}`,
            raw: 'Query of the same index and partition',
            httpTiming: httpList,
            rawTiming: rawQuery,
            ratio: httpList.median / rawQuery.median,
            pairTiming: queryPair,
            pairRatio: httpList.median / queryPair.median,
            stageCommands: names(listSent),
          },
        ],
        rawWindow,
        settings: { warmup: WARMUP, rounds: ROUNDS, block: BLOCK },
        load: { before, after },
      };
    } finally {
      http.close();
    }
  });
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
    "domain and data layer) with company 1's admin key (unlimited tier, never refused), over one keep-alive connection. The raw call",
    'is the DynamoDB command the handler itself sent for that request (recorded during a warm request), sent again with a',
    'DocumentClient of its own on the same DynamoDB Local. Requests are sequential; after',
    `${warmup} warm-up requests of each kind, ${rounds} rounds each run a block of ${block} of every kind in turn (${rounds * block} samples each).`,
    "Each round also sends a block of the rate window's UpdateItem raw (below the table), and blocks of each raw call sent together with",
    'the window\'s UpdateItem, as the stage sends them ("raw + window together"): the floor of this design on this DynamoDB Local.',
    '',
    table(
      [
        'Case',
        'Over HTTP',
        'Raw',
        'HTTP median',
        'HTTP p90',
        'Raw median',
        'Raw p90',
        'Ratio of medians',
        'Raw + window together',
        'Ratio to that',
        'Budget',
        'Commands the stage sent (warm)',
      ],
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
