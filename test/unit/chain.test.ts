/**
 * The Middy chain, in process, with DynamoDB mocked: authentication, the rate window, permissions,
 * body handling, validation and the error envelope, in the order the contract needs.
 */
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { locationEntity } from '../../shared/data/locations';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { rateLeases } from '../../shared/domain/rateLeases';
import { generateApiKey } from '../../shared/auth/apiKey';
import { clearKeyCache } from '../../shared/auth/authenticate';
import { tierLimits, type Principal } from '../../shared/auth/principal';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { invokeThroughGateway } from '../../bin/local/gateway';
import { windowAt } from '../../shared/domain/rateWindow';
import { holdReadiness, releaseReadiness } from '../../shared/domain/serving';
import { handler as createCoursing } from '../../functions/coursings/create';
import { handler as listCoursings } from '../../functions/coursings/list';
import { handler as updateCoursing } from '../../functions/coursings/update';
import { handler as getLocation } from '../../functions/locations/get';
import { handler as live } from '../../functions/health/live';
import { handler as ready } from '../../functions/health/ready';
import { handler as health } from '../../functions/health/health';
import { gatewayEvent } from '../support/chain';
import { wrongByOne } from '../support/wrong-key';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);

let key: string;
let keyHash: string;
let keyId: string;
const context = { awsRequestId: 'ctx', getRemainingTimeInMillis: () => 5000 } as unknown as Context;

const event = gatewayEvent;

/**
 * As API Gateway calls a function: the probes directly, the operations behind the authorizer
 * through it (bin/local/gateway.ts), unless the test hands over the authorizer's verdict itself.
 */
const probes = new Set<unknown>([live, ready, health]);
const invoke = async (fn: typeof listCoursings, e: APIGatewayProxyEvent) => {
  const direct = probes.has(fn) || e.requestContext.authorizer != null;
  const out = direct
    ? await fn(e, context)
    : await invokeThroughGateway({ permission: 'behind-the-authorizer' }, fn, e, context);
  return { ...out, json: JSON.parse(out.body) };
};

function keyRecord(overrides: Record<string, unknown> = {}) {
  return {
    apiKeyId: '6f0c1f4e-1111-4a4a-8a8a-000000000001',
    companyId: 1,
    hash: keyHash,
    tier: 'standard',
    permissions: ['coursings.read', 'coursings.create'],
    locationIds: null,
    revoked: false,
    usageKey: null,
    ...overrides,
  };
}

beforeAll(async () => {
  ({ plaintext: key, hash: keyHash, keyId } = await generateApiKey('local'));
});

/**
 * The rate window is the clock hour. Tests of its headers stop the clock (Date only: timers still
 * run) at the last millisecond of an hour, where any later reading of the clock would name the
 * next window: the chain and the expectations must agree on one instant.
 */
const FROZEN = Date.parse('2027-06-01T09:59:59.999Z');
function freezeTheClock() {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: FROZEN });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

beforeEach(() => {
  ddb.reset();
  clearKeyCache();
  rateLeases.forget(); // a fresh container: its first request of a window leases one

  ddb.on(GetCommand).resolves({}); // DynamoDB answers a missing item with no Item
  ddb.on(GetCommand, { Key: { pk: `KEY#${keyId}`, sk: 'KEY' } }).resolves({ Item: keyRecord() });
  ddb.on(UpdateCommand).resolves({ Attributes: { n: 7 } });
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(GetCommand, { ProjectionExpression: 'n' }).resolves({ Item: { n: 0 } });
  ddb.on(TransactWriteCommand).resolves({});
});

describe('authentication', () => {
  it('answers 401 in the envelope, with rate headers, when no credential is sent', async () => {
    const out = await invoke(listCoursings, event());
    expect(out.statusCode).toBe(401);
    expect(out.json).toEqual({
      status: 'error',
      error: { code: 'UNAUTHENTICATED', message: expect.any(String), details: [] },
      meta: { requestId: 'req-1' },
    });
    expect(out.headers).toMatchObject({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '993',
      'X-Request-Id': 'req-1',
    });
    // An anonymous request counts against its IP's window.
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input.Key).toMatchObject({ pk: 'RATE#ip:203.0.113.9' });
  });

  it("counts an anonymous request against the gateway's source address, never X-Forwarded-For, and an IPv6 client by its /64", async () => {
    await invoke(listCoursings, event({ headers: { 'X-Forwarded-For': '198.51.100.1', 'X-Real-Ip': '198.51.100.2' } }));
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input.Key).toMatchObject({ pk: 'RATE#ip:203.0.113.9' });
    const ipv6 = (sourceIp: string) =>
      event({
        requestContext: { requestId: 'req-6', identity: { sourceIp } } as APIGatewayProxyEvent['requestContext'],
      });
    await invoke(listCoursings, ipv6('2001:db8:aa:1:1111:2222:3333:4444'));
    await invoke(listCoursings, ipv6('2001:DB8:AA:1::9'));
    expect(
      ddb
        .commandCalls(UpdateCommand)
        .slice(1)
        .map((c) => c.args[0].input.Key),
    ).toEqual([
      expect.objectContaining({ pk: 'RATE#ip:2001:db8:aa:1::/64' }),
      expect.objectContaining({ pk: 'RATE#ip:2001:db8:aa:1::/64' }),
    ]);
  });

  it('answers 401 for a wrong secret, an unknown keyId, a malformed key and a revoked key', async () => {
    const wrongSecret = wrongByOne(key);
    const unknown = `brigade_dev_zzzzzzzzzzzz_${'A'.repeat(40)}`;
    for (const k of [wrongSecret, unknown, 'not-a-key']) {
      expect((await invoke(listCoursings, event({ headers: { 'X-API-Key': k } }))).statusCode).toBe(401);
    }
    ddb.on(GetCommand, { Key: { pk: `KEY#${keyId}`, sk: 'KEY' } }).resolves({ Item: keyRecord({ revoked: true }) });
    expect((await invoke(listCoursings, event({ headers: { 'X-API-Key': key } }))).statusCode).toBe(401);
  });

  it('verifies a key with bcrypt once and then serves it from the cache', async () => {
    for (let i = 0; i < 3; i++)
      expect((await invoke(listCoursings, event({ headers: { 'x-api-key': key } }))).statusCode).toBe(200);
    const lookups = ddb.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.pk === `KEY#${keyId}`);
    expect(lookups).toHaveLength(1);
  });

  it('trusts the principal the API Gateway authorizer passed', async () => {
    const principal: Principal = {
      kind: 'apiKey',
      companyId: 1,
      permissions: ['coursings.read'],
      tier: 'premium',
      locationIds: null,
      rateSubject: 'key:abc',
      internalOperator: false,
    };
    const e = event();
    e.requestContext.authorizer = { principal: JSON.stringify(principal) };
    const out = await invoke(listCoursings, e);
    expect(out.statusCode).toBe(200);
    expect(out.headers!['X-RateLimit-Limit']).toBe(String(tierLimits.premium));
    expect(ddb.commandCalls(GetCommand).some((c) => String(c.args[0].input.Key?.pk).startsWith('KEY#'))).toBe(false);
  });

  it('never verifies a credential itself behind the authorizer: without a verdict it answers 401 and reads no key', async () => {
    const out = (await listCoursings(event({ headers: { 'X-API-Key': key } }), context)) as APIGatewayProxyResult;
    expect(out.statusCode).toBe(401);
    expect(ddb.commandCalls(GetCommand).some((c) => String(c.args[0].input.Key?.pk).startsWith('KEY#'))).toBe(false);
  });

  it('answers 503 from the gateway, and runs no handler, when the authorizer cannot check the key', async () => {
    ddb
      .on(GetCommand, { Key: { pk: `KEY#${keyId}`, sk: 'KEY' } })
      .rejects(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const out = await invoke(listCoursings, event({ headers: { 'X-API-Key': key } }));
    expect(out.statusCode).toBe(503);
    expect(out.json.error.code).toBe('UNAVAILABLE');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0); // the handler's rate window never ran
  });

  it('answers 401 itself when the authorizer found the caller anonymous', async () => {
    const e = event({ headers: { 'X-API-Key': 'garbage' } });
    e.requestContext.authorizer = { anonymous: 'true' };
    expect((await invoke(listCoursings, e)).statusCode).toBe(401);
  });
});

describe('rate window', () => {
  freezeTheClock();

  it('refuses over the limit with Retry-After, writing nothing', async () => {
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('full'), { name: 'ConditionalCheckFailedException' }));
    const out = await invoke(
      createCoursing,
      event({
        httpMethod: 'POST',
        headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
        body: JSON.stringify({ locationId: 101, title: 'Mains', order: 2 }),
      }),
    );
    expect(out.statusCode).toBe(429);
    expect(out.json.error.code).toBe('RATE_LIMITED');
    expect(out.headers!['Retry-After']).toBe('1'); // the window ends a millisecond later; Retry-After is at least 1
    expect(out.headers).toMatchObject({
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(windowAt(FROZEN).end),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('never refuses a health probe, even when the window is full or the database is down', async () => {
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('full'), { name: 'ConditionalCheckFailedException' }));
    expect((await invoke(live, event({ path: '/live' }))).statusCode).toBe(200);
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const out = await invoke(live, event({ path: '/live' }));
    expect(out.statusCode).toBe(200);
    expect(out.json.status).toBe('alive');
    expect(out.headers!['X-RateLimit-Limit']).toBe('1000');
  });

  it('answers 503 UNAVAILABLE when the database cannot be reached', async () => {
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const out = await invoke(listCoursings, event({ headers: { 'X-API-Key': key } }));
    expect(out.statusCode).toBe(503);
    expect(out.json.error.code).toBe('UNAVAILABLE');
  });
});

describe('the rate window beside the work', () => {
  freezeTheClock();
  // Through the authorizer's principal: no key lookup, so every GetItem below is the operation's.
  const principal: Principal = {
    kind: 'apiKey',
    companyId: 1,
    permissions: ['locations.read', 'coursings.update'],
    tier: 'standard',
    locationIds: null,
    rateSubject: 'key:beside',
    internalOperator: false,
  };
  const authorized = (e: APIGatewayProxyEvent, as: Principal = principal) => {
    e.requestContext.authorizer = { principal: JSON.stringify(as) };
    return e;
  };
  const readLocation = () =>
    authorized(
      event({
        resource: '/api/v1/locations/{locationId}',
        path: '/api/v1/locations/101',
        pathParameters: { locationId: '101' },
      }),
    );
  const coursingId = '3f1c8a52-6d4e-4b7a-9c21-5e8f0a6b2d19';
  const renameCoursing = () =>
    authorized(
      event({
        httpMethod: 'PUT',
        resource: '/api/v1/coursings/{id}',
        path: `/api/v1/coursings/${coursingId}`,
        pathParameters: { id: coursingId },
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'Desserts' }),
      }),
    );
  const stamp = '2026-11-01T12:00:00.000Z';
  const location = {
    id: 101,
    name: 'Bistro',
    timezone: 'Europe/Stockholm',
    operatingHours: {},
    address: null,
    phone: null,
    createdAt: stamp,
    updatedAt: stamp,
    version: 1,
  };
  const coursing = {
    id: coursingId,
    locationId: 101,
    title: 'Starters',
    order: 1,
    color: null,
    version: 2,
    createdAt: stamp,
    updatedAt: stamp,
  };
  const refusal = () => Object.assign(new Error('full'), { name: 'ConditionalCheckFailedException' });
  const windowFull = {
    'X-RateLimit-Limit': '1000',
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(windowAt(FROZEN).end),
  };

  function signal() {
    let fire!: () => void;
    const fired = new Promise<void>((r) => (fire = r));
    return { fire, fired };
  }
  /** After everything already queued has run: the microtasks an operation needs between its read and its write. */
  const settled = () => new Promise((r) => setImmediate(r));

  it('has the UpdateItem and the read in flight together', async () => {
    // Each answers only once the other was sent: if either waited for the other, neither would ever answer.
    const [updateSent, readSent] = [signal(), signal()];
    ddb.on(UpdateCommand).callsFake(async () => {
      updateSent.fire();
      await readSent.fired;
      return { Attributes: { n: 7 } };
    });
    ddb.on(GetCommand).callsFake(async () => {
      readSent.fire();
      await updateSent.fired;
      return { Item: location };
    });
    const out = await invoke(getLocation, readLocation());
    expect(out.statusCode).toBe(200);
    expect(out.json.data).toEqual(location);
    expect(out.headers).toMatchObject({
      'X-RateLimit-Limit': '1000',
      'X-RateLimit-Remaining': '993',
      'X-RateLimit-Reset': String(windowAt(FROZEN).end),
    });
  });

  it('answers 429 instead of what was read when the window refuses', async () => {
    const readDone = signal();
    ddb.on(GetCommand).callsFake(async () => {
      readDone.fire();
      return { Item: location };
    });
    ddb.on(UpdateCommand).callsFake(async () => {
      await readDone.fired;
      throw refusal();
    });
    const out = await invoke(getLocation, readLocation());
    expect(out.statusCode).toBe(429);
    expect(out.json.error.code).toBe('RATE_LIMITED');
    expect(out.body).not.toContain('Bistro');
    expect(Number(out.headers!['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(out.headers).toMatchObject(windowFull);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
  });

  it('answers 429, not 404, when the window refuses a read of nothing; 404 with exact headers when it allows', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(UpdateCommand).rejects(refusal());
    const refused = await invoke(getLocation, readLocation());
    expect(refused.statusCode).toBe(429);
    expect(refused.headers).toMatchObject(windowFull);

    rateLeases.forget(); // another container (this one remembers the window full until the hour ends)
    ddb.on(UpdateCommand).resolves({ Attributes: { n: 12 } });
    const missing = await invoke(getLocation, readLocation());
    expect(missing.statusCode).toBe(404);
    expect(missing.headers).toMatchObject({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '988' });
  });

  it('counts a request the permission check refuses: 403 with exact headers, 429 when the window is full', async () => {
    const noRead: Principal = { ...principal, permissions: ['coursings.read'] };
    ddb.on(UpdateCommand).resolves({ Attributes: { n: 30 } });
    const forbidden = await invoke(getLocation, authorized(readLocation(), noRead));
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.headers).toMatchObject({ 'X-RateLimit-Remaining': '970' });
    ddb.on(UpdateCommand).rejects(refusal());
    expect((await invoke(getLocation, authorized(readLocation(), noRead))).statusCode).toBe(429);
    // The first request leased 1; the second asked for a block of 2, then for 1, and found the window full.
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(3);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('lets an update read beside the window, but never sends its write when the window refuses', async () => {
    const readDone = signal();
    ddb.on(GetCommand).callsFake(async () => {
      readDone.fire();
      return { Item: coursing };
    });
    // The refusal comes only after the operation had every chance to write: the write must have waited for it.
    ddb.on(UpdateCommand).callsFake(async () => {
      await readDone.fired;
      await settled();
      throw refusal();
    });
    const out = await invoke(updateCoursing, renameCoursing());
    expect(out.statusCode).toBe(429);
    expect(out.headers).toMatchObject(windowFull);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(1);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('sends an allowed write only after the window has counted the request', async () => {
    const readDone = signal();
    let counted = false;
    ddb.on(GetCommand).callsFake(async () => {
      readDone.fire();
      return { Item: coursing };
    });
    ddb.on(UpdateCommand).callsFake(async () => {
      await readDone.fired;
      await settled();
      counted = true;
      return { Attributes: { n: 1 } };
    });
    let countedBeforeWrite: boolean | undefined;
    ddb.on(TransactWriteCommand).callsFake(async () => {
      countedBeforeWrite = counted;
      return {};
    });
    const out = await invoke(updateCoursing, renameCoursing());
    expect(out.statusCode).toBe(200);
    expect(out.json.data).toMatchObject({ title: 'Desserts', version: 3 });
    expect(out.headers).toMatchObject({ 'X-RateLimit-Remaining': '999' });
    expect(countedBeforeWrite).toBe(true);
  });

  it('answers 503, writing nothing, when the window cannot be counted', async () => {
    ddb.on(GetCommand).resolves({ Item: coursing });
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    const read = await invoke(getLocation, readLocation());
    expect(read.statusCode).toBe(503);
    const write = await invoke(updateCoursing, renameCoursing());
    expect(write.statusCode).toBe(503);
    expect(write.json.error.code).toBe('UNAVAILABLE');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('CORS headers of the answers (shared/http/cors.ts)', () => {
  const withOrigins = async <T>(origins: string, run: () => Promise<T>): Promise<T> => {
    process.env.CORS_ORIGINS = origins;
    resetConfig();
    try {
      return await run();
    } finally {
      delete process.env.CORS_ORIGINS;
      resetConfig();
    }
  };

  it('lets any origin read a public answer, and lists the headers a script may read', async () => {
    const out = await invoke(live, event({ path: '/live', headers: { Origin: 'https://guest.example' } }));
    expect(out.headers).toMatchObject({ 'Access-Control-Allow-Origin': '*' });
    expect(String(out.headers!['Access-Control-Expose-Headers']).split(',')).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Remaining', 'Retry-After']),
    );
  });

  it('gives an operation with a credential no CORS header on a stage without origins', async () => {
    const out = await invoke(listCoursings, event({ headers: { 'X-API-Key': key, Origin: 'https://app.example' } }));
    expect(Object.keys(out.headers ?? {}).filter((h) => h.startsWith('Access-Control') || h === 'Vary')).toEqual([]);
  });

  it('echoes a listed origin with Vary: Origin, on success and error alike, and nothing for another origin', async () => {
    await withOrigins('https://app.example,https://pos.example', async () => {
      const ok = await invoke(listCoursings, event({ headers: { 'X-API-Key': key, origin: 'https://pos.example' } }));
      expect(ok.headers).toMatchObject({ 'Access-Control-Allow-Origin': 'https://pos.example', Vary: 'Origin' });
      const refused = await invoke(listCoursings, event({ headers: { Origin: 'https://app.example' } }));
      expect(refused.statusCode).toBe(401);
      expect(refused.headers).toMatchObject({ 'Access-Control-Allow-Origin': 'https://app.example', Vary: 'Origin' });
      const other = await invoke(
        listCoursings,
        event({ headers: { 'X-API-Key': key, Origin: 'https://evil.example' } }),
      );
      expect(other.headers).not.toHaveProperty('Access-Control-Allow-Origin');
      expect(other.headers).toMatchObject({ Vary: 'Origin' });
    });
  });
});

describe('permission, body and validation', () => {
  const post = (body: string | null, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    invoke(createCoursing, event({ httpMethod: 'POST', headers: { 'X-API-Key': key, ...headers }, body }));

  it('answers 403 when the credential lacks the permission', async () => {
    ddb
      .on(GetCommand, { Key: { pk: `KEY#${keyId}`, sk: 'KEY' } })
      .resolves({ Item: keyRecord({ permissions: ['coursings.read'] }) });
    const out = await post(JSON.stringify({ locationId: 101, title: 'Mains', order: 2 }));
    expect(out.statusCode).toBe(403);
    expect(out.json.error.code).toBe('FORBIDDEN');
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers 400 for malformed JSON', async () => {
    const out = await post('{"title": ');
    expect(out.statusCode).toBe(400);
    expect(out.json.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 415 for a body of another content type', async () => {
    const out = await post('title=Mains', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(out.statusCode).toBe(415);
    expect(out.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts JSON with a charset and vendor JSON types', async () => {
    const body = JSON.stringify({ locationId: 101, title: 'Mains', order: 2 });
    expect((await post(body, { 'Content-Type': 'application/json; charset=utf-8' })).statusCode).toBe(200);
  });

  it('decodes a base64 body as API Gateway hands it over (every media type is binary), before parsing and validation', async () => {
    const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    const encoded = (text: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
      invoke(
        createCoursing,
        event({
          httpMethod: 'POST',
          headers: { 'X-API-Key': key, ...headers },
          body: base64(text),
          isBase64Encoded: true,
        }),
      );
    const ok = await encoded(JSON.stringify({ locationId: 101, title: 'Smårätter', order: 2 }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json.data).toMatchObject({ title: 'Smårätter', order: 2 });
    const invalid = await encoded(JSON.stringify({ locationId: 101, title: '', order: 2 }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json.error.details).toEqual([{ path: '/title', message: expect.any(String) }]);
    expect((await encoded('{"title": ')).json.error.code).toBe('VALIDATION_FAILED');
    expect((await encoded('title=Mains', { 'Content-Type': 'application/x-www-form-urlencoded' })).statusCode).toBe(
      415,
    );
    // The limit is on the decoded body: base64 text is a third longer.
    const nearLimit = JSON.stringify({ locationId: 101, title: 'x'.repeat(250 * 1024), order: 1 });
    expect(base64(nearLimit).length).toBeGreaterThan(256 * 1024);
    expect((await encoded(nearLimit)).json.error.code).not.toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 413 over 256 KiB, before parsing', async () => {
    const out = await post(JSON.stringify({ locationId: 101, title: 'x'.repeat(256 * 1024), order: 1 }));
    expect(out.statusCode).toBe(413);
    expect(out.json.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 400 with a details entry per field problem', async () => {
    const out = await post(JSON.stringify({ title: '', order: 101, color: 'red', extra: 1 }));
    expect(out.statusCode).toBe(400);
    expect(out.json.error.details).toEqual(
      expect.arrayContaining([
        { path: '/locationId', message: 'is required' },
        { path: '/title', message: expect.any(String) },
        { path: '/order', message: expect.stringContaining('100') },
        { path: '/color', message: expect.any(String) },
        { path: '/extra', message: 'is not an accepted field' },
      ]),
    );
  });

  it('answers 400 when a body is required and absent', async () => {
    const out = await post(null, {});
    expect(out.statusCode).toBe(400);
    expect(out.json.error.details).toEqual([{ path: '/', message: 'a JSON body is required' }]);
  });

  it('coerces query strings and fills defaults; rejects out-of-bounds paging', async () => {
    // An empty page reads the location, to tell "none here" from "no such location" (listedAt).
    ddb
      .on(GetCommand, { Key: locationEntity.key(1, 101) })
      .resolves({ Item: { ...locationEntity.key(1, 101), id: 101 } });
    const ok = await invoke(
      listCoursings,
      event({ headers: { 'X-API-Key': key }, queryStringParameters: { locationId: '101' } }),
    );
    expect(ok.json.meta.pagination).toMatchObject({ page: 1, limit: 20 });
    const bad = await invoke(
      listCoursings,
      event({ headers: { 'X-API-Key': key }, queryStringParameters: { limit: '101', page: '0' } }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/limit', '/page']);
  });

  it('does not read the body of a GET: a list and a probe answer as without one, not 413, 415 or 400 (found by the fuzz)', async () => {
    const bodies: [string, Record<string, string>][] = [
      ['x'.repeat(300 * 1024), { 'Content-Type': 'application/json' }],
      ['title=Mains', { 'Content-Type': 'text/plain' }],
      ['{"title": ', { 'Content-Type': 'application/json' }],
    ];
    for (const [body, headers] of bodies) {
      const list = await invoke(listCoursings, event({ headers: { 'X-API-Key': key, ...headers }, body }));
      expect(list.statusCode, body.slice(0, 20)).toBe(200);
      expect(list.json.meta.pagination).toMatchObject({ page: 1 });
      const probe = await invoke(live, event({ path: '/live', headers, body }));
      expect(probe.statusCode, body.slice(0, 20)).toBe(200);
      expect(probe.json.status).toBe('alive');
    }
  });

  it('hides internal errors behind a 500 with the request id', async () => {
    ddb.on(QueryCommand).rejects(new Error('secret internal detail'));
    const out = await invoke(listCoursings, event({ headers: { 'X-API-Key': key } }));
    expect(out.statusCode).toBe(500);
    expect(out.json.error.code).toBe('INTERNAL');
    expect(out.body).not.toContain('secret internal detail');
    expect(out.json.meta.requestId).toBe('req-1');
  });
});

describe('health probes', () => {
  const probeKey = { Key: { pk: 'HEALTH', sk: 'HEALTH' } };

  it('/ready is healthy when the table answers fast', async () => {
    ddb.on(GetCommand, probeKey).resolves({});
    const out = await invoke(ready, event({ path: '/ready' }));
    expect(out.statusCode).toBe(200);
    expect(out.json).toMatchObject({
      status: 'healthy',
      dependencies: { database: { status: 'healthy', error: null } },
    });
  });

  it('/ready is degraded when the table is slow, /health still healthy', async () => {
    ddb.on(GetCommand, probeKey).callsFake(() => new Promise((r) => setTimeout(() => r({}), 300)));
    const out = await invoke(ready, event({ path: '/ready' }));
    expect(out.statusCode).toBe(200);
    expect(out.json.status).toBe('degraded');
    expect(out.json.dependencies.database.responseTimeMs).toBeGreaterThan(250);
    expect((await invoke(health, event({ path: '/health' }))).json.status).toBe('healthy');
  });

  it('/ready and /health are unhealthy (503) with the error when the table is down', async () => {
    ddb
      .on(GetCommand, probeKey)
      .rejects(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { name: 'Error', code: 'ECONNREFUSED' }));
    const r = await invoke(ready, event({ path: '/ready' }));
    expect(r.statusCode).toBe(503);
    expect(r.json).toMatchObject({
      status: 'unhealthy',
      dependencies: { database: { status: 'unhealthy', error: expect.stringContaining('unreachable') } },
    });
    const h = await invoke(health, event({ path: '/health' }));
    expect(h.statusCode).toBe(503);
    expect(h.json).toMatchObject({
      status: 'unhealthy',
      data: { database: { status: 'unhealthy' }, cache: { status: 'healthy' } },
    });
  });
  it('/ready is unhealthy (503) while the process holds its readiness (the local stage seeding), whatever the table says', async () => {
    ddb.on(GetCommand, probeKey).resolves({});
    holdReadiness('the local stage is seeding');
    try {
      const held = await invoke(ready, event({ path: '/ready' }));
      expect(held.statusCode).toBe(503);
      expect(held.json).toMatchObject({
        status: 'unhealthy',
        dependencies: {
          database: { status: 'healthy' },
          startup: { status: 'unhealthy', error: 'the local stage is seeding' },
        },
      });
    } finally {
      releaseReadiness();
    }
    // Released (and never held on AWS): the table alone decides, and no startup entry is given.
    const out = await invoke(ready, event({ path: '/ready' }));
    expect(out.statusCode).toBe(200);
    expect(out.json.dependencies).toEqual({ database: expect.objectContaining({ status: 'healthy' }) });
  });
});
