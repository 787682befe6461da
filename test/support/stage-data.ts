/**
 * Direct access to the local stage's database from an API test worker, for fixtures the API
 * cannot make (yet), such as a key with exactly the permissions a test needs.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { inject } from 'vitest';
import { parseApiKey } from '../../shared/auth/apiKey';
import { authenticate } from '../../shared/auth/authenticate';
import { ADMIN_ROLE, readPermissions } from '../../shared/auth/catalog';
import { signLocalToken } from '../../shared/auth/jwt';
import { tierLimits, type Tier } from '../../shared/auth/principal';
import { resetConfig } from '../../shared/config';
import { db, setDb, tableName } from '../../shared/data/client';
import { companyKey } from '../../shared/data/entity';
import { raiseAlert, type Alert } from '../../shared/data/alerts';
import { idempotencyRecords } from '../../shared/data/idempotency';
import { nextId, releaseIdBlocks } from '../../shared/data/ids';
import { purchaseDays, type Purchase } from '../../shared/data/purchases';
import { rateWindows } from '../../shared/data/rateWindows';
import { tabEntity, type Tab } from '../../shared/data/tabs';
import { terminalEntity } from '../../shared/data/printing';
import { transact } from '../../shared/data/transact';
import { newAlert, type AlertInput } from '../../shared/domain/alerts';
import { issueApiKey } from '../../shared/domain/apiKeys';
import { onboardCompany } from '../../shared/domain/companies';
import { windowAt } from '../../shared/domain/rateWindow';
import { fingerprint } from '../../shared/http/chain/idempotency';
import { allItems } from './scan';

/**
 * Points this worker's data layer at the shared stage's table. Checked on every call, not once: API
 * files share a worker's modules (vitest.config.ts), and a file that ran before may have pointed the
 * environment elsewhere.
 */
function connect() {
  const { endpoint, tableName } = inject('stageDatabase');
  const env = process.env;
  if (env.STAGE === 'local' && env.TABLE_NAME === tableName && env.DYNAMODB_ENDPOINT === endpoint) return;
  Object.assign(env, { STAGE: 'local', TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint });
  resetConfig();
  setDb(undefined);
  releaseIdBlocks(); // ids reserved from another table would repeat there
}

/** A new API key of a seeded company, straight into the stage's table; returns the plaintext. */
export async function testKey(
  companyId: number,
  options: {
    permissions: string[];
    tier?: Tier;
    locationIds?: number[] | null;
    name?: string;
    /** A publishable key's web origins (docs/online-booking.md). */
    allowedOrigins?: string[];
  },
): Promise<string> {
  connect();
  const { key } = await issueApiKey(companyId, {
    name: options.name ?? 'test key',
    tier: options.tier ?? 'unlimited',
    permissions: options.permissions,
    locationIds: options.locationIds ?? null,
    allowedOrigins: options.allowedOrigins ?? null,
  });
  return key;
}

/**
 * Uses up a key's rate window, counting in it as its requests would until it refuses, so that the
 * key's next request answers 429. Close to the end of the hour the next window is filled too.
 */
export async function exhaustRateWindow(key: string): Promise<void> {
  connect();
  const { rateSubject, tier } = await authenticate({ 'x-api-key': key });
  const now = Date.now();
  const windows = [windowAt(now), windowAt(now + 300_000)].filter((w, i, all) => i === 0 || w.start !== all[0]!.start);
  for (const window of windows) {
    const fill = async () => {
      while ((await rateWindows.hit(rateSubject, window, tierLimits[tier])).allowed);
    };
    await Promise.all(Array.from({ length: 16 }, fill));
  }
}

export interface OwnCompany {
  companyId: number;
  name: string;
  /** The admin role (every permission, unlimited tier), and every `*.read` permission (standard tier), as the seed's keys. */
  keys: { admin: string; readonly: string };
}

/**
 * A company of the caller's own, made the way the local seed makes one (the company item, its
 * system roles, keys) with the next free company id: no other test file can add to its
 * collections, so counts and "nothing else changed" checks over it are deterministic. It has no
 * locations; the file makes what it needs.
 */
export async function freshCompany(name: string): Promise<OwnCompany> {
  connect();
  const companyId = await nextId('company');
  const { roleIds } = await onboardCompany({ id: companyId, name });
  const [admin, readonly] = await Promise.all([
    issueApiKey(companyId, {
      name: 'Own admin key',
      tier: 'unlimited',
      roleId: roleIds[ADMIN_ROLE]!,
      locationIds: null,
    }),
    issueApiKey(companyId, {
      name: 'Own read-only key',
      tier: 'standard',
      permissions: readPermissions(),
      locationIds: null,
    }),
  ]);
  return { companyId, name, keys: { admin: admin.key, readonly: readonly.key } };
}

/** A bearer token of a user of the company who is not an internal operator, signed with the stage's secret. */
export const userToken = (companyId: number, perms: string[], sub = '5550') =>
  signLocalToken({ sub, cid: companyId, perms }, inject('jwtSecret'));

/** The id of a company's hidden platform-operator role, which no API shows. */
export async function platformOperatorRoleId(companyId: number): Promise<number> {
  connect();
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :role)',
      ExpressionAttributeValues: { ':pk': `C#${companyId}`, ':role': 'ROLE#' },
    }),
  );
  return (out.Items ?? []).find((r) => r.platformOperator === true)!.id as number;
}

/** Every item of the stage's table (a Scan: for assertions about what is stored, never on a request path). */
export async function stageItems(): Promise<Record<string, unknown>[]> {
  connect();
  return allItems();
}

/**
 * A tab opened at a location without a booking (a walk-in or bar tab), straight into the stage's
 * table: the area that opens such tabs is not built yet, and seating can link one to a booking.
 */
export async function tabWithoutBooking(
  companyId: number,
  locationId: number,
  status: Tab['status'] = 'open',
): Promise<Tab> {
  connect();
  const now = new Date().toISOString();
  const tab: Tab = {
    id: randomUUID(),
    locationId,
    bookingId: null,
    tableId: null,
    status,
    primaryUserId: null,
    purchaseCount: 0,
    orderCount: 0,
    openedAt: status === 'pre_arrival' ? null : now,
    closedAt: status === 'closed' ? now : null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await transact([tabEntity.newItemStep(companyId, tab)]);
  return tab;
}

/**
 * A terminal renamed straight in the stage's table, with a name the API now refuses (a control
 * character: docs/api.md, "Text"), as one stored before that rule may be: what the printers must
 * still strip (docs/printing.md).
 */
export async function storedTerminalName(companyId: number, terminalId: string, name: string): Promise<void> {
  connect();
  const prev = await terminalEntity.get(companyId, terminalId);
  if (!prev) throw new Error(`no terminal ${terminalId}`);
  const next = { ...prev, name, version: prev.version + 1 };
  await transact([terminalEntity.versionedPutStep(companyId, next, prev.version)]);
}

/**
 * Claims an Idempotency-Key in the stage's table as a first request that is still running would
 * (or, with a lease already over, as one that died), for the in-flight cases the API cannot stage.
 */
export async function runningIdempotentRequest(
  companyId: number,
  apiKey: string,
  idempotencyKey: string,
  request: { path: string; body: unknown },
  leaseMs: number,
): Promise<void> {
  connect();
  const subject = `key:${parseApiKey(apiKey, 'local')!.keyId}`;
  const fingerprintOf = fingerprint({
    httpMethod: 'POST',
    path: request.path,
    queryStringParameters: {},
    body: request.body,
  });
  const out = await idempotencyRecords.claim({ companyId, subject }, idempotencyKey, {
    fingerprint: fingerprintOf,
    owner: randomUUID(),
    nowMs: Date.now(),
    leaseMs,
  });
  if (!out.claimed) throw new Error('the key is taken already');
}

/** An alert raised straight into the stage's table, as the service raises one (a dead delivery, a failed print job …). */
export async function stageAlert(companyId: number, input: AlertInput, at?: string): Promise<Alert> {
  connect();
  const alert = newAlert(input, at);
  await raiseAlert(companyId, alert);
  return alert;
}

/** Adds purchases to their location's day totals in the stage's table, the counters recording them adds (the purchase summary's tests: purchases at chosen moments). */
export async function stagePurchaseDays(companyId: number, purchases: readonly Purchase[]): Promise<void> {
  connect();
  await purchaseDays.add(companyId, purchases);
}

/**
 * Gives a booking a confirmation code of the length issued before codes grew (8 characters:
 * docs/access.md, “Codes”), straight in the stage's table, as such a booking is stored: the
 * booking's `confirmationCode` and its code lookup (which carries a copy of the booking) under the
 * old code, the lookup of the code it was made with gone.
 */
export async function giveLegacyCode(companyId: number, bookingId: string, code: string): Promise<void> {
  connect();
  const TableName = tableName();
  const bookingKey = companyKey(companyId, `BOOKING#${bookingId}`);
  const booking = (await db().send(new GetCommand({ TableName, Key: bookingKey, ConsistentRead: true }))).Item;
  if (!booking) throw new Error(`no booking ${bookingId}`);
  const oldKey = { pk: `CODE#${booking.confirmationCode as string}`, sk: 'CODE' };
  const lookup = (await db().send(new GetCommand({ TableName, Key: oldKey, ConsistentRead: true }))).Item!;
  await db().send(
    new UpdateCommand({
      TableName,
      Key: bookingKey,
      UpdateExpression: 'SET confirmationCode = :code',
      ExpressionAttributeValues: { ':code': code },
    }),
  );
  const copy = { ...(lookup.booking as Record<string, unknown>), confirmationCode: code };
  await db().send(new PutCommand({ TableName, Item: { ...lookup, pk: `CODE#${code}`, booking: copy } }));
  await db().send(new DeleteCommand({ TableName, Key: oldKey }));
}
