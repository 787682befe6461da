/**
 * API keys (decisions.md §2, §7): the plaintext exists only in the answer to the creation. A key
 * holds either a role's permissions or its own list, at a rate-limit tier, optionally limited to
 * some locations. Nobody can mint a key stronger than itself (docs/access.md).
 */
import { randomUUID } from 'node:crypto';
import { generateApiKey, keyPrefix } from '../auth/apiKey';
import { forgetApiKey } from '../auth/authenticate';
import type { Principal, Tier } from '../auth/principal';
import { config } from '../config';
import { apiKeys, type ApiKeyRecord, type KeyReferences, type StoredApiKey } from '../data/apiKeys';
import { roles } from '../data/roles';
import { AppError, conflict, forbidden, notFound, validationFailed } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import { usagePlans } from '../ports/usagePlans';
import type { CreateApiKeyBody, ListApiKeysQuery, UpdateApiKeyBody } from '../schemas/access';
import { assertLocationAllowed } from './access';
import { changedFields } from './changes';
import { assertMayGrant, assertPermissionsExist, isCustomPermission } from './permissions';

export interface NewApiKey {
  name: string;
  tier: Tier;
  /** Exactly one of permissions and roleId. */
  permissions?: string[] | null;
  roleId?: number | null;
  locationIds?: number[] | null;
}

export type ApiKeyWithPlaintext = ApiKeyRecord & { key: string };

const tierRank: Record<Tier, number> = { standard: 0, premium: 1, unlimited: 2 };

/**
 * Which grant a body gives: its role, its own permissions, or (on updates) neither. Both are
 * refused; so is neither on creation (400, naming both fields). Pure.
 */
export function chosenGrant(input: { roleId?: number | undefined; permissions?: string[] | undefined }, required: boolean): 'role' | 'permissions' | undefined {
  const both = [{ path: '/roleId', message: 'give exactly one of roleId and permissions' }, { path: '/permissions', message: 'give exactly one of roleId and permissions' }];
  if (input.roleId !== undefined && input.permissions !== undefined) throw validationFailed('A key holds a role or its own permissions, not both', both);
  if (input.roleId !== undefined) return 'role';
  if (input.permissions !== undefined) return 'permissions';
  if (required) throw validationFailed('A key needs a role or its own permissions', both);
  return undefined;
}

/** An API key may give a key no higher tier than its own (403). Users' tier is their own rate window, not a bound. Pure. */
export function assertTierAllowed(principal: Principal, tier: Tier): void {
  if (principal.kind === 'apiKey' && tierRank[tier] > tierRank[principal.tier]) {
    throw new AppError('FORBIDDEN', `This key is on the ${principal.tier} tier and may not give a key the ${tier} tier`, [{ path: '/tier', message: `at most ${principal.tier}` }]);
  }
}

/**
 * The locations a caller gives a key: a caller limited to some locations may give only those (403)
 * and gives all of them when the body names none; null means every location. Pure.
 */
export function locationsGiven(principal: Principal, requested: number[] | null | undefined): number[] | null {
  if (requested === undefined || principal.locationIds === null) return requested === undefined ? principal.locationIds : requested;
  if (requested === null) throw forbidden('This credential is limited to some locations; it cannot give a key every location');
  for (const locationId of requested) assertLocationAllowed(principal, locationId);
  return requested;
}

/** A caller limited to some locations manages only keys limited to some of them (403). Pure. */
export function assertWithinReach(principal: Principal, key: ApiKeyRecord): void {
  if (principal.locationIds === null) return;
  if (key.locationIds === null) throw forbidden('This credential is limited to some locations; it cannot manage a key for every location');
  for (const locationId of key.locationIds) assertLocationAllowed(principal, locationId);
}

/** The role or permissions a body names must exist (404) and be held by the caller (403). */
async function checkGrant(principal: Principal, grant: 'role' | 'permissions', input: { roleId?: number | undefined; permissions?: string[] | undefined }): Promise<void> {
  if (grant === 'permissions') {
    const grants = input.permissions!.map((key, i) => ({ key, path: `/permissions/${i}` }));
    await assertPermissionsExist(grants);
    assertMayGrant(principal, grants);
    return;
  }
  const role = await roles.get(principal.companyId, input.roleId!);
  if (!role) throw new AppError('NOT_FOUND', `Role ${input.roleId} not found`, [{ path: '/roleId', message: 'names no role of this company' }]);
  if (role.platformOperator) throw forbidden('The platform-operator role cannot be given to a key');
  assertMayGrant(principal, role.permissionKeys.map((key) => ({ key, path: '/roleId' })));
}

/** Generates the key, gives it a usage key at its tier and stores both; a failed write leaves no usage key behind. */
async function store(companyId: number, input: NewApiKey, refs: KeyReferences): Promise<{ record: ApiKeyRecord; key: string }> {
  const { stage } = config();
  const generated = await generateApiKey(stage);
  const plans = await usagePlans();
  const usageKey = await plans.attach(generated.keyId, input.tier);
  const now = new Date().toISOString();
  const record: ApiKeyRecord = {
    id: randomUUID(),
    keyId: generated.keyId,
    prefix: keyPrefix(stage),
    name: input.name,
    tier: input.tier,
    roleId: input.roleId ?? null,
    permissions: input.roleId ? null : [...(input.permissions ?? [])].sort(),
    locationIds: input.locationIds ?? null,
    createdAt: now,
    updatedAt: now,
    revokedAt: null,
    version: 1,
  };
  try {
    await apiKeys.create(companyId, { record, usageKey }, generated.hash, refs, newEvent(companyId, 'api-key.created', record.id, { ...record }));
  } catch (err) {
    if (usageKey) await plans.detach(usageKey);
    throw err;
  }
  return { record, key: generated.plaintext };
}

/** Mints a key without a caller to check (the local seed and test fixtures); returns its record and plaintext. */
export function issueApiKey(companyId: number, input: NewApiKey): Promise<{ record: ApiKeyRecord; key: string }> {
  return store(companyId, input, { locationIds: [], counted: isCustomPermission });
}

export async function createApiKey(principal: Principal, input: CreateApiKeyBody): Promise<ApiKeyWithPlaintext> {
  const grant = chosenGrant(input, true)!;
  assertTierAllowed(principal, input.tier);
  const locationIds = locationsGiven(principal, input.locationIds);
  await checkGrant(principal, grant, input);
  const { record, key } = await store(
    principal.companyId,
    { name: input.name, tier: input.tier, roleId: input.roleId ?? null, permissions: input.permissions ?? null, locationIds },
    { locationIds: input.locationIds ?? [], roleId: input.roleId, counted: isCustomPermission },
  );
  return { ...record, key };
}

export function listApiKeys(principal: Principal, query: ListApiKeysQuery): Promise<Page<ApiKeyRecord>> {
  return apiKeys.list(principal.companyId, query);
}

async function stored(principal: Principal, id: string): Promise<StoredApiKey> {
  const found = await apiKeys.get(principal.companyId, id);
  if (!found) throw notFound('API key');
  return found;
}

export async function getApiKey(principal: Principal, id: string): Promise<ApiKeyRecord> {
  return (await stored(principal, id)).record;
}

/** Changes name, tier, grant or locations; a change of nothing writes nothing. Takes effect at once here, within 60 s elsewhere. */
export async function updateApiKey(principal: Principal, id: string, input: UpdateApiKeyBody): Promise<ApiKeyRecord> {
  const current = await stored(principal, id);
  const prev = current.record;
  if (prev.revokedAt) throw conflict('The API key is revoked and can no longer be changed');
  assertWithinReach(principal, prev);
  const grant = chosenGrant(input, false);
  if (input.tier) assertTierAllowed(principal, input.tier);
  const locationIds = input.locationIds === undefined ? prev.locationIds : locationsGiven(principal, input.locationIds);
  if (grant) await checkGrant(principal, grant, input);

  const next: ApiKeyRecord = {
    ...prev,
    name: input.name ?? prev.name,
    tier: input.tier ?? prev.tier,
    roleId: grant === undefined ? prev.roleId : (input.roleId ?? null),
    permissions: grant === undefined ? prev.permissions : grant === 'permissions' ? [...input.permissions!].sort() : null,
    locationIds,
    updatedAt: new Date().toISOString(),
    version: prev.version + 1,
  };
  const changes = changedFields(prev, next, ['name', 'tier', 'roleId', 'permissions', 'locationIds']);
  if (Object.keys(changes).length === 0) return prev;

  const plans = await usagePlans();
  const moved = current.usageKey !== null && next.tier !== prev.tier;
  if (moved) await plans.move(current.usageKey!, prev.tier, next.tier);
  try {
    const refs = { locationIds: input.locationIds ?? [], roleId: grant === 'role' ? input.roleId : undefined, counted: isCustomPermission };
    await apiKeys.update(principal.companyId, { ...current, record: next }, prev, refs, newEvent(principal.companyId, 'api-key.updated', id, { ...next }, changes));
  } catch (err) {
    // The adapter logs a failed move; the key then stays metered by the new tier's plan until changed again.
    if (moved) await plans.move(current.usageKey!, next.tier, prev.tier).catch(() => undefined);
    throw err;
  }
  forgetApiKey(prev.keyId);
  return next;
}

/** Revokes the key: 401 at once in this process, within 60 s everywhere. Revoking a revoked key changes nothing. */
export async function revokeApiKey(principal: Principal, id: string): Promise<ApiKeyRecord> {
  const current = await stored(principal, id);
  const prev = current.record;
  assertWithinReach(principal, prev);
  if (prev.revokedAt) return prev;
  const now = new Date().toISOString();
  const next: ApiKeyRecord = { ...prev, revokedAt: now, updatedAt: now, version: prev.version + 1 };
  await apiKeys.revoke(principal.companyId, { record: next, usageKey: null }, prev, isCustomPermission, newEvent(principal.companyId, 'api-key.revoked', id, { ...next }));
  forgetApiKey(prev.keyId);
  if (current.usageKey) await (await usagePlans()).detach(current.usageKey);
  return next;
}
