/**
 * API keys: the record the API shows (`C#<cid>` / `APIKEY#<uuid>`, listed through gsi1
 * `C#<cid>#APIKEYS` by creation time) and the lookup item authentication reads (`KEY#<keyId>`).
 * Every change writes both in one transaction. The plaintext is stored nowhere; the lookup item
 * holds its bcrypt hash.
 */
import type { Tier } from '../schemas/access';
import { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { UsageKey } from '../ports/usagePlans';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationEntity } from './locations';
import { outboxStep } from './outbox';
import { counterStep, listPage, type PageRequest } from './paging';
import { transactNaming, usageSteps, type IsCounted, type PermissionRef } from './permissions';
import { assignableRoleStep } from './roles';
import { updateStep, type Step } from './transact';

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

/** What a write must prove exists in the company besides the key's permissions, and which of those it counts. */
export interface KeyReferences {
  /** Locations the request named (the seed and test fixtures name none to check). */
  locationIds: readonly number[];
  /** A role the request gave the key. */
  roleId?: number | undefined;
  /** Which of the key's permissions their `usage` counts (the custom ones). */
  counted: IsCounted;
}

/** The record as stored: the usage key is kept beside it so a change or revocation can move or remove it without another read. */
type ApiKeyItem = ApiKeyRecord & { usageKeyId?: string; usageKey?: string };

const listPartition = (companyId: number) => `${keys.company(companyId)}#APIKEYS`;
const counter = (companyId: number) => companyKey(companyId, 'COUNT#APIKEY');

/** A key's record: in its company's partition; listed (gsi1) by creation time. */
const apiKeyEntity = defineEntity({
  name: 'APIKEY',
  label: 'API key',
  key: (companyId: number, id: string) => companyKey(companyId, `APIKEY#${id}`),
  keyOf: (companyId, k: ApiKeyItem) => [companyId, k.id] as const,
  fields: ['id', 'keyId', 'prefix', 'name', 'tier', 'roleId', 'permissions', 'locationIds', 'createdAt', 'updatedAt', 'revokedAt', 'version', 'usageKeyId', 'usageKey'],
  indexes: (companyId, k) => ({ gsi1pk: listPartition(companyId), gsi1sk: `${k.createdAt}#${k.id}` }),
});

/**
 * The lookup item is keyed by `keyId` alone: a credential names no company before it is verified.
 * It is the one item whose key does not start with the company; no route reads it by an id.
 */
const authEntity = defineEntity({
  name: 'APIKEY_AUTH',
  label: 'API key',
  key: (keyId: string) => ({ pk: `KEY#${keyId}`, sk: 'KEY' }),
  keyOf: (_companyId, a: ApiKeyAuth & { keyId: string }) => [a.keyId] as const,
  fields: ['apiKeyId', 'companyId', 'hash', 'tier', 'permissions', 'roleId', 'locationIds', 'revoked', 'usageKey'],
});

const stored = ({ usageKeyId, usageKey, ...record }: ApiKeyItem): StoredApiKey => ({
  record,
  usageKey: usageKeyId === undefined ? null : { id: usageKeyId, value: usageKey! },
});
const itemOf = (s: StoredApiKey): ApiKeyItem => ({ ...s.record, ...(s.usageKey ? { usageKeyId: s.usageKey.id, usageKey: s.usageKey.value } : {}) });

/** The lookup item's grant, as authentication reads it. */
const grantOf = (r: ApiKeyRecord) => ({ tier: r.tier, permissions: r.permissions ?? [], roleId: r.roleId, locationIds: r.locationIds });

const permissionRefs = (r: ApiKeyRecord): PermissionRef[] => (r.permissions ?? []).map((key, i) => ({ key, path: `/permissions/${i}` }));

function referenceSteps(companyId: number, refs: KeyReferences): Step[] {
  const locations = refs.locationIds.map((locationId, i) =>
    locationEntity.existsStep([companyId, locationId], () => new AppError('NOT_FOUND', `Location ${locationId} not found`, [{ path: `/locationIds/${i}`, message: 'names no location of this company' }])),
  );
  return [...locations, ...(refs.roleId === undefined ? [] : [assignableRoleStep(companyId, refs.roleId)])];
}

/** Sets some attributes of the lookup item, which must exist. */
const authUpdateStep = (keyId: string, values: Record<string, unknown>): Step => updateStep(authEntity.key(keyId), values, { condition: { expression: 'attribute_exists(pk)' } });

export const apiKeys = {
  /**
   * Stores the key's record and its lookup item together, counts it in the custom permissions it
   * names and in the company's total, and records the event; the locations and role named must exist.
   */
  async create(companyId: number, s: StoredApiKey, hash: string, refs: KeyReferences, event: DomainEvent): Promise<void> {
    const auth: ApiKeyAuth = { apiKeyId: s.record.id, companyId, hash, ...grantOf(s.record), revoked: false, usageKey: s.usageKey?.value ?? null };
    await transactNaming([
      apiKeyEntity.newItemStep(companyId, itemOf(s)),
      authEntity.newItemStep(companyId, { ...auth, keyId: s.record.keyId }),
      counterStep(counter(companyId), 1),
      ...usageSteps(permissionRefs(s.record), 1, refs.counted),
      ...referenceSteps(companyId, refs),
      outboxStep(event),
    ]);
  },

  async get(companyId: number, id: string): Promise<StoredApiKey | undefined> {
    const found = await apiKeyEntity.get(companyId, id);
    return found && stored(found);
  },

  /** The company's keys, oldest first, revoked ones included. */
  list(companyId: number, page: PageRequest): Promise<Page<ApiKeyRecord>> {
    return listPage({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page, (i) => stored(apiKeyEntity.from(i)).record);
  },

  /**
   * Replaces the record and the lookup item's grant if nobody changed the key since `prev` was
   * read, moving usage counts from the permissions it loses to those it gains.
   */
  async update(companyId: number, next: StoredApiKey, prev: ApiKeyRecord, refs: KeyReferences, event: DomainEvent): Promise<void> {
    const before = new Set(prev.permissions ?? []);
    const after = new Set(next.record.permissions ?? []);
    await transactNaming([
      apiKeyEntity.versionedPutStep(companyId, itemOf(next), prev.version),
      authUpdateStep(prev.keyId, { ...grantOf(next.record), usageKey: next.usageKey?.value ?? null }),
      ...usageSteps(permissionRefs(next.record).filter((r) => !before.has(r.key)), 1, refs.counted),
      ...usageSteps(permissionRefs(prev).filter((r) => !after.has(r.key)), -1, refs.counted),
      ...referenceSteps(companyId, refs),
      outboxStep(event),
    ]);
  },

  /** Marks the record and the lookup item revoked; the key no longer counts in its permissions' usage. */
  async revoke(companyId: number, next: StoredApiKey, prev: ApiKeyRecord, counted: IsCounted, event: DomainEvent): Promise<void> {
    await transactNaming([
      apiKeyEntity.versionedPutStep(companyId, itemOf(next), prev.version),
      authUpdateStep(prev.keyId, { revoked: true }),
      ...usageSteps(permissionRefs(prev), -1, counted),
      outboxStep(event),
    ]);
  },

  /** What authentication needs of the key `keyId`: 1 GetItem. */
  findAuth: (keyId: string): Promise<ApiKeyAuth | undefined> => authEntity.get(keyId),
};
