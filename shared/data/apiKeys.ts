/**
 * API keys: the record the API shows (`C#<cid>` / `APIKEY#<uuid>`, listed through gsi1
 * `C#<cid>#APIKEYS` by creation time) and the lookup item authentication reads (`KEY#<keyId>`).
 * Every change writes both in one transaction. The plaintext is stored nowhere; the lookup item
 * holds its bcrypt hash, a 32-bit fingerprint and a verifier (an HMAC under a secret the table does
 * not hold), which the authorizer writes once bcrypt has verified a key without one (docs/access.md,
 * "How a key is verified").
 *
 * The company's counter item counts every key (`n`, the list's total) and the live keys made
 * through the API (`live`), which a create may raise only while it is below the stage's cap: a
 * condition of the creating transaction, so concurrent creates cannot overshoot it.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Type, type Static } from '../schemas/typebox';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { UsageKey } from '../ports/usagePlans';
import { ApiKeyView, Tier } from '../schemas/access';
import { Nullable } from '../schemas/common';
import { db, tableName } from './client';
import { companyKey, defineEntity, extendView } from './entity';
import { conditionFailed, toAppError } from './errors';
import { keys } from './keys';
import { locationEntity } from './locations';
import { outboxStep } from './outbox';
import { listPage, type PageRequest } from './paging';
import { transactNaming, usageSteps, type IsCounted, type PermissionRef } from './permissions';
import { assignableRoleStep } from './roles';
import { updateStep, type Step } from './transact';

/**
 * An API key as the API shows it, never the plaintext or the hash (exactly one of roleId and
 * permissions is set; locationIds null: every location): declared by ApiKeyView.
 */
export type ApiKeyRecord = Static<typeof ApiKeyView>;

/** A key's record and the API Gateway usage key that meters it (deployed stages). */
export interface StoredApiKey {
  record: ApiKeyRecord;
  usageKey: UsageKey | null;
  /** Counted in the company's live keys under the cap (made through the API); revoking it uncounts it. */
  capped?: boolean;
}

/** The lookup item authentication reads, found by the key's `keyId` (which it also holds) in one GetItem. */
const AuthItem = Type.Object({
  apiKeyId: Type.String(),
  companyId: Type.Integer(),
  hash: Type.String(),
  /** The first 32 bits of the key's SHA-256: refuses a wrong secret without bcrypt. Absent on keys made before it existed. */
  fingerprint: Type.Optional(Type.String()),
  /**
   * HMAC of the key under the stage's pepper, naming the pepper and the hash it was made for
   * (shared/auth/verifier.ts): a miss is judged by it instead of bcrypt. Absent until written.
   */
  verifier: Type.Optional(Type.String()),
  tier: Tier,
  /** The key's own permissions; empty when it has a role. */
  permissions: Type.Array(Type.String()),
  /** The role whose permissions the key holds (read at authentication). */
  roleId: Type.Optional(Nullable(Type.Integer())),
  locationIds: Nullable(Type.Array(Type.Integer())),
  revoked: Type.Boolean(),
  /** API Gateway usage-plan key value (deployed stages); null on the local stage. */
  usageKey: Nullable(Type.String()),
  /** A publishable key's web origins (docs/online-booking.md); absent on secret keys. */
  allowedOrigins: Type.Optional(Type.Array(Type.String())),
  keyId: Type.String(),
});

/** What authentication needs of a key. */
export type ApiKeyAuth = Omit<Static<typeof AuthItem>, 'keyId'>;

/** What a write must prove exists in the company besides the key's permissions, and which of those it counts. */
export interface KeyReferences {
  /** Locations the request named (the seed and test fixtures name none to check). */
  locationIds: readonly number[];
  /** A role the request gave the key. */
  roleId?: number | undefined;
  /** Which of the key's permissions their `usage` counts (the custom ones). */
  counted: IsCounted;
  /**
   * On creation: the most live keys the company may have made through the API, this one included
   * (409 beyond). Absent: the key is not counted (the local seed and test fixtures).
   */
  liveLimit?: number | undefined;
}

/** What verifies a key: its bcrypt hash, its fingerprint, and its verifier where the writer has the pepper. */
export interface KeyCredential {
  hash: string;
  fingerprint: string;
  verifier?: string | undefined;
}

/**
 * The record as stored: the usage key is kept beside it so a change or revocation can move or
 * remove it without another read, and `capped` (see StoredApiKey). `publishable` is not stored:
 * a key is publishable when it has allowed origins, which keys stored before them lack.
 */
const ApiKeyItem = extendView(Type.Omit(ApiKeyView, ['publishable', 'allowedOrigins']), {
  allowedOrigins: Type.Optional(ApiKeyView.properties.allowedOrigins),
  usageKeyId: Type.Optional(Type.String()),
  usageKey: Type.Optional(Type.String()),
  capped: Type.Optional(Type.Boolean()),
});
type ApiKeyItem = Static<typeof ApiKeyItem>;

const listPartition = (companyId: number) => `${keys.company(companyId)}#APIKEYS`;
const counter = (companyId: number) => companyKey(companyId, 'COUNT#APIKEY');

/** A key's record: in its company's partition; listed (gsi1) by creation time. */
const apiKeyEntity = defineEntity({
  name: 'APIKEY',
  label: 'API key',
  key: (companyId: number, id: string) => companyKey(companyId, `APIKEY#${id}`),
  schema: ApiKeyItem,
  keyOf: (companyId, k) => [companyId, k.id] as const,
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
  schema: AuthItem,
  keyOf: (_companyId, a) => [a.keyId] as const,
});

const stored = ({ usageKeyId, usageKey, capped, allowedOrigins, ...rest }: ApiKeyItem): StoredApiKey => ({
  record: { ...rest, publishable: Boolean(allowedOrigins), allowedOrigins: allowedOrigins ?? null },
  usageKey: usageKeyId === undefined ? null : { id: usageKeyId, value: usageKey! },
  capped: capped === true,
});
const itemOf = ({ record: { publishable: _derived, ...record }, ...s }: StoredApiKey): ApiKeyItem => ({
  ...record,
  ...(s.usageKey ? { usageKeyId: s.usageKey.id, usageKey: s.usageKey.value } : {}),
  ...(s.capped ? { capped: true } : {}),
});

/**
 * Counts a new key in the company's total and, when it is capped, in its live keys, refused (409,
 * naming the limit) when they are already at `limit`. A counter that predates `live` starts it at 0.
 */
function countNewStep(companyId: number, limit: number | undefined): Step {
  if (limit === undefined) return updateStep(counter(companyId), { entity: 'COUNTER' }, { add: { n: 1 } });
  return updateStep(
    counter(companyId),
    { entity: 'COUNTER' },
    {
      add: { n: 1, live: 1 },
      condition: {
        expression: 'attribute_not_exists(#live) OR #live < :limit',
        names: { '#live': 'live' },
        values: { ':limit': limit },
      },
      onConditionFailed: () =>
        conflict(
          `This company already has ${limit} live API keys, the most it may have; revoke one before creating another`,
        ),
    },
  );
}

/** The lookup item's grant, as authentication reads it (a publishable key's origins with it). */
const grantOf = (r: ApiKeyRecord) => ({
  tier: r.tier,
  permissions: r.permissions ?? [],
  roleId: r.roleId,
  locationIds: r.locationIds,
  ...(r.allowedOrigins === null ? {} : { allowedOrigins: r.allowedOrigins }),
});

const permissionRefs = (r: ApiKeyRecord): PermissionRef[] =>
  (r.permissions ?? []).map((key, i) => ({ key, path: `/permissions/${i}` }));

function referenceSteps(companyId: number, refs: KeyReferences): Step[] {
  const locations = refs.locationIds.map((locationId, i) =>
    locationEntity.existsStep(
      [companyId, locationId],
      () =>
        new AppError('NOT_FOUND', `Location ${locationId} not found`, [
          { path: `/locationIds/${i}`, message: 'names no location of this company' },
        ]),
    ),
  );
  return [...locations, ...(refs.roleId === undefined ? [] : [assignableRoleStep(companyId, refs.roleId)])];
}

/** Sets some attributes of the lookup item, which must exist. */
const authUpdateStep = (keyId: string, values: Record<string, unknown>): Step =>
  updateStep(authEntity.key(keyId), values, { condition: { expression: 'attribute_exists(pk)' } });

export const apiKeys = {
  /**
   * Stores the key's record and its lookup item together, counts it in the custom permissions it
   * names and in the company's total, and records the event; the locations and role named must exist.
   */
  async create(
    companyId: number,
    s: StoredApiKey,
    credential: KeyCredential,
    refs: KeyReferences,
    event: DomainEvent,
  ): Promise<void> {
    const auth: ApiKeyAuth = {
      apiKeyId: s.record.id,
      companyId,
      hash: credential.hash,
      fingerprint: credential.fingerprint,
      ...(credential.verifier === undefined ? {} : { verifier: credential.verifier }),
      ...grantOf(s.record),
      revoked: false,
      usageKey: s.usageKey?.value ?? null,
    };
    await transactNaming([
      apiKeyEntity.newItemStep(companyId, itemOf({ ...s, capped: refs.liveLimit !== undefined })),
      authEntity.newItemStep(companyId, { ...auth, keyId: s.record.keyId }),
      countNewStep(companyId, refs.liveLimit),
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
    return listPage(
      { index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) },
      page,
      (i) => stored(apiKeyEntity.from(i)).record,
    );
  },

  /**
   * Replaces the record and the lookup item's grant if nobody changed the key since `prev` was
   * read, moving usage counts from the permissions it loses to those it gains.
   */
  async update(
    companyId: number,
    next: StoredApiKey,
    prev: ApiKeyRecord,
    refs: KeyReferences,
    event: DomainEvent,
  ): Promise<void> {
    const before = new Set(prev.permissions ?? []);
    const after = new Set(next.record.permissions ?? []);
    await transactNaming([
      apiKeyEntity.versionedPutStep(companyId, itemOf(next), prev.version),
      authUpdateStep(prev.keyId, { ...grantOf(next.record), usageKey: next.usageKey?.value ?? null }),
      ...usageSteps(
        permissionRefs(next.record).filter((r) => !before.has(r.key)),
        1,
        refs.counted,
      ),
      ...usageSteps(
        permissionRefs(prev).filter((r) => !after.has(r.key)),
        -1,
        refs.counted,
      ),
      ...referenceSteps(companyId, refs),
      outboxStep(event),
    ]);
  },

  /**
   * Marks the record and the lookup item revoked; the key no longer counts in its permissions'
   * usage, nor, if it was capped, in the company's live keys.
   */
  async revoke(
    companyId: number,
    next: StoredApiKey,
    prev: ApiKeyRecord,
    counted: IsCounted,
    event: DomainEvent,
  ): Promise<void> {
    await transactNaming([
      apiKeyEntity.versionedPutStep(companyId, itemOf(next), prev.version),
      authUpdateStep(prev.keyId, { revoked: true }),
      ...usageSteps(permissionRefs(prev), -1, counted),
      ...(next.capped ? [updateStep(counter(companyId), {}, { add: { live: -1 } })] : []),
      outboxStep(event),
    ]);
  },

  /**
   * Writes the key's verifier, only while the lookup item still holds the hash the key was verified
   * against (1 UpdateItem; the authorizer's role may do this and nothing else to a lookup item).
   * False when the item is gone or its hash changed meanwhile: nothing is written.
   */
  async recordVerifier(keyId: string, hash: string, verifier: string): Promise<boolean> {
    try {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: authEntity.key(keyId),
          UpdateExpression: 'SET #verifier = :verifier',
          ConditionExpression: '#hash = :hash',
          ExpressionAttributeNames: { '#verifier': 'verifier', '#hash': 'hash' },
          ExpressionAttributeValues: { ':verifier': verifier, ':hash': hash },
        }),
      );
      return true;
    } catch (err) {
      if (conditionFailed(err)) return false;
      throw toAppError(err);
    }
  },

  /**
   * What authentication needs of the key `keyId`: 1 GetItem, strongly consistent, so a key works
   * as soon as its creation answered and a revocation is seen by the next verification.
   */
  async findAuth(keyId: string): Promise<ApiKeyAuth | undefined> {
    const found = await authEntity.getWith({ consistent: true }, keyId);
    if (!found) return undefined;
    const { keyId: _keyId, ...auth } = found;
    return auth;
  },
};
