/**
 * The Middy chain, in process, with DynamoDB mocked: authentication, the rate window, permissions,
 * body handling, validation and the error envelope, in the order the contract needs.
 */
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../shared/auth/apiKey';
import { clearKeyCache } from '../../shared/auth/authenticate';
import { tierLimits, type Principal } from '../../shared/auth/principal';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { windowAt } from '../../shared/domain/rateWindow';
import { handler as createCoursing } from '../../functions/coursings/create';
import { handler as listCoursings } from '../../functions/coursings/list';
import { handler as live } from '../../functions/health/live';
import { handler as ready } from '../../functions/health/ready';
import { handler as health } from '../../functions/health/health';

process.env.STAGE = 'local';
process.env.TABLE_NAME = 'unit';
resetConfig();
setDb(undefined);
const ddb = mockClient(DynamoDBDocumentClient);

let key: string;
let keyHash: string;
let keyId: string;
const context = { awsRequestId: 'ctx', getRemainingTimeInMillis: () => 5000 } as unknown as Context;

function event(overrides: Partial<APIGatewayProxyEvent> & { headers?: Record<string, string> } = {}): APIGatewayProxyEvent {
  return {
    resource: '/api/v1/coursings',
    path: '/api/v1/coursings',
    httpMethod: 'GET',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', identity: { sourceIp: '203.0.113.9' } } as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

const invoke = async (fn: typeof listCoursings, e: APIGatewayProxyEvent) => {
  const out = (await fn(e, context)) as APIGatewayProxyResult;
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

beforeEach(() => {
  ddb.reset();
  clearKeyCache();
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
    expect(out.headers).toMatchObject({ 'X-RateLimit-Limit': '1000', 'X-RateLimit-Remaining': '993', 'X-Request-Id': 'req-1' });
    // An anonymous request counts against its IP's window.
    expect(ddb.commandCalls(UpdateCommand)[0]!.args[0].input.Key).toMatchObject({ pk: 'RATE#ip:203.0.113.9' });
  });

  it('answers 401 for a wrong secret, an unknown keyId, a malformed key and a revoked key', async () => {
    const wrongSecret = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
    const unknown = `brigade_dev_zzzzzzzzzzzz_${'A'.repeat(40)}`;
    for (const k of [wrongSecret, unknown, 'not-a-key']) {
      expect((await invoke(listCoursings, event({ headers: { 'X-API-Key': k } }))).statusCode).toBe(401);
    }
    ddb.on(GetCommand, { Key: { pk: `KEY#${keyId}`, sk: 'KEY' } }).resolves({ Item: keyRecord({ revoked: true }) });
    expect((await invoke(listCoursings, event({ headers: { 'X-API-Key': key } }))).statusCode).toBe(401);
  });

  it('verifies a key with bcrypt once and then serves it from the cache', async () => {
    for (let i = 0; i < 3; i++) expect((await invoke(listCoursings, event({ headers: { 'x-api-key': key } }))).statusCode).toBe(200);
    const lookups = ddb.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.pk === `KEY#${keyId}`);
    expect(lookups).toHaveLength(1);
  });

  it('trusts the principal the API Gateway authorizer passed', async () => {
    const principal: Principal = { kind: 'apiKey', companyId: 1, permissions: ['coursings.read'], tier: 'premium', locationIds: null, rateSubject: 'key:abc', internalOperator: false };
    const e = event();
    e.requestContext.authorizer = { principal: JSON.stringify(principal) };
    const out = await invoke(listCoursings, e);
    expect(out.statusCode).toBe(200);
    expect(out.headers!['X-RateLimit-Limit']).toBe(String(tierLimits.premium));
    expect(ddb.commandCalls(GetCommand).some((c) => String(c.args[0].input.Key?.pk).startsWith('KEY#'))).toBe(false);
  });

  it('answers 401 itself when the authorizer found the caller anonymous', async () => {
    const e = event({ headers: { 'X-API-Key': 'garbage' } });
    e.requestContext.authorizer = { anonymous: 'true' };
    expect((await invoke(listCoursings, e)).statusCode).toBe(401);
  });
});

describe('rate window', () => {
  it('counts before the operation and refuses over the limit with Retry-After, writing nothing', async () => {
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('full'), { name: 'ConditionalCheckFailedException' }));
    const out = await invoke(createCoursing, event({ httpMethod: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ locationId: 101, title: 'Mains', order: 2 }) }));
    expect(out.statusCode).toBe(429);
    expect(out.json.error.code).toBe('RATE_LIMITED');
    expect(Number(out.headers!['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(out.headers!['Retry-After'])).toBeLessThanOrEqual(3600);
    expect(out.headers).toMatchObject({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(windowAt(Date.now()).end) });
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

describe('permission, body and validation', () => {
  const post = (body: string | null, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    invoke(createCoursing, event({ httpMethod: 'POST', headers: { 'X-API-Key': key, ...headers }, body }));

  it('answers 403 when the credential lacks the permission', async () => {
    ddb.on(GetCommand, { Key: { pk: `KEY#${keyId}`, sk: 'KEY' } }).resolves({ Item: keyRecord({ permissions: ['coursings.read'] }) });
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
    const ok = await invoke(listCoursings, event({ headers: { 'X-API-Key': key }, queryStringParameters: { locationId: '101' } }));
    expect(ok.json.meta.pagination).toMatchObject({ page: 1, limit: 20 });
    const bad = await invoke(listCoursings, event({ headers: { 'X-API-Key': key }, queryStringParameters: { limit: '101', page: '0' } }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['/limit', '/page']);
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
    expect(out.json).toMatchObject({ status: 'healthy', dependencies: { database: { status: 'healthy', error: null } } });
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
    ddb.on(GetCommand, probeKey).rejects(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { name: 'Error', code: 'ECONNREFUSED' }));
    const r = await invoke(ready, event({ path: '/ready' }));
    expect(r.statusCode).toBe(503);
    expect(r.json).toMatchObject({ status: 'unhealthy', dependencies: { database: { status: 'unhealthy', error: expect.stringContaining('unreachable') } } });
    const h = await invoke(health, event({ path: '/health' }));
    expect(h.statusCode).toBe(503);
    expect(h.json).toMatchObject({ status: 'unhealthy', data: { database: { status: 'unhealthy' }, cache: { status: 'healthy' } } });
  });
});
