/**
 * API keys against DynamoDB Local: the record and lookup item move together, usage counts follow
 * the key's permissions, references are checked in the write, and the plaintext is kept nowhere
 * (no item, no log line, no event), with the handlers run in process.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { invokeThroughGateway } from '../../bin/local/gateway';
import { handler as createKey } from '../../functions/api-keys/create';
import { handler as revokeKey } from '../../functions/api-keys/revoke';
import { handler as listKeys } from '../../functions/api-keys/list';
import { authenticate, clearKeyCache } from '../../shared/auth/authenticate';
import type { Principal } from '../../shared/auth/principal';
import { db, tableName } from '../../shared/data/client';
import { apiKeys } from '../../shared/data/apiKeys';
import { createApiKey, issueApiKey, revokeApiKey, updateApiKey } from '../../shared/domain/apiKeys';
import { createPermission, deletePermission, isCustomPermission } from '../../shared/domain/permissions';
import { logger } from '../../shared/http/chain/logger';
import type { AppError } from '../../shared/errors';
import { idBlock } from '../support/id-blocks';
import { allItems } from '../support/scan';
import { wrongByOne } from '../support/wrong-key';

const ids = idBlock(import.meta.url);
const companyId = ids.next();
const word = () => Array.from({ length: 12 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
const operator: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'standard',
  locationIds: null,
  rateSubject: 'user:1',
  internalOperator: true,
  userId: '1',
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as AppError,
  );

async function usage(key: string): Promise<number | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'PERMISSIONS', sk: `KEY#${key}` } }));
  return out.Item?.usage as number | undefined;
}
const lookup = async (keyId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `KEY#${keyId}`, sk: 'KEY' } }))).Item;
const total = async () => (await apiKeys.list(companyId, { page: 1, limit: 1 })).pagination.total;

let custom: { id: number; key: string };
let other: { id: number; key: string };

beforeAll(async () => {
  [custom, other] = await Promise.all([
    createPermission(operator, { key: `${word()}.read`, name: 'A' }),
    createPermission(operator, { key: `${word()}.read`, name: 'B' }),
  ]);
});

describe('API key repository', () => {
  it('counts a key in its custom permissions while it is live, so they cannot be deleted under it', async () => {
    const before = await total();
    const record = await createApiKey(operator, {
      name: 'Loyalty sync',
      tier: 'premium',
      permissions: [custom.key, 'coursings.read'],
    });
    expect(await usage(custom.key)).toBe(1);
    expect(await total()).toBe(before + 1);
    expect(await lookup(record.keyId)).toMatchObject({
      companyId,
      tier: 'premium',
      permissions: ['coursings.read', custom.key].sort(),
      roleId: null,
      revoked: false,
    });
    expect(await failure(deletePermission(operator, custom.id))).toMatchObject({ code: 'CONFLICT' });

    // Moving the key to another permission moves the count, and the lookup item follows at once.
    const moved = await updateApiKey(operator, record.id, { permissions: [other.key] });
    expect(moved).toMatchObject({ permissions: [other.key], version: 2 });
    expect([await usage(custom.key), await usage(other.key)]).toEqual([0, 1]);
    expect((await lookup(record.keyId))?.permissions).toEqual([other.key]);

    await revokeApiKey(operator, record.id);
    expect(await usage(other.key)).toBe(0);
    expect((await lookup(record.keyId))?.revoked).toBe(true);
    expect((await apiKeys.get(companyId, record.id))?.record.revokedAt).toEqual(expect.any(String));
  });

  it('refuses unknown custom permissions before writing, one detail per bad index', async () => {
    const before = await total();
    const err = await failure(
      createApiKey(operator, {
        name: 'x',
        tier: 'standard',
        permissions: ['coursings.read', `${word()}.read`, `${word()}.manage`],
      }),
    );
    expect(err).toMatchObject({ code: 'NOT_FOUND', details: [{ path: '/permissions/1' }, { path: '/permissions/2' }] });
    expect(await total()).toBe(before);
  });

  it('refuses, inside the write, a permission deleted meanwhile, a location the company lacks, and a role it cannot give', async () => {
    const gone = await createPermission(operator, { key: `${word()}.read`, name: 'Gone' });
    await deletePermission(operator, gone.id);
    const before = await total();
    expect(
      await failure(issueApiKey(companyId, { name: 'x', tier: 'standard', permissions: [gone.key] })),
    ).toMatchObject({ code: 'NOT_FOUND', details: [{ path: '/permissions/0' }] });
    expect(
      await failure(
        createApiKey(operator, { name: 'x', tier: 'standard', permissions: ['tabs.read'], locationIds: [987_654] }),
      ),
    ).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/locationIds/0', message: expect.any(String) }],
    });
    expect(await failure(createApiKey(operator, { name: 'x', tier: 'standard', roleId: 987_654 }))).toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/roleId' }],
    });
    expect(await total()).toBe(before);
  });

  it('updates only from the version it read', async () => {
    const { record } = await issueApiKey(companyId, {
      name: 'Versioned',
      tier: 'standard',
      permissions: ['tabs.read'],
    });
    const stored = (await apiKeys.get(companyId, record.id))!;
    const next = { ...stored, record: { ...record, name: 'First', version: 2 } };
    const event = (await import('../../shared/events/catalog')).newEvent(
      companyId,
      'api-key.updated',
      record.id,
      next.record,
    );
    await apiKeys.update(companyId, next, record, { locationIds: [], counted: isCustomPermission }, event);
    expect(
      await failure(
        apiKeys.update(
          companyId,
          { ...next, record: { ...record, name: 'Stale', version: 2 } },
          record,
          { locationIds: [], counted: isCustomPermission },
          event,
        ),
      ),
    ).toMatchObject({ code: 'CONFLICT' });
    expect((await apiKeys.get(companyId, record.id))?.record).toMatchObject({ name: 'First', version: 2 });
  });
});

describe('the plaintext of a key', () => {
  const context = { awsRequestId: 'ctx', getRemainingTimeInMillis: () => 5000 } as unknown as Context;
  const event = (
    method: string,
    path: string,
    key: string,
    body?: unknown,
    pathParameters: Record<string, string> | null = null,
  ): APIGatewayProxyEvent =>
    ({
      resource: path,
      path,
      httpMethod: method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters,
      stageVariables: null,
      body: body === undefined ? null : JSON.stringify(body),
      isBase64Encoded: false,
      requestContext: { requestId: `req-${word()}`, identity: { sourceIp: '203.0.113.7' } },
    }) as unknown as APIGatewayProxyEvent;
  // As API Gateway calls them: every one of these operations sits behind the authorizer.
  const invoke = async (fn: typeof createKey, e: APIGatewayProxyEvent) => {
    const out = (await invokeThroughGateway(
      { permission: 'behind-the-authorizer' },
      fn,
      e,
      context,
    )) as APIGatewayProxyResult;
    return { status: out.statusCode, json: JSON.parse(out.body) };
  };

  afterEach(() => {
    vi.restoreAllMocks();
    logger.setLogLevel('SILENT');
  });

  it('is in no item of the table, no log line and no event: created, used, revoked, refused', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    logger.setLogLevel('DEBUG');

    const { key: admin } = await issueApiKey(companyId, {
      name: 'admin',
      tier: 'unlimited',
      permissions: ['api_keys.read', 'api_keys.manage', 'tabs.read'],
    });
    const created = await invoke(
      createKey,
      event('POST', '/api/v1/api-keys', admin, { name: 'Till 7', tier: 'standard', permissions: ['api_keys.read'] }),
    );
    expect(created.status).toBe(200);
    const plaintext = created.json.data.key as string;
    const secret = plaintext.split('_').at(-1)!;

    clearKeyCache();
    expect((await authenticate({ 'x-api-key': plaintext })).permissions).toEqual(['api_keys.read']);
    expect(
      (
        await invoke(
          createKey,
          event('POST', '/api/v1/api-keys', plaintext, { name: 'x', tier: 'standard', permissions: ['tabs.read'] }),
        )
      ).status,
    ).toBe(403);
    // An internal error is logged (with the request id), never with the credential that made the request.
    const client = db();
    const send = client.send.bind(client);
    vi.spyOn(client, 'send').mockImplementation(((command: object) =>
      command instanceof QueryCommand ? Promise.reject(new Error('disk on fire')) : send(command as never)) as never);
    expect((await invoke(listKeys, event('GET', '/api/v1/api-keys', plaintext))).status).toBe(500);
    vi.mocked(client.send).mockRestore();
    expect(
      (
        await invoke(
          revokeKey,
          event('POST', `/api/v1/api-keys/${created.json.data.id}/revoke`, admin, undefined, {
            id: created.json.data.id,
          }),
        )
      ).status,
    ).toBe(200);
    expect((await invoke(listKeys, event('GET', '/api/v1/api-keys', plaintext))).status).toBe(401);
    expect((await invoke(listKeys, event('GET', '/api/v1/api-keys', wrongByOne(plaintext)))).status).toBe(401);
    vi.restoreAllMocks();

    // Every page: the table is shared by every integration file and outgrows one Scan page.
    const table = JSON.stringify(await allItems());
    expect(table).toContain(created.json.data.keyId);
    for (const text of [table, written.join('')]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(plaintext);
    }
    expect(written.join('')).toContain('disk on fire');
  });
});
