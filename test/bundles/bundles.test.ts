/**
 * The bundles that deploy are the bundles that run (docs/testing.md, "The bundles
 * that deploy"): every function of the synthesized dev stage is loaded from its asset in the cloud
 * assembly, with the environment its template gives it, and invoked with the events AWS sends it,
 * against DynamoDB Local. Each function of ours must answer at least one of them with a success;
 * CDK's own provider functions are listed as excluded, with why. A bundle that lacks a module or an
 * environment variable fails here, naming the function, its asset and what it answered.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanKeyCommand,
} from '@aws-sdk/client-api-gateway';
import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sweepItemKey } from '../../shared/data/noShowSweep';
import { deliveries, deliveryEntity } from '../../shared/data/webhookDeliveries';
import { MAX_ATTEMPTS } from '../../shared/webhooks/schedule';
import { routes, type Route } from '../../shared/routes';
import { build } from 'esbuild';
import { BUNDLE_BUDGET_BYTES } from '../../bench/sections/bundles';
import { ESBUILD_OPTIONS } from '../../infra/bundling';
import { operationFunctionName } from '../../infra/handler-function';
import { OUTBOX_DETAIL_TYPE, OUTBOX_SOURCE } from '../../infra/webhooks-pipeline';
import { locationEventLog } from '../../shared/data/outbox';
import { AwsCallLog, recordSends } from '../support/aws-call-log';
import { call, type UntypedJson } from '../support/http';
import { checkCalls, readCallLogs, writeIamReport } from '../support/iam-check';
import { buildWorld, creationOrder, requestFor, startReceiver, type World, type WorldRequest } from '../support/world';
import { readAssembly } from './assembly';
import {
  authorized,
  authorizerEvent,
  deliveryEvent,
  fanOutEvent,
  proxyEvent,
  scheduledEvent,
  type HttpRequest,
} from './events';
import {
  CALL_LOG_DIR,
  environmentOf,
  HARNESS,
  loadFunction,
  nativeImport,
  standIns,
  type LoadedFunction,
} from './runtime';

const STAGE = 'dev';
const all = routes as readonly Route[];
const { cdkOut, dynamoEndpoint, identity, operatorToken, catalog } = inject('bundles');

/** Functions in the template that are not bundles of ours: CDK's providers, by their construct path. */
const notOurs: { match: RegExp; reason: string }[] = [
  {
    match: /\/AWS679f53fac002430cb0da5b7982bd2287\//,
    reason:
      "CDK's AwsCustomResource provider (aws-cdk-lib custom-resources): CDK's code, which our bundling does not build",
  },
  {
    match: /\/AWSCDK\.TriggerCustomResourceProvider/,
    reason:
      "CDK's trigger provider (aws-cdk-lib triggers): CDK's code; it only invokes the catalog function at deploy, which this run does itself",
  },
];

/**
 * Where webhooks go here: a public https URL (a deployed stage sends nowhere else; an IP literal,
 * so no DNS is asked), which the harness routes to a receiver on loopback (`routeEgress`).
 */
const PUBLIC_HOOK = 'https://203.0.114.10/brigade-hooks';

interface Outcome {
  function: string;
  asset: string;
  what: string;
  ok: boolean;
  detail: string;
}
const outcomes: Outcome[] = [];
/** What each operation's bundle answered to its request in the sweep of every operation. */
const answered = new Map<string, unknown>();
const functions = new Map<string, LoadedFunction>();
const excluded: { function: string; reason: string }[] = [];
const unreadable: Outcome[] = [];

const short = (dir: string) => dir.slice(dir.lastIndexOf('/') + 1, dir.lastIndexOf('/') + 20);
function record(fn: LoadedFunction, what: string, ok: boolean, detail: string): void {
  outcomes.push({ function: fn.fn.name, asset: short(fn.fn.assetDir), what, ok, detail: detail.slice(0, 600) });
}
const fnNamed = (name: string) => {
  const fn = functions.get(name);
  if (!fn) throw new Error(`no function ${name} in the assembly`);
  return fn;
};

// The AWS services the harness stands in for, mocked in this process: the bundles import the same
// @aws-sdk modules from the project's node_modules, so the mocks patch their clients too.
const sqs = mockClient(SQSClient);
const apiGateway = mockClient(APIGatewayClient);

/**
 * Every AWS SDK command the bundles send in this process, filed under the invoked function
 * (runtime.ts runs each invocation as it): the base client's `send` (DynamoDB, real) and the
 * mocked clients' (SQS, API Gateway). The catalog seed's, from the global setup, are in a file of
 * their own in the same folder; the last test asks each of the assembly's roles.
 */
const callLog = AwsCallLog.in(CALL_LOG_DIR, 'worker');
let stopRecording = () => undefined as void;
let usageKeys = 0;

/** Receiver on loopback, and what reached it. */
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let hookServer: ReturnType<typeof createServer>;
let hookPort = 0;
/** How many of the next POSTs the receiver answers 500. */
let failNext = 0;

/**
 * The bundles' https requests to PUBLIC_HOOK's host go to the loopback receiver instead: Node's
 * `https.request` (which the webhook sender imports) is wrapped, and the ES module bindings synced.
 * Any other https request goes out as it would.
 */
function routeEgress(): () => void {
  const https = createRequire(import.meta.url)('node:https') as typeof import('node:https');
  const original = https.request;
  const host = new URL(PUBLIC_HOOK).hostname;
  https.request = ((url: URL | string, options: Record<string, unknown>, cb?: never) => {
    const target = typeof url === 'string' ? new URL(url) : url;
    if (target.hostname !== host) return (original as (...a: unknown[]) => unknown)(url, options, cb);
    const { lookup: _lookup, agent: _agent, ...rest } = options;
    return httpRequest({ ...rest, host: '127.0.0.1', port: hookPort, path: `${target.pathname}${target.search}` }, cb);
  }) as typeof https.request;
  syncBuiltinESMExports();
  return () => {
    https.request = original;
    syncBuiltinESMExports();
  };
}
let restoreEgress = () => undefined as void;

let world: World;
let documents: DynamoDBDocumentClient;
let authorizer: LoadedFunction;

beforeAll(async () => {
  sqs.onAnyCommand().resolves({});
  sqs.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string }[] }) => ({
    Successful: input.Entries.map((e) => ({ Id: e.Id, MessageId: e.Id, MD5OfMessageBody: 'x' })),
    Failed: [],
  }));
  apiGateway.onAnyCommand().resolves({});
  apiGateway.on(CreateApiKeyCommand).callsFake(() => ({ id: `usagekey${++usageKeys}`, enabled: true }));
  stopRecording = recordSends(
    [Object.getPrototypeOf(DynamoDBClient.prototype) as object, SQSClient.prototype, APIGatewayClient.prototype],
    callLog,
  );
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(failNext > 0 ? 500 : 200).end('ok');
      failNext = Math.max(0, failNext - 1);
    });
  });
  await new Promise<void>((ok) => hookServer.listen(0, '127.0.0.1', ok));
  hookPort = (hookServer.address() as { port: number }).port;
  restoreEgress = routeEgress();
  documents = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: dynamoEndpoint,
      region: HARNESS.region,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    }),
  );

  // The fixtures: the world, built over the local stage; then its pipeline stops (the bundles are the pipeline now).
  receiver = await startReceiver();
  world = await buildWorld('Bundles', receiver.url, all);
  world.receiverUrl = PUBLIC_HOOK;
  const stopped = await fetch(`${inject('pipelineDoor')}/stop`, { method: 'POST' });
  if (!stopped.ok) throw new Error(`the stage's pipeline did not stop: ${stopped.status}`);

  for (const f of readAssembly(cdkOut, HARNESS.stackName, standIns).functions) {
    const theirs = notOurs.find((n) => n.match.test(f.path));
    if (theirs) {
      excluded.push({ function: f.name, reason: theirs.reason });
      continue;
    }
    if ('error' in f) {
      unreadable.push({ function: f.name, asset: '?', what: 'read from the template', ok: false, detail: f.error });
      continue;
    }
    try {
      functions.set(f.name, await loadFunction(f, environmentOf(f, dynamoEndpoint, identity)));
    } catch (err) {
      unreadable.push({
        function: f.name,
        asset: short(f.assetDir),
        what: 'load',
        ok: false,
        detail: (err as Error).stack ?? String(err),
      });
    }
  }
  authorizer = fnNamed(`brigade-${STAGE}-authorizer`);
}, 600_000);

afterAll(async () => {
  restoreEgress();
  stopRecording();
  callLog.stop();
  sqs.restore();
  apiGateway.restore();
  await receiver?.close();
  hookServer?.closeAllConnections();
  await new Promise<void>((ok) => (hookServer ? hookServer.close(() => ok()) : ok()));
  const ours = functions.size + unreadable.length;
  const succeeded = new Set(outcomes.filter((o) => o.ok).map((o) => o.function));
  const summary = {
    functions: ours + excluded.length,
    ours,
    succeeded: succeeded.size,
    excluded,
    withoutSuccess: [...functions.keys()].filter((n) => !succeeded.has(n)),
    unreadable,
    failures: outcomes.filter((o) => !o.ok),
    standIns: { identity: Object.keys(identity), tableName: HARNESS.tableName },
    catalog,
  };
  mkdirSync('.local', { recursive: true });
  writeFileSync('.local/bundles.json', `${JSON.stringify({ ...summary, outcomes }, null, 2)}\n`);
  console.log(
    `bundles: ${succeeded.size} of ${ours} functions invoked with a success (excluded: ${excluded.map((e) => `${e.function}: ${e.reason}`).join('; ')}); ${outcomes.length} invocations, ${summary.failures.length} failed`,
  );
});

/** The authorizer's verdict on a request, judged: an Allow for this stage, naming a usage key. */
async function authorize(event: ReturnType<typeof proxyEvent>): Promise<APIGatewayAuthorizerResult> {
  const verdict = (await authorizer.invoke(authorizerEvent(event))) as APIGatewayAuthorizerResult;
  const statement = verdict.policyDocument.Statement[0] as { Effect: string; Resource: string };
  const ok =
    statement.Effect === 'Allow' &&
    typeof verdict.usageIdentifierKey === 'string' &&
    verdict.usageIdentifierKey.length > 0;
  record(authorizer, `${event.httpMethod} ${event.resource}`, ok, JSON.stringify(verdict));
  return verdict;
}

type Credential = { key: string } | { token: string } | null;

/** Sends a request as API Gateway would: the authorizer's bundle in front when the route has one, then the function's bundle. */
async function send(
  fnName: string,
  request: HttpRequest,
  credential: Credential,
  behindAuthorizer: boolean,
): Promise<{ answer: APIGatewayProxyResult; body: unknown; verdict?: APIGatewayAuthorizerResult }> {
  const fn = fnNamed(fnName);
  const headers = {
    ...request.headers,
    ...(credential && 'key' in credential ? { 'X-API-Key': credential.key } : {}),
    ...(credential && 'token' in credential ? { Authorization: `Bearer ${credential.token}` } : {}),
  };
  let event = proxyEvent({ ...request, headers });
  let verdict: APIGatewayAuthorizerResult | undefined;
  if (behindAuthorizer) {
    verdict = await authorize(event);
    event = authorized(event, verdict);
  }
  const answer = (await fn.invoke(event)) as APIGatewayProxyResult;
  const type = String(answer.headers?.['Content-Type'] ?? answer.headers?.['content-type'] ?? '');
  let body: unknown = answer.body;
  if (answer.isBase64Encoded) body = Buffer.from(answer.body, 'base64');
  else if (type.includes('json') && answer.body) body = JSON.parse(answer.body);
  return { answer, body, ...(verdict ? { verdict } : {}) };
}

/** The success envelope: `status: 'success'`, a `data`, and `meta.requestId`. */
const isSuccessEnvelope = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  'data' in body &&
  (body as { status?: unknown }).status === 'success' &&
  typeof (body as { meta?: { requestId?: unknown } }).meta?.requestId === 'string';
/** An error envelope's code, as the tests read it. */
type ErrorBody = { error: { code: string } };

/** A success: 2xx; a JSON answer is the success envelope; a file answer's base64 decodes to bytes. */
function judge(answer: APIGatewayProxyResult, body: unknown, path = '/api/v1/'): string | null {
  if (answer.statusCode < 200 || answer.statusCode > 299)
    return `answered ${answer.statusCode}: ${typeof body === 'string' ? body : JSON.stringify(body)}`;
  if (answer.isBase64Encoded) {
    if (
      !Buffer.isBuffer(body) ||
      (answer.body.length > 0 && body.length === 0) ||
      body.toString('base64') !== answer.body.replace(/\s/g, '')
    )
      return 'a file answer whose base64 does not decode';
    return null;
  }
  const type = String(answer.headers?.['Content-Type'] ?? answer.headers?.['content-type'] ?? '');
  // The probes and the OpenAPI document answer their own JSON; every operation under /api/v1 answers the envelope.
  if (type.includes('json') && !path.startsWith('/api/v1/'))
    return body && typeof body === 'object' ? null : `not a JSON object: ${String(answer.body).slice(0, 200)}`;
  if (type.includes('json') && answer.statusCode !== 204 && !isSuccessEnvelope(body))
    return `not the success envelope: ${JSON.stringify(body).slice(0, 300)}`;
  return null;
}

const fromWorld = (r: WorldRequest, route: Route): HttpRequest => ({
  resource: route.path,
  method: route.method,
  url: r.url,
  pathParameters: Object.keys(r.params).length ? r.params : null,
  headers: r.headers,
  ...(r.body === undefined ? {} : { body: r.body }),
});

/**
 * The platform's operations (companies, changes to the permission catalog: docs/access.md) refuse
 * every company credential: they are sent with an internal operator's token.
 */
const operatorOnly = (route: Route) =>
  route.permission !== null &&
  (route.path.startsWith('/api/v1/companies') ||
    (route.path.startsWith('/api/v1/permissions') && route.method !== 'GET'));

/** A request that ends what it names (a deletion, a cancellation, leaving the waitlist): sent after every other. */
const ends = (route: Route) => route.method === 'DELETE' || route.path.endsWith('/cancel');

/** POST/PUT with the admin key over the fixtures' stage; answers `data`. */
async function fixture(method: string, path: string, body?: unknown): Promise<UntypedJson> {
  const out = await call(method, path, { key: world.company.keys.admin, ...(body === undefined ? {} : { body }) });
  if (out.status !== 200) throw new Error(`fixture ${method} ${path}: ${out.status} ${JSON.stringify(out.body)}`);
  return out.body.data;
}

let days = 0;
/** A day after the world's that no other fixture uses. */
function freshDay(): string {
  days += 1;
  return new Date(Date.parse(`${world.day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
/**
 * A booking of its own (its own day and its own table, so it competes with nothing), moved
 * through `steps` (`seat`, …) over the fixtures' stage; `pending` when the location confirms
 * bookings on request while it is made.
 */
async function freshBooking(
  options: { steps?: string[]; pending?: boolean } = {},
): Promise<{ id: string; confirmationCode: string }> {
  const table = await fixture('POST', `/api/v1/locations/${world.ids.location}/tables`, {
    name: `Fresh ${days}`,
    minCapacity: 1,
    maxCapacity: 4,
  });
  const settings = (mode: string) =>
    fixture('PUT', `/api/v1/locations/${world.ids.location}/booking-settings`, {
      maxAdvanceDays: 365,
      operatingHours: everyDay,
      confirmationMode: mode,
    });
  if (options.pending) await settings('request_based');
  const booking = await fixture('POST', '/api/v1/bookings', {
    locationId: world.ids.location,
    bookingDate: freshDay(),
    startTime: '12:00',
    guestCount: 2,
    tableIds: [table.id],
    guestName: 'Fresh Guest',
  });
  if (options.pending) await settings('instant');
  for (const step of options.steps ?? []) await fixture('POST', `/api/v1/bookings/${booking.id}/${step}`, {});
  return booking;
}
const everyDay = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ open: '11:00', close: '23:00' }],
  ]),
);

/** A waitlist entry of its own, offered a spot when `offered`. */
async function freshWaitlistEntry(offered: boolean): Promise<{ id: string; code: string }> {
  const example = requestFor(all.find((r) => r.operationId === 'joinWaitlist')!, world).body as Record<string, unknown>;
  const entry = await fixture('POST', '/api/v1/booking-waitlist', {
    ...example,
    desiredDate: freshDay(),
    guestName: 'Fresh Waiter',
  });
  if (offered)
    await fixture(
      'POST',
      `/api/v1/booking-waitlist/${entry.id}/offer`,
      requestFor(all.find((r) => r.operationId === 'offerWaitlistSpot')!, world).body ?? {},
    );
  return entry;
}

/** A floor where a party fits only once another booking moves (`reseatingFloor`). */
interface ReseatingFloor {
  locationId: number;
  date: string;
  two: string;
  four: string;
  couple: string;
  /** Another date: `holder` on the four-top and `mover` on the two-top, both couples at 19:00. */
  moveDate: string;
  holder: string;
  mover: string;
  /** A third date: `offerHolder` on the four-top at 19:00, and `waiter`, a party of four on the waitlist. */
  offerHolder: string;
  waiter: string;
}
let reseatFloor: Promise<ReseatingFloor> | undefined;
/**
 * A location of its own with a two-top and a four-top (not combinable), and a couple booked onto the
 * four-top at 19:00: its tables given, so not where automatic assignment puts a couple (the two-top,
 * fewest seats beyond the party), and not locked, so movable. A party of four at 19:00 finds no free
 * table: availability offers it and create seats it only by moving the couple to the two-top, which
 * is HiGHS's answer (shared/domain/bookings/reseat.ts), loaded by the bundle from the solver layer the
 * assembly built. On another date, a couple moved onto the four-top another couple holds: the update
 * takes it only by moving the holder to the two-top the mover leaves. On a third, an offer of the
 * four-top to a party of four waiting moves the couple holding it. Made once, on first use.
 */
const reseatingFloor = () =>
  (reseatFloor ??= (async () => {
    const location = await fixture('POST', '/api/v1/locations', { name: 'Re-seating', timezone: world.timezone });
    await fixture('PUT', `/api/v1/locations/${location.id}/booking-settings`, {
      maxAdvanceDays: 365,
      operatingHours: everyDay,
      confirmationMode: 'instant',
    });
    const table = (name: string, minCapacity: number, maxCapacity: number) =>
      fixture('POST', `/api/v1/locations/${location.id}/tables`, { name, minCapacity, maxCapacity });
    const two = await table('Two', 1, 2);
    const four = await table('Four', 2, 4);
    const date = freshDay();
    const couple = (bookingDate: string, table: { id: string }, guestName: string) =>
      fixture('POST', '/api/v1/bookings', {
        locationId: location.id,
        bookingDate,
        startTime: '19:00',
        guestCount: 2,
        tableIds: [table.id],
        guestName,
      });
    const moveDate = freshDay();
    const offerDate = freshDay();
    const joinExample = requestFor(all.find((r) => r.operationId === 'joinWaitlist')!, world).body as object;
    return {
      locationId: location.id,
      date,
      two: two.id,
      four: four.id,
      couple: (await couple(date, four, 'Couple on the four-top')).id,
      moveDate,
      holder: (await couple(moveDate, four, 'Holder of the four-top')).id,
      mover: (await couple(moveDate, two, 'Mover to the four-top')).id,
      offerHolder: (await couple(offerDate, four, 'Holder of the offered four-top')).id,
      waiter: (
        await fixture('POST', '/api/v1/booking-waitlist', {
          ...joinExample,
          locationId: location.id,
          partySize: 4,
          desiredDate: offerDate,
          guestName: 'Party of four waiting',
        })
      ).id,
    };
  })());

/** Replaces a path parameter's value in a built request. */
function withParam(r: WorldRequest, name: string, value: string): WorldRequest {
  const old = r.params[name]!;
  return {
    ...r,
    params: { ...r.params, [name]: value },
    url: r.url.replace(`/${encodeURIComponent(old)}`, `/${encodeURIComponent(value)}`),
  };
}

/**
 * Operations whose world request cannot succeed as it stands, because the world's resource is in
 * a state the operation refuses by contract (a 409, not a fault), and what each gets instead: a
 * resource of its own, in the state it needs, made over the fixtures' stage just before it is sent.
 */
const prepare: Record<string, (r: WorldRequest) => Promise<WorldRequest>> = {
  checkInBooking: async (r) => withParam(r, 'id', (await freshBooking()).id),
  markBookingNoShow: async (r) => withParam(r, 'id', (await freshBooking()).id),
  seatBooking: async (r) => withParam(r, 'id', (await freshBooking()).id),
  unseatBooking: async (r) => withParam(r, 'id', (await freshBooking({ steps: ['seat'] })).id),
  splitBookingTabs: async (r) => withParam(r, 'id', (await freshBooking({ steps: ['seat'] })).id),
  completeBooking: async (r) => withParam(r, 'id', (await freshBooking({ steps: ['seat'] })).id),
  confirmBooking: async (r) => withParam(r, 'id', (await freshBooking({ pending: true })).id),
  // an offer of a table a movable booking holds (reseatingFloor)
  offerWaitlistSpot: async (r) => {
    const f = await reseatingFloor();
    return { ...withParam(r, 'id', f.waiter), body: { tableIds: [f.four], startTime: '19:00' } };
  },
  acceptWaitlistOffer: async (r) => withParam(r, 'code', (await freshWaitlistEntry(true)).code),
  declineWaitlistOffer: async (r) => withParam(r, 'code', (await freshWaitlistEntry(true)).code),
  // the world's tag is in the category already; its table is in a booking group; its variant is its group's only one; its location has everything
  createCustomTag: async (r) => ({ ...r, body: { ...(r.body as object), key: 'Bundled tag' } }),
  deleteTable: async (r) =>
    withParam(
      r,
      'id',
      (
        await fixture('POST', `/api/v1/locations/${world.ids.location}/tables`, {
          name: 'Doomed',
          minCapacity: 1,
          maxCapacity: 2,
        })
      ).id,
    ),
  deleteVariant: async (r) =>
    withParam(
      r,
      'variantId',
      String(
        (await fixture('POST', `/api/v1/variant-groups/${world.ids.variantGroup}/variants`, { name: 'Doomed' })).id,
      ),
    ),
  deleteLocation: async (r) =>
    withParam(
      r,
      'locationId',
      String((await fixture('POST', '/api/v1/locations', { name: 'Doomed', timezone: world.timezone })).id),
    ),
  // replacing the schedule's rules (sent before) gave them new ids
  deleteScheduleRule: async (r) => {
    const add = requestFor(all.find((x) => x.operationId === 'addScheduleRule')!, world);
    const out = await fixture('POST', add.url, add.body);
    return withParam(r, 'ruleId', String(out.rules ? out.rules.at(-1).id : out.id));
  },
  // a pre-check's total must be its tab's bill as it is when sent (other operations order on the world's tab before it)
  terminalPreCheck: async (r) => {
    const tab = await fixture('GET', `/api/v1/tabs/${world.ids.tab}`);
    const body = r.body as { content: Record<string, unknown> };
    return { ...r, body: { ...body, content: { ...body.content, totalAmount: tab.bill.totalCents } } };
  },
  // the solver routes: a party of four that fits only once the couple moves, a move onto held tables (reseatingFloor)
  getAvailability: async (r) => {
    const f = await reseatingFloor();
    return {
      ...withParam(r, 'locationId', String(f.locationId)),
      url: `/api/v1/locations/${f.locationId}/availability?date=${f.date}&partySize=4`,
    };
  },
  createBooking: async (r) => {
    const f = await reseatingFloor();
    return {
      ...r,
      body: { ...(r.body as object), locationId: f.locationId, bookingDate: f.date, startTime: '19:00', guestCount: 4 },
    };
  },
  updateBooking: async (r) => {
    const f = await reseatingFloor();
    return { ...withParam(r, 'id', f.mover), body: { tableIds: [f.four] } };
  },
  // the online-booking ones on the same floor (the staff create takes 19:00 there), and a guest's booking moved by its code
  getOnlineAvailability: async (r) => {
    const f = await reseatingFloor();
    return {
      ...withParam(r, 'locationId', String(f.locationId)),
      url: `/api/v1/online/locations/${f.locationId}/availability?date=${f.date}&partySize=4`,
    };
  },
  createOnlineBooking: async (r) => {
    const f = await reseatingFloor();
    return {
      ...r,
      body: {
        locationId: f.locationId,
        bookingDate: f.date,
        startTime: '12:00',
        guestCount: 2,
        guestName: 'Online Guest',
        guestEmail: `online-${f.locationId}@example.com`,
      },
    };
  },
  changeBookingByCode: async (r) => ({
    ...withParam(r, 'code', (await freshBooking()).confirmationCode),
    body: { startTime: '13:00' },
  }),
  // a guest's RSVP names the booking by its code
  rsvpBooking: async (r) => ({ ...r, body: { ...(r.body as object), confirmationCode: world.ids.bookingCode } }),
  // the export reads the location's export settings, which the world does not make
  exportPurchases: async (r) => {
    const put = all.find((x) => x.operationId === 'putExportSettings')!;
    await fixture('PUT', requestFor(put, world).url, requestFor(put, world).body);
    return r;
  },
};

/** A delivery as stored (no operation reads one by id), through the data layer on the fixtures' stage's table. */
const deliveryOf = async (id: string) => deliveries.get(world.company.companyId, id);

/** Sent in the pipeline's own test (a failed delivery is what it retries). */
const elsewhere = new Set(['retryWebhookDelivery']);

/**
 * A subscription to every event at `hook`, then a coursing created, each by its operation's bundle;
 * the dispatcher bundle invoked with that event's outbox item as the Pipe and the fan-out queue hand
 * it over. Answers the dispatcher, its answer, the queue calls and the messages for the subscription.
 */
async function dispatchedTo(hook: string, coursingTitle: string, order: number) {
  const subscribe = await send(
    operationFunctionName(STAGE, 'createWebhookSubscription'),
    {
      resource: '/api/v1/webhooks/subscriptions',
      method: 'POST',
      url: '/api/v1/webhooks/subscriptions',
      pathParameters: null,
      headers: {},
      body: { url: hook, events: ['*'] },
    },
    { key: world.company.keys.admin },
    true,
  );
  expect(judge(subscribe.answer, subscribe.body)).toBeNull();
  const subscriptionId = (subscribe.body as { data: { id: string } }).data.id;
  const coursing = await send(
    operationFunctionName(STAGE, 'createCoursing'),
    {
      resource: '/api/v1/coursings',
      method: 'POST',
      url: '/api/v1/coursings',
      pathParameters: null,
      headers: {},
      body: { locationId: world.ids.location, title: coursingTitle, order },
    },
    { key: world.company.keys.admin },
    true,
  );
  expect(judge(coursing.answer, coursing.body)).toBeNull();
  // Its outbox item, as the table holds it (the newest of the company's event log).
  const newest = await documents.send(
    new QueryCommand({
      TableName: HARNESS.tableName,
      KeyConditionExpression: 'pk = :pk',
      // A coursing's event is in its location's log partition (shared/data/outbox.ts).
      ExpressionAttributeValues: { ':pk': locationEventLog(world.company.companyId, world.ids.location) },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const item = newest.Items![0]!;
  expect((item.payload as { event: string }).event).toBe('coursing.created');
  sqs.resetHistory();
  const dispatcher = fnNamed(`brigade-${STAGE}-webhook-dispatcher`);
  const dispatched = (await dispatcher.invoke(
    fanOutEvent(marshall(item, { removeUndefinedValues: true }), OUTBOX_SOURCE, OUTBOX_DETAIL_TYPE),
  )) as { batchItemFailures: unknown[] };
  const batches = sqs.commandCalls(SendMessageBatchCommand);
  const messages = batches.flatMap((c) => c.args[0].input.Entries ?? []);
  const mine = messages
    .map((m) => m.MessageBody!)
    .filter((b) => (JSON.parse(b) as { subscriptionId: string }).subscriptionId === subscriptionId);
  return { dispatcher, dispatched, batches, messages, mine };
}

describe('the bundles of the synthesized dev stage', () => {
  it('reads every function of the templates and loads every bundle of ours', () => {
    expect(unreadable.map((u) => `${u.function} (${u.asset}) ${u.what}: ${u.detail}`)).toEqual([]);
    expect(functions.size).toBeGreaterThan(all.length);
  });

  it('the catalog function, invoked as its deploy trigger invokes it, seeded the permission catalog', () => {
    const fn = fnNamed(catalog.function);
    // The table was empty: the bundle must have added every built-in (an item and its key item each).
    const added = (catalog.answer as { added?: unknown[] }).added ?? [];
    record(
      fn,
      'trigger {}',
      added.length > 0 && catalog.items >= added.length,
      `${JSON.stringify(catalog.answer).slice(0, 200)}; ${catalog.items} items`,
    );
    expect(added.length, JSON.stringify(catalog.answer)).toBeGreaterThan(0);
    expect(catalog.items).toBeGreaterThanOrEqual(added.length);
  });

  it('the authorizer allows a valid key with its principal and a usage key, and lets a bad key through as anonymous (the handler answers 401)', async () => {
    const route = all.find((r) => r.operationId === 'listCoursings')!;
    const request = fromWorld(requestFor(route, world), route);
    const good = await send(
      operationFunctionName(STAGE, route.operationId),
      request,
      { key: world.company.keys.admin },
      true,
    );
    expect(JSON.parse(String(good.verdict!.context!.principal)).companyId).toBe(world.company.companyId);
    expect(good.verdict!.principalId).toMatch(/^key:/);
    const bad = await send(
      operationFunctionName(STAGE, route.operationId),
      request,
      { key: `${world.company.keys.admin.slice(0, -4)}AAAA` },
      true,
    );
    expect(bad.verdict!.context).toEqual({ anonymous: 'true' });
    expect(bad.answer.statusCode).toBe(401);
    expect((bad.body as ErrorBody).error.code).toBe('UNAUTHENTICATED');
  });

  it('every operation answers its valid request with a success', async () => {
    // A permission of the catalog for the catalog's own paths (the world makes none).
    const created = await send(
      operationFunctionName(STAGE, 'createPermission'),
      fromWorld(
        requestFor(all.find((r) => r.operationId === 'createPermission')!, world),
        all.find((r) => r.operationId === 'createPermission')!,
      ),
      { token: operatorToken },
      true,
    );
    const permissionId = (created.body as { data?: { id?: unknown } } | undefined)?.data?.id;
    record(
      fnNamed(operationFunctionName(STAGE, 'createPermission')),
      'POST /api/v1/permissions',
      judge(created.answer, created.body) === null,
      judge(created.answer, created.body) ?? '',
    );

    const requests = all
      .filter((r) => r.operationId !== 'createPermission')
      .map((route) => {
        const r = requestFor(route, world);
        if (route.path.includes('/permissions/{id}') && permissionId !== undefined) {
          r.params = { id: String(permissionId) };
          r.url = r.url.replace('{id}', String(permissionId));
          r.missing = r.missing.filter((m) => m !== 'path parameter id');
        }
        return { route, r };
      });
    // Reads first; then writes on later-made resources before earlier ones (as the sweeps order
    // them); then, the same way, the requests that end what they name.
    const rank = (r: WorldRequest) => Math.max(0, ...r.names.map((n) => creationOrder.indexOf(n)));
    const byRank = (list: typeof requests) => [...list].sort((a, b) => rank(b.r) - rank(a.r));
    const ordered = [
      ...requests.filter(({ route }) => route.method === 'GET'),
      ...byRank(requests.filter(({ route }) => route.method !== 'GET' && !ends(route))),
      ...byRank(requests.filter(({ route }) => route.method !== 'GET' && ends(route))),
    ].filter(({ route }) => !elsewhere.has(route.operationId));
    const failures: string[] = [];
    for (const { route, r: built } of ordered) {
      const name = operationFunctionName(STAGE, route.operationId);
      if (built.missing.length) {
        failures.push(`${name}: the world cannot build its request (${built.missing.join(', ')})`);
        continue;
      }
      let r = built;
      try {
        if (prepare[route.operationId]) r = await prepare[route.operationId]!(built);
      } catch (err) {
        failures.push(`${name}: its fixture failed: ${(err as Error).message.slice(0, 400)}`);
        continue;
      }
      const credential: Credential =
        route.permission === null
          ? null
          : operatorOnly(route)
            ? { token: operatorToken }
            : { key: world.company.keys.admin };
      const { answer, body } = await send(name, fromWorld(r, route), credential, route.permission !== null);
      answered.set(route.operationId, body);
      const fault = judge(answer, body, route.path);
      record(fnNamed(name), `${route.method} ${route.path}`, fault === null, fault ?? '');
      if (fault)
        failures.push(`${name} (${short(fnNamed(name).fn.assetDir)}) ${route.method} ${r.url}: ${fault.slice(0, 400)}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('the fallback answers 404 for an unknown path and 405 for a known path with another method', async () => {
    const fallback = fnNamed(`brigade-${STAGE}-fallback`);
    const notFound = await send(
      fallback.fn.name,
      {
        resource: '/{proxy+}',
        method: 'GET',
        url: '/api/v1/no-such-thing',
        pathParameters: { proxy: 'api/v1/no-such-thing' },
        headers: {},
      },
      null,
      false,
    );
    const notAllowed = await send(
      fallback.fn.name,
      {
        resource: '/{proxy+}',
        method: 'PATCH',
        url: '/api/v1/coursings',
        pathParameters: { proxy: 'api/v1/coursings' },
        headers: {},
        body: {},
      },
      null,
      false,
    );
    const ok = notFound.answer.statusCode === 404 && notAllowed.answer.statusCode === 405;
    record(
      fallback,
      '404 and 405',
      ok,
      `${notFound.answer.statusCode} ${notAllowed.answer.statusCode} ${JSON.stringify(notAllowed.answer.headers)}`,
    );
    expect((notFound.body as ErrorBody).error.code).toBe('NOT_FOUND');
    expect(notAllowed.answer.statusCode).toBe(405);
    expect((notAllowed.body as ErrorBody).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('the dispatcher turns an outbox item into a delivery record and a message on the delivery queue; the delivery bundle sends it, signed, and records it', async () => {
    const { dispatcher, dispatched, batches, messages, mine } = await dispatchedTo(PUBLIC_HOOK, 'Desserts', 3);
    const queueUrl = dispatcher.env.DELIVERY_QUEUE_URL;
    const okDispatch =
      dispatched.batchItemFailures.length === 0 &&
      mine.length === 1 &&
      batches.every((c) => c.args[0].input.QueueUrl === queueUrl);
    record(dispatcher, 'fan-out SQS event', okDispatch, `${JSON.stringify(dispatched)} ${JSON.stringify(messages)}`);
    expect(dispatched.batchItemFailures).toEqual([]);
    expect(mine).toHaveLength(1);
    const { deliveryId } = JSON.parse(mine[0]!) as { deliveryId: string };
    expect((await deliveryOf(deliveryId))?.status).toBe('pending');

    // The first attempt meets a receiver that answers 500: the message waits for its next attempt.
    const deliverer = fnNamed(`brigade-${STAGE}-webhook-delivery`);
    failNext = 1;
    const first = (await deliverer.invoke(deliveryEvent([mine[0]!]))) as { batchItemFailures: unknown[] };
    const failed = await deliveryOf(deliveryId);
    expect(first.batchItemFailures).toHaveLength(1);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(1);
    expect(failed?.status).toBe('failed');

    // A manual retry by its bundle: its outbox request, through the dispatcher, queues the delivery's next round.
    const retryRoute = all.find((r) => r.operationId === 'retryWebhookDelivery')!;
    const retry = await send(
      operationFunctionName(STAGE, retryRoute.operationId),
      {
        resource: retryRoute.path,
        method: 'POST',
        url: `/api/v1/webhooks/deliveries/${deliveryId}/retry`,
        pathParameters: { deliveryId },
        headers: {},
      },
      { key: world.company.keys.admin },
      true,
    );
    const retryFault = judge(retry.answer, retry.body);
    record(
      fnNamed(operationFunctionName(STAGE, retryRoute.operationId)),
      `POST ${retryRoute.path}`,
      retryFault === null,
      retryFault ?? '',
    );
    expect(retryFault).toBeNull();
    const request = (
      await documents.send(
        new QueryCommand({
          TableName: HARNESS.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `C#${world.company.companyId}#WHREQUESTS` },
          ScanIndexForward: false,
          Limit: 1,
        }),
      )
    ).Items![0]!;
    sqs.resetHistory();
    const requeued = (await dispatcher.invoke(
      fanOutEvent(marshall(request, { removeUndefinedValues: true }), OUTBOX_SOURCE, OUTBOX_DETAIL_TYPE),
    )) as { batchItemFailures: unknown[] };
    const next = sqs
      .commandCalls(SendMessageBatchCommand)
      .flatMap((c) => c.args[0].input.Entries ?? [])
      .map((m) => m.MessageBody!);
    expect(requeued.batchItemFailures).toEqual([]);
    expect(next.map((m) => JSON.parse(m).deliveryId)).toEqual([deliveryId]);

    received.length = 0;
    sqs.resetHistory();
    const delivered = (await deliverer.invoke(deliveryEvent(next))) as { batchItemFailures: unknown[] };
    const after = await deliveryOf(deliveryId);
    const hit = received.find((r) => r.path === new URL(PUBLIC_HOOK).pathname);
    const signed = Object.keys(hit?.headers ?? {}).some((h) => h.includes('signature'));
    const okDelivery =
      delivered.batchItemFailures.length === 0 &&
      !!hit &&
      signed &&
      after?.status === 'delivered' &&
      sqs.commandCalls(ChangeMessageVisibilityCommand).length === 0;
    record(
      deliverer,
      'delivery SQS event',
      okDelivery,
      `${JSON.stringify(delivered)} ${JSON.stringify(after)} ${JSON.stringify(hit?.headers)}`,
    );
    expect(delivered.batchItemFailures).toEqual([]);
    expect(hit, 'the receiver got no POST').toBeDefined();
    expect(signed, JSON.stringify(hit?.headers)).toBe(true);
    expect(JSON.parse(hit!.body).event).toBe('coursing.created');
    expect(after?.status).toBe('delivered');
  });

  it('a delivery that fails its last attempt is dead: the delivery bundle moves its message to the dead-letter queue', async () => {
    const { mine } = await dispatchedTo(`${PUBLIC_HOOK}/dead-letters`, 'Dead letters', 4);
    expect(mine).toHaveLength(1);
    const { deliveryId } = JSON.parse(mine[0]!) as { deliveryId: string };
    // Seven attempts failed already (a fixture: waiting out the backoff is not this test's business); the next is the last.
    await documents.send(
      new UpdateCommand({
        TableName: HARNESS.tableName,
        Key: deliveryEntity.key(world.company.companyId, deliveryId),
        UpdateExpression: 'SET attempts = :n',
        ExpressionAttributeValues: { ':n': MAX_ATTEMPTS - 1 },
      }),
    );

    const deliverer = fnNamed(`brigade-${STAGE}-webhook-delivery`);
    sqs.resetHistory();
    failNext = 1;
    const out = (await deliverer.invoke(deliveryEvent(mine))) as { batchItemFailures: unknown[] };
    const dead = sqs.commandCalls(SendMessageCommand).map((c) => c.args[0].input);
    const after = await deliveryOf(deliveryId);
    record(
      deliverer,
      'dead delivery SQS event',
      out.batchItemFailures.length === 0 && dead.length === 1 && after?.status === 'dead',
      `${JSON.stringify(out)} ${JSON.stringify(dead)} ${after?.status}`,
    );
    expect(out.batchItemFailures).toEqual([]);
    expect(dead).toEqual([{ QueueUrl: deliverer.env.DELIVERY_DLQ_URL, MessageBody: mine[0] }]);
    expect(after?.status).toBe('dead');
  });

  it("the API-key bundles keep a key's usage key in its tier's plan: created with the key, moved on a tier change, deleted with the key", async () => {
    const plans = JSON.parse(fnNamed(operationFunctionName(STAGE, 'createApiKey')).env.USAGE_PLAN_IDS!) as Record<
      string,
      string
    >;
    const op = async (
      operationId: string,
      url: string,
      pathParameters: Record<string, string> | null,
      body?: unknown,
    ) => {
      const route = all.find((r) => r.operationId === operationId)!;
      const out = await send(
        operationFunctionName(STAGE, operationId),
        {
          resource: route.path,
          method: route.method,
          url,
          pathParameters,
          headers: {},
          ...(body === undefined ? {} : { body }),
        },
        { key: world.company.keys.admin },
        true,
      );
      const fault = judge(out.answer, out.body);
      record(
        fnNamed(operationFunctionName(STAGE, operationId)),
        `${route.method} ${route.path} (usage key)`,
        fault === null,
        fault ?? '',
      );
      expect(fault).toBeNull();
      return (out.body as { data: { id: string } }).data;
    };
    const inputs = <T extends object>(command: new (input: T) => unknown) =>
      apiGateway.commandCalls(command as never).map((c) => (c.args[0] as { input: unknown }).input);

    apiGateway.resetHistory();
    const created = await op('createApiKey', '/api/v1/api-keys', null, {
      name: 'Metered key',
      tier: 'standard',
      permissions: ['bookings.read'],
    });
    const usageKey = `usagekey${usageKeys}`;
    expect(inputs(CreateApiKeyCommand)).toHaveLength(1);
    expect(inputs(CreateUsagePlanKeyCommand)).toEqual([
      { usagePlanId: plans.standard, keyId: usageKey, keyType: 'API_KEY' },
    ]);

    apiGateway.resetHistory();
    await op('updateApiKey', `/api/v1/api-keys/${created.id}`, { id: created.id }, { tier: 'premium' });
    expect(inputs(DeleteUsagePlanKeyCommand)).toEqual([{ usagePlanId: plans.standard, keyId: usageKey }]);
    expect(inputs(CreateUsagePlanKeyCommand)).toEqual([
      { usagePlanId: plans.premium, keyId: usageKey, keyType: 'API_KEY' },
    ]);

    apiGateway.resetHistory();
    await op('deleteApiKey', `/api/v1/api-keys/${created.id}`, { id: created.id });
    expect(inputs(DeleteApiKeyCommand)).toEqual([{ apiKey: usageKey }]);

    // Revoking deletes the usage key too.
    const second = await op('createApiKey', '/api/v1/api-keys', null, {
      name: 'Metered key 2',
      tier: 'standard',
      permissions: ['bookings.read'],
    });
    apiGateway.resetHistory();
    await op('revokeApiKey', `/api/v1/api-keys/${second.id}/revoke`, { id: second.id });
    expect(inputs(DeleteApiKeyCommand)).toEqual([{ apiKey: `usagekey${usageKeys}` }]);
  });

  it('the sweeper, run by its schedule, marks a due booking as a no-show', async () => {
    const made = await call('POST', '/api/v1/bookings', {
      key: world.company.keys.admin,
      body: {
        locationId: world.ids.location,
        bookingDate: world.day,
        // At a table it names, early: the booking hours in force here are whatever the run's
        // operations last set (a create that names its tables is not held to them).
        tableIds: [world.ids.table],
        startTime: '06:00',
        endTime: '07:00',
        guestCount: 2,
        guestName: 'Due Guest',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const booking = made.body.data as { id: string };
    // Its no-show falls due a minute ago (it starts a week ahead): the booking's autoNoShowAt and its sweep item
    // (shared/data/noShowSweep.ts: the hour and the booking's shard) moved as a booking due now has them. The
    // sweeper acts on the booking's own autoNoShowAt, not on the item's time alone.
    const dueAt = new Date(Date.now() - 60_000).toISOString();
    await documents.send(
      new UpdateCommand({
        TableName: HARNESS.tableName,
        Key: { pk: `C#${world.company.companyId}`, sk: `BOOKING#${booking.id}` },
        UpdateExpression: 'SET autoNoShowAt = :due',
        ExpressionAttributeValues: { ':due': dueAt },
      }),
    );
    await documents.send(
      new PutCommand({
        TableName: HARNESS.tableName,
        Item: {
          ...sweepItemKey(world.company.companyId, booking.id, dueAt),
          entity: 'NO_SHOW_SWEEP',
          companyId: world.company.companyId,
          bookingId: booking.id,
          dueAt,
        },
      }),
    );
    const sweeper = fnNamed(`brigade-${STAGE}-no-show-sweeper`);
    const ran = (await sweeper.invoke(scheduledEvent('NoShowSweeperSchedule'))) as { marked: number };
    const after = await call('GET', `/api/v1/bookings/${booking.id}`, { key: world.company.keys.admin });
    record(
      sweeper,
      'scheduled event',
      ran.marked >= 1 && after.body.data.status === 'no_show',
      `${JSON.stringify(ran)} ${after.body.data.status}`,
    );
    expect(ran.marked).toBeGreaterThanOrEqual(1);
    expect(after.body.data.status).toBe('no_show');
  });

  it("the solver routes' bundles re-seat: availability offered a party of four at 19:00, create seated it on the four-top by moving the couple to the two-top, and update moved a couple onto the four-top by moving its holder, and an offer of the four-top moved the couple holding it", async () => {
    expect(reseatFloor, 'the sweep sent no request that needs re-seating').toBeDefined();
    const f = await reseatFloor!;
    const slots = (answered.get('getAvailability') as { data: { slots: { time: string; available: boolean }[] } }).data
      .slots;
    expect(slots.find((s) => s.time === '19:00')).toMatchObject({ available: true });
    const created = (answered.get('createBooking') as { data: { id: string; tableIds: string[] } }).data;
    expect(created.tableIds).toEqual([f.four]);
    expect((await fixture('GET', `/api/v1/bookings/${f.couple}`)).tableIds).toEqual([f.two]);
    const moved = (answered.get('updateBooking') as { data: { id: string; tableIds: string[] } }).data;
    expect(moved).toMatchObject({ id: f.mover, tableIds: [f.four] });
    expect((await fixture('GET', `/api/v1/bookings/${f.holder}`)).tableIds).toEqual([f.two]);
    const offered = (answered.get('offerWaitlistSpot') as { data: { id: string; offer: { tableIds: string[] } } }).data;
    expect(offered).toMatchObject({ id: f.waiter, offer: { tableIds: [f.four] } });
    expect((await fixture('GET', `/api/v1/bookings/${f.offerHolder}`)).tableIds).toEqual([f.two]);
  });

  it("the solver routes' functions find HiGHS in the solver layer the assembly built, and the solver module solves a 0-1 program with it; their bundles hold none of HiGHS", async () => {
    const solverFunctions = all
      .filter((r) => r.solver)
      .map((r) => fnNamed(operationFunctionName(STAGE, r.operationId)));
    expect(solverFunctions.map((f) => f.fn.name).sort()).toEqual([
      `brigade-${STAGE}-changeBookingByCode`,
      `brigade-${STAGE}-createBooking`,
      `brigade-${STAGE}-createOnlineBooking`,
      `brigade-${STAGE}-getAvailability`,
      `brigade-${STAGE}-getOnlineAvailability`,
      `brigade-${STAGE}-offerWaitlistSpot`,
      `brigade-${STAGE}-updateBooking`,
    ]);
    const sizes: Record<string, number> = {};
    for (const f of solverFunctions) {
      // The template's /opt/brigade-solver/highs.mjs, as this run resolved it: the file in the layer's asset.
      expect(f.fn.layerDirs.map((d) => join(d, 'brigade-solver', 'highs.mjs'))).toContain(f.env.BRIGADE_SOLVER_MODULE);
      const bundle = readFileSync(join(f.fn.assetDir, 'index.mjs'));
      sizes[f.fn.name] = bundle.length;
      expect(bundle.length, f.fn.name).toBeLessThanOrEqual(BUNDLE_BUDGET_BYTES);
      expect(bundle.includes('highs.wasm'), f.fn.name).toBe(false);
    }
    console.log(`solver routes' bundles (bytes): ${JSON.stringify(sizes)}`);

    // shared/domain/bookings/solver.ts bundled as the handlers bundle it, loaded by Node with the
    // function's BRIGADE_SOLVER_MODULE: loadSolver imports HiGHS from the assembly's layer.
    const work = mkdtempSync(join(tmpdir(), 'brigade-bundles-solver-'));
    const saved = process.env.BRIGADE_SOLVER_MODULE;
    try {
      const outfile = join(work, 'solver.mjs');
      await build({
        absWorkingDir: new URL('../..', import.meta.url).pathname,
        entryPoints: ['shared/domain/bookings/solver.ts'],
        outfile,
        ...ESBUILD_OPTIONS,
        logLevel: 'silent',
      });
      process.env.BRIGADE_SOLVER_MODULE = solverFunctions[0]!.env.BRIGADE_SOLVER_MODULE;
      const { loadSolver } = (await nativeImport(
        pathToFileURL(outfile).href,
      )) as typeof import('../../shared/domain/bookings/solver');
      const solver = await loadSolver();
      // Two of three items, the middle one excluding both others: the best is the outer two.
      const x = solver.solveBinary({
        columns: 3,
        cost: [-3, -5, -4],
        rows: [
          { columns: [0, 1], lower: 0, upper: 1 },
          { columns: [1, 2], lower: 0, upper: 1 },
        ],
        maxNodes: 100,
        timeLimitSeconds: 2,
      });
      expect(x && [...x]).toEqual([1, 0, 1]);
    } finally {
      if (saved === undefined) delete process.env.BRIGADE_SOLVER_MODULE;
      else process.env.BRIGADE_SOLVER_MODULE = saved;
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('every function of ours answered at least one request with a success', () => {
    const succeeded = new Set(outcomes.filter((o) => o.ok).map((o) => o.function));
    expect([...functions.keys()].filter((n) => !succeeded.has(n))).toEqual([]);
    expect(excluded.map((e) => e.function)).toHaveLength(notOurs.length);
  });

  it('every AWS call a bundle made is allowed by the role its function has in the assembly', async () => {
    callLog.flush();
    const report = await checkCalls({ dir: cdkOut, stackName: HARNESS.stackName }, readCallLogs(CALL_LOG_DIR), {
      declared: false,
    });
    writeIamReport(report, new URL('../../.local/iam-bundles.json', import.meta.url).pathname);
    const unattributed = report.unattributed.reduce((n, c) => n + c.count, 0);
    console.log(
      `IAM (bundles): ${report.calls} calls evaluated, ${report.distinct} distinct, ${report.denied.length} denied; functions ${report.exercised.length} of ${report.functions}` +
        ` (without an AWS call: ${report.missing.length}; the harness's own calls, not a function's: ${unattributed})`,
    );
    expect(report.denied).toEqual([]);
    // The product's SQS and API Gateway calls are among them (mocked services, real requests).
    const observed = (fn: string) => report.observedActions[`brigade-${STAGE}-${fn}`] ?? [];
    expect(observed('createApiKey')).toEqual(expect.arrayContaining(['apigateway:POST']));
    expect(observed('updateApiKey')).toEqual(expect.arrayContaining(['apigateway:DELETE', 'apigateway:POST']));
    expect(observed('deleteApiKey')).toEqual(expect.arrayContaining(['apigateway:DELETE']));
    expect(observed('revokeApiKey')).toEqual(expect.arrayContaining(['apigateway:DELETE']));
    expect(observed('webhook-dispatcher')).toEqual(expect.arrayContaining(['sqs:SendMessage']));
    expect(observed('webhook-delivery')).toEqual(
      expect.arrayContaining(['sqs:ChangeMessageVisibility', 'sqs:SendMessage']),
    );
  });
});
