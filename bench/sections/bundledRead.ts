/**
 * The bundled GET by id against its floor (docs/benchmarks.md, "The bundled read"): the deployed
 * bundle of `getItem` (from a synthesized assembly, as `npm run test:bundles` loads it: its
 * template's environment, a REST proxy event carrying the authorizer's verdict) invoked in this
 * process, against the two DynamoDB calls it needs, the raw GetItem and the rate window's
 * UpdateItem sent together, on the same DynamoDB Local, interleaved in the same rounds. The
 * difference is the production path's own cost: Middy's chain, validation, mapping, JSON, the SDK's
 * marshalling of two commands instead of one round trip's work.
 *
 *   npx tsx bench/sections/bundledRead.ts            # assembly in .cdk.out/dev (BUNDLES_CDK_OUT to choose)
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { GetCommand, UpdateCommand, type GetCommandInput, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import { readAssembly, type BundledFunction } from '../../test/bundles/assembly';
import { authorized, authorizerEvent, proxyEvent } from '../../test/bundles/events';
import { environmentOf, HARNESS, loadFunction, standIns } from '../../test/bundles/runtime';
import { theOne, withBenchStage } from '../lib/stage';
import { nowMs, percentile } from '../lib/stats';

const WARMUP = 50;
const ROUNDS = 30;
const BLOCK = 10;

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const summary = (samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  return { median: percentile(s, 50), p95: percentile(s, 95), n: s.length };
};

export async function bundledRead() {
  const dir = resolve(root, process.env.BUNDLES_CDK_OUT || '.cdk.out/dev');
  process.env.TABLE_NAME = HARNESS.tableName;
  return withBenchStage('bundled-read', async (stage) => {
    const functions = readAssembly(dir, HARNESS.stackName, standIns).functions;
    const find = (name: string) => {
      const f = functions.find((x) => x.name === name);
      if (!f || 'error' in f) throw new Error(`${dir}: ${name} ${f && 'error' in f ? f.error : 'missing'}`);
      return f as BundledFunction;
    };
    const endpoint = process.env.DYNAMODB_ENDPOINT!;
    const load = (f: BundledFunction) =>
      loadFunction(
        f,
        environmentOf(f, endpoint, {
          JWKS_URL: f.environment.JWKS_URL ?? '',
          JWT_ISSUER: f.environment.JWT_ISSUER ?? '',
          JWT_AUDIENCE: f.environment.JWT_AUDIENCE ?? '',
          INTERNAL_OPERATOR_IDS: f.environment.INTERNAL_OPERATOR_IDS ?? '',
        }),
      );
    const authorizer = await load(find('brigade-dev-authorizer'));
    const getItem = await load(find('brigade-dev-getItem'));

    const made = await fetch(`${stage.baseUrl}/api/v1/items`, {
      method: 'POST',
      headers: { 'X-API-Key': stage.adminKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        locationId: stage.locationId,
        name: 'Bench steak',
        price: 10000,
        vatRate: 12,
        categoryHandle: 'mains',
      }),
    });
    const id = String(((await made.json()) as { data: { id: number } }).data.id);
    const base = proxyEvent({
      resource: '/api/v1/items/{id}',
      method: 'GET',
      url: `/api/v1/items/${id}`,
      pathParameters: { id },
      headers: { 'X-API-Key': stage.adminKey },
    });
    const verdict = (await authorizer.invoke(authorizerEvent(base))) as APIGatewayAuthorizerResult;
    const event = authorized(base, verdict);
    const invoke = async () => {
      const answer = (await getItem.invoke(structuredClone(event))) as APIGatewayProxyResult;
      if (answer.statusCode !== 200) throw new Error(`getItem answered ${answer.statusCode}: ${answer.body}`);
    };

    // The floor: the commands the same code sends (recorded from the fixtures' stage's client on the same request), sent raw.
    const sent = await stage.record(() =>
      fetch(`${stage.baseUrl}/api/v1/items/${id}`, { headers: { 'X-API-Key': stage.adminKey } }).then((r) => r.text()),
    );
    const get = theOne(sent, 'GetItemCommand', `GET /api/v1/items/${id}`) as unknown as GetCommandInput;
    const window = theOne(sent, 'UpdateItemCommand', `GET /api/v1/items/${id}`) as unknown as UpdateCommandInput;
    const pair = () => Promise.all([stage.raw.send(new GetCommand(get)), stage.raw.send(new UpdateCommand(window))]);

    for (let i = 0; i < WARMUP; i++) {
      await invoke();
      await pair();
    }
    const bundled: number[] = [];
    const floor: number[] = [];
    const loadBefore = loadavg();
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < BLOCK; i++) {
        const t = nowMs();
        await invoke();
        bundled.push(nowMs() - t);
      }
      for (let i = 0; i < BLOCK; i++) {
        const t = nowMs();
        await pair();
        floor.push(nowMs() - t);
      }
    }
    const b = summary(bundled);
    const f = summary(floor);
    return {
      bundled: b,
      floor: f,
      overheadMedian: b.median - f.median,
      overheadP95: b.p95 - f.p95,
      ratio: b.median / f.median,
      stageCommands: sent.map((c) => c.name),
      load: { before: loadBefore, after: loadavg() },
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const r = await bundledRead();
  const f = (n: number) => n.toFixed(2);
  console.log(
    `bundled getItem (in process): median ${f(r.bundled.median)} ms, p95 ${f(r.bundled.p95)} ms (n=${r.bundled.n})`,
  );
  console.log(
    `floor (GetItem + window UpdateItem together): median ${f(r.floor.median)} ms, p95 ${f(r.floor.p95)} ms (n=${r.floor.n})`,
  );
  console.log(
    `overhead: median ${f(r.overheadMedian)} ms, p95 ${f(r.overheadP95)} ms; ratio ${f(r.ratio)}; stage sent ${r.stageCommands.join(', ')}; load ${r.load.before.map(f).join('/')} → ${r.load.after.map(f).join('/')}`,
  );
  process.exit(0);
}
