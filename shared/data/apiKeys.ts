/**
 * API keys: the record the API shows (`C#<cid>` / `APIKEY#<uuid>`, listed through gsi1
 * `C#<cid>#APIKEYS` by creation time) and the lookup item authentication reads (`KEY#<keyId>`).
 * Every change writes both in one transaction. The plaintext is stored nowhere; the lookup item
 * holds its bcrypt hash.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tier } from '../auth/principal';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { UsageKey } from '../ports/usagePlans';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { locationExistsStep } from './locations';
import { counterStep, listPage, type PageRequest } from './paging';
import { transactNaming, usageSteps, type PermissionRef } from './permissions';
import { assignableRoleStep } from './roles';
import { type Step } from './transact';
import { outboxStep } from './outbox';

/** An API key as the API shows it (never the plaintext or the hash). */
export interface ApiKeyRecord {
  id: string;
  keyId: string;
  /** `brigade_dev_` or `brigade_live_`: enough for a person to recognise the key. */
  prefix: string;
  name: string;
  tier: Tier;
  /** Exactly one of roleId and permissions is set: the key holds the role's permissions, or these. */
  roleId: number | null;
  permissions: string[] | null;
  /** null: every location of the company. */
  locationIds: number[] | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
  version: number;
}

/** A key's record and the API Gateway usage key that meters it (deployed stages). */
export interface StoredApiKey {
  record: ApiKeyRecord;
  usageKey: UsageKey | null;
}

/** What authentication needs, found by the key's `keyId` in one GetItem. */
export interface ApiKeyAuth {
  apiKeyId: string;
  companyId: number;
  hash: string;
  tier: Tier;
  /** The key's own permissions; empty when it has a role. */
  permissions: string[];
  /** The role whose permissions the key holds (read at authentication). */
  roleId?: number | null;
  locationIds: number[] | null;
  revoked: boolean;
  /** API Gateway usage-plan key value (deployed stages); null on the local stage. */
  usageKey: string | null;
}

/** What a write must prove exists in the company besides the key's permissions. */
export interface KeyReferences {
  /** Locations the request named (the seed and test fixtures name none to check). */
  locationIds: readonly number[];
  /** A role the request gave the key. */
  roleId?: number | undefined;
}

const fields = ['id', 'keyId', 'prefix', 'name', 'tier', 'roleId', 'permissions', 'locationIds', 'createdAt', 'updatedAt', 'revokedAt', 'version'] as const;
const toStored = (i: Record<string, unknown>): StoredApiKey => ({
  record: pick<ApiKeyRecord>(i, fields),
  usageKey: typeof i.usageKeyId === 'string' ? { id: i.usageKeyId, value: i.usageKey as string } : null,
});

/**
 * The lookup item is keyed by `keyId` alone: a credential names no company before it is verified.
 * It is the one item whose key does not start with the company; no route reads it by an id.
 */
const authKey = (keyId: string) => ({ pk: `KEY#${keyId}`, sk: 'KEY' });
const recordKey = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `APIKEY#${id}` });
const listPartition = (companyId: number) => `${keys.company(companyId)}#APIKEYS`;
const counter = (companyId: number) => ({ pk: keys.company(companyId), sk: 'COUNT#APIKEY' });

function recordItem(companyId: number, s: StoredApiKey) {
  return {
    ...recordKey(companyId, s.record.id),
    gsi1pk: listPartition(companyId),
    gsi1sk: `${s.record.createdAt}#${s.record.id}`,
    entity: 'APIKEY',
    companyId,
    ...s.record,
    // Kept here too so a change or revocation can move or remove the usage key without another read.
    ...(s.usageKey ? { usageKeyId: s.usageKey.id, usageKey: s.usageKey.value } : {}),
  };
}

/** The lookup item's grant, as authentication reads it. */
const grantOf = (r: ApiKeyRecord) => ({ tier: r.tier, permissions: r.permissions ?? [], roleId: r.roleId, locationIds: r.locationIds });

const permissionRefs = (r: ApiKeyRecord): PermissionRef[] => (r.permissions ?? []).map((key, i) => ({ key, path: `/permissions/${i}` }));

function referenceSteps(companyId: number, refs: KeyReferences): Step[] {
  const locations = refs.locationIds.map((locationId, i) => ({
    ...locationExistsStep(companyId, locationId),
    onConditionFailed: () => new AppError('NOT_FOUND', `Location ${locationId} not found`, [{ path: `/locationIds/${i}`, message: 'names no location of this company' }]),
  }));
  return [...locations, ...(refs.roleId === undefined ? [] : [assignableRoleStep(companyId, refs.roleId)])];
}

/** The record, written over the version that was read. */
function replaceStep(companyId: number, next: StoredApiKey, expectedVersion: number): Step {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: recordItem(companyId, next),
        ConditionExpression: 'attribute_exists(pk) AND version = :v',
        ExpressionAttributeValues: { ':v': expectedVersion },
      },
    },
    onConditionFailed: () => conflict('The API key was changed by another request; read it again and retry'),
  };
}

function authUpdateStep(keyId: string, values: Record<string, unknown>): Step {
  const names = Object.keys(values);
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: authKey(keyId),
        UpdateExpression: `SET ${names.map((n) => `#${n} = :${n}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n) => [`#${n}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n) => [`:${n}`, values[n]])),
      },
    },
  };
}

export const apiKeys = {
  /**
   * Stores the key's record and its lookup item together, counts it in the custom permissions it
   * names and in the company's total, and records the event; the locations and role named must exist.
   */
  async create(companyId: number, s: StoredApiKey, hash: string, refs: KeyReferences, event: DomainEvent): Promise<void> {
    const auth: ApiKeyAuth = { apiKeyId: s.record.id, companyId, hash, ...grantOf(s.record), revoked: false, usageKey: s.usageKey?.value ?? null };
    await transactNaming([
      { item: { Put: { TableName: tableName(), Item: recordItem(companyId, s), ConditionExpression: 'attribute_not_exists(pk)' } } },
      { item: { Put: { TableName: tableName(), Item: { ...authKey(s.record.keyId), entity: 'APIKEY_AUTH', ...auth }, ConditionExpression: 'attribute_not_exists(pk)' } } },
      counterStep(counter(companyId), 1),
      ...usageSteps(permissionRefs(s.record), 1),
      ...referenceSteps(companyId, refs),
      outboxStep(event),
    ]);
  },

  async get(companyId: number, id: string): Promise<StoredApiKey | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: recordKey(companyId, id) }));
      return out.Item ? toStored(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The company's keys, oldest first, revoked ones included. */
  list(companyId: number, page: PageRequest): Promise<Page<ApiKeyRecord>> {
    return listPage({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page, (i) => toStored(i).record);
  },

  /**
   * Replaces the record and the lookup item's grant if nobody changed the key since `prev` was
   * read, moving usage counts from the permissions it loses to those it gains.
   */
  async update(companyId: number, next: StoredApiKey, prev: ApiKeyRecord, refs: KeyReferences, event: DomainEvent): Promise<void> {
    const before = new Set(prev.permissions ?? []);
    const after = new Set(next.record.permissions ?? []);
    await transactNaming([
      replaceStep(companyId, next, prev.version),
      authUpdateStep(prev.keyId, { ...grantOf(next.record), usageKey: next.usageKey?.value ?? null }),
      ...usageSteps(permissionRefs(next.record).filter((r) => !before.has(r.key)), 1),
      ...usageSteps(permissionRefs(prev).filter((r) => !after.has(r.key)), -1),
      ...referenceSteps(companyId, refs),
      outboxStep(event),
    ]);
  },

  /** Marks the record and the lookup item revoked; the key no longer counts in its permissions' usage. */
  async revoke(companyId: number, next: StoredApiKey, prev: ApiKeyRecord, event: DomainEvent): Promise<void> {
    await transactNaming([
      replaceStep(companyId, next, prev.version),
      authUpdateStep(prev.keyId, { revoked: true }),
      ...usageSteps(permissionRefs(prev), -1),
      outboxStep(event),
    ]);
  },

  async findAuth(keyId: string): Promise<ApiKeyAuth | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: authKey(keyId) }));
      return out.Item as ApiKeyAuth | undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },
};
