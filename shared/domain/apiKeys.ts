/**
 * API keys (docs/access.md): the plaintext exists only in the answer to the creation. A key
 * holds either a role's permissions or its own list, at a rate-limit tier, optionally limited to
 * some locations. Nobody can mint a key stronger than itself, nor change, revoke or delete one;
 * a company has at most the stage's cap of live keys made through the API (docs/access.md).
 */
import { randomUUID } from 'node:crypto';
import { generateApiKey, keyPrefix } from '../auth/apiKey';
import { forgetApiKey } from '../auth/authenticate';
import { keyVerifier } from '../auth/verifier';
import { publishablePermissions } from '../auth/catalog';
import type { Principal, Tier } from '../auth/principal';
import { config } from '../config';
import { apiKeys, type ApiKeyRecord, type KeyReferences, type StoredApiKey } from '../data/apiKeys';
import { roles, unassignableRole } from '../data/roles';
import { AppError, conflict, forbidden, notFound, validationFailed, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import type { Page } from '../page';
import { usagePlans } from '../ports/usagePlans';
import type { CreateApiKeyBody, ListApiKeysQuery, UpdateApiKeyBody } from '../schemas/access';
import { assertLocationAllowed } from './access';
import { changedFields } from './changes';
import {
  assertMayGrant,
  assertNoPlatformGrant,
  assertNoShortfall,
  assertPermissionsExist,
  isCustomPermission,
  keysHeld,
  permissionShortfalls,
  type HeldGrant,
  type Shortfall,
} from './permissions';
import { visibleRole } from './roles';

export interface NewApiKey {
  name: string;
  tier: Tier;
  /** Exactly one of permissions and roleId. */
  permissions?: string[] | null;
  roleId?: number | null;
  locationIds?: number[] | null;
  /** A publishable key's web origins (docs/online-booking.md); absent or null: a secret key. */
  allowedOrigins?: string[] | null;
}

export type ApiKeyWithPlaintext = ApiKeyRecord & { key: string };

const tierRank: Record<Tier, number> = { standard: 0, premium: 1, unlimited: 2 };

/**
 * Which grant a body gives: its role, its own permissions, or (on updates) neither. Both are
 * refused; so is neither on creation (400, naming both fields). Pure.
 */
export function chosenGrant(
  input: { roleId?: number | undefined; permissions?: string[] | undefined },
  required: boolean,
): 'role' | 'permissions' | undefined {
  const both = [
    { path: '/roleId', message: 'give exactly one of roleId and permissions' },
    { path: '/permissions', message: 'give exactly one of roleId and permissions' },
  ];
  if (input.roleId !== undefined && input.permissions !== undefined)
    throw validationFailed('A key holds a role or its own permissions, not both', both);
  if (input.roleId !== undefined) return 'role';
  if (input.permissions !== undefined) return 'permissions';
  if (required) throw validationFailed('A key needs a role or its own permissions', both);
  return undefined;
}

/** Whether `tier` is above the caller's: only API keys are bounded by their tier (users' tier is their own rate window). Pure. */
const tierAbove = (principal: Principal, tier: Tier) =>
  principal.kind === 'apiKey' && tierRank[tier] > tierRank[principal.tier];

/** An API key may give a key no higher tier than its own (403). Users' tier is their own rate window, not a bound. Pure. */
export function assertTierAllowed(principal: Principal, tier: Tier): void {
  if (tierAbove(principal, tier)) {
    throw new AppError(
      'FORBIDDEN',
      `This key is on the ${principal.tier} tier and may not give a key the ${tier} tier`,
      [{ path: '/tier', message: `at most ${principal.tier}` }],
    );
  }
}

/**
 * The locations a caller gives a key: a caller limited to some locations may give only those (403)
 * and gives all of them when the body names none; null means every location. Pure.
 */
export function locationsGiven(principal: Principal, requested: number[] | null | undefined): number[] | null {
  if (requested === undefined || principal.locationIds === null)
    return requested === undefined ? principal.locationIds : requested;
  if (requested === null)
    throw forbidden('This credential is limited to some locations; it cannot give a key every location');
  for (const locationId of requested) assertLocationAllowed(principal, locationId);
  return requested;
}

/** A caller limited to some locations manages only keys limited to some of them (403). Pure. */
export function assertWithinReach(principal: Principal, key: ApiKeyRecord): void {
  if (principal.locationIds === null) return;
  if (key.locationIds === null)
    throw forbidden('This credential is limited to some locations; it cannot manage a key for every location');
  for (const locationId of key.locationIds) assertLocationAllowed(principal, locationId);
}

/** The role or permissions a body names must exist (404) and be held by the caller (403). */
async function checkGrant(
  principal: Principal,
  grant: 'role' | 'permissions',
  input: { roleId?: number | undefined; permissions?: string[] | undefined },
): Promise<void> {
  if (grant === 'permissions') {
    const grants = input.permissions!.map((key, i) => ({ key, path: `/permissions/${i}` }));
    await assertPermissionsExist(grants);
    assertNoPlatformGrant(principal, grants);
    assertMayGrant(principal, grants);
    return;
  }
  // To a company's callers the platform-operator role is an unknown role; internal operators see it, and may not give it either.
  const role = await visibleRole(principal, input.roleId!, () => unassignableRole(input.roleId!));
  if (role.platformOperator) throw forbidden('The platform-operator role cannot be given to a key');
  const held = (await keysHeld(role)).map((key) => ({ key, path: '/roleId' }));
  // The admin system role holds every permission by design; a company's own role must not list the platform's.
  if (!role.allPermissions) assertNoPlatformGrant(principal, held);
  assertMayGrant(principal, held);
}

/** What a key holds as it is: its own permissions, or its role's now (every permission, for the admin role). */
async function heldByKey(principal: Principal, key: ApiKeyRecord): Promise<HeldGrant> {
  if (key.roleId === null) return { permissionKeys: key.permissions ?? [] };
  return (await roles.get(principal.companyId, key.roleId)) ?? { permissionKeys: [] };
}

/**
 * Whoever changes, revokes or deletes a key must reach its locations and hold everything it holds
 * as it is: each of its permissions and (API keys) at least its tier. 403 naming what is lacking.
 */
async function assertMayManage(principal: Principal, key: ApiKeyRecord): Promise<void> {
  assertWithinReach(principal, key);
  const tier: Shortfall[] = tierAbove(principal, key.tier)
    ? [
        {
          lacking: `the ${key.tier} tier (this credential is on ${principal.tier})`,
          problem: {
            path: '/tier',
            message: `the key is on the ${key.tier} tier, above this credential's ${principal.tier}`,
          },
        },
      ]
    : [];
  const path = key.roleId === null ? '/permissions' : '/roleId';
  assertNoShortfall('this API key', [
    ...tier,
    ...(await permissionShortfalls(principal, await heldByKey(principal, key), path)),
  ]);
}

/** Generates the key, gives it a usage key at its tier and stores both; a failed write leaves no usage key behind. */
async function store(
  companyId: number,
  input: NewApiKey,
  refs: KeyReferences,
): Promise<{ record: ApiKeyRecord; key: string }> {
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
    publishable: (input.allowedOrigins ?? null) !== null,
    allowedOrigins: input.allowedOrigins ?? null,
    createdAt: now,
    updatedAt: now,
    revokedAt: null,
    version: 1,
  };
  try {
    await apiKeys.create(
      companyId,
      { record, usageKey },
      // The plaintext is known only now: its verifier is written with it where this function has the pepper.
      {
        hash: generated.hash,
        fingerprint: generated.fingerprint,
        verifier: keyVerifier(generated.plaintext, generated.hash),
      },
      refs,
      newEvent(companyId, 'api-key.created', record.id, { ...record }),
    );
  } catch (err) {
    if (usageKey) await plans.detach(usageKey);
    throw err;
  }
  return { record, key: generated.plaintext };
}

/** Mints a key without a caller to check (the local seed and test fixtures), outside the cap; returns its record and plaintext. */
export function issueApiKey(companyId: number, input: NewApiKey): Promise<{ record: ApiKeyRecord; key: string }> {
  return store(companyId, input, { locationIds: [], counted: isCustomPermission });
}

/**
 * What only a publishable key has and what it must not (400, naming each field): its origins and
 * its own locations; never a grant of the caller's choosing, nor a tier above standard. Pure.
 */
function assertPublishableShape(input: {
  publishable?: boolean | undefined;
  tier?: Tier | undefined;
  roleId?: number | undefined;
  permissions?: string[] | undefined;
  locationIds?: number[] | null | undefined;
  allowedOrigins?: string[] | undefined;
}): void {
  const problems: FieldProblem[] = [];
  if (input.publishable) {
    if (input.allowedOrigins === undefined)
      problems.push({
        path: '/allowedOrigins',
        message: 'a publishable key names the web origins whose pages may use it',
      });
    if (!input.locationIds)
      problems.push({ path: '/locationIds', message: 'a publishable key names the locations guests may book' });
    if (input.roleId !== undefined)
      problems.push({ path: '/roleId', message: 'a publishable key holds the online-booking operations, no role' });
    if (input.permissions !== undefined)
      problems.push({ path: '/permissions', message: 'a publishable key holds the online-booking operations only' });
    if (input.tier !== undefined && input.tier !== 'standard')
      problems.push({ path: '/tier', message: 'a publishable key is counted per client IP at the standard tier' });
  } else {
    if (input.allowedOrigins !== undefined)
      problems.push({ path: '/allowedOrigins', message: 'only a publishable key has allowed origins' });
    if (input.tier === undefined) problems.push({ path: '/tier', message: 'a secret key needs a tier' });
  }
  if (problems.length > 0) throw validationFailed('The API key is not valid', problems);
}

export async function createApiKey(principal: Principal, input: CreateApiKeyBody): Promise<ApiKeyWithPlaintext> {
  assertPublishableShape(input);
  if (input.publishable) return createPublishableKey(principal, input);
  const grant = chosenGrant(input, true)!;
  const tier = input.tier!;
  assertTierAllowed(principal, tier);
  const locationIds = locationsGiven(principal, input.locationIds);
  await checkGrant(principal, grant, input);
  return storeCapped(
    principal.companyId,
    {
      name: input.name,
      tier,
      roleId: input.roleId ?? null,
      permissions: input.permissions ?? null,
      locationIds,
    },
    input.locationIds ?? [],
  );
}

/**
 * A key for a web page (docs/online-booking.md): the online-booking operations at the locations
 * named, from the origins named. Its creator must hold what it holds and reach its locations.
 */
async function createPublishableKey(principal: Principal, input: CreateApiKeyBody): Promise<ApiKeyWithPlaintext> {
  const locationIds = locationsGiven(principal, input.locationIds)!;
  assertMayGrant(
    principal,
    publishablePermissions.map((key) => ({ key, path: '/publishable' })),
  );
  return storeCapped(
    principal.companyId,
    {
      name: input.name,
      tier: 'standard',
      roleId: null,
      permissions: [...publishablePermissions],
      locationIds,
      allowedOrigins: input.allowedOrigins!,
    },
    locationIds,
  );
}

/** A publishable key changes only its name, locations and origins; a secret key has no origins (400). Pure. */
function assertChangeFits(key: ApiKeyRecord, input: UpdateApiKeyBody): void {
  const problems: FieldProblem[] = [];
  if (key.publishable) {
    for (const field of ['tier', 'roleId', 'permissions'] as const)
      if (input[field] !== undefined)
        problems.push({ path: `/${field}`, message: 'a publishable key holds the online-booking operations only' });
    if (input.locationIds === null)
      problems.push({ path: '/locationIds', message: 'a publishable key names the locations guests may book' });
  } else if (input.allowedOrigins !== undefined) {
    problems.push({ path: '/allowedOrigins', message: 'only a publishable key has allowed origins' });
  }
  if (problems.length > 0) throw validationFailed('The change does not fit this API key', problems);
}

/** A key made through the API: counted against the company's cap of live keys; answers the record with its plaintext. */
async function storeCapped(
  companyId: number,
  input: NewApiKey,
  namedLocations: readonly number[],
): Promise<ApiKeyWithPlaintext> {
  const { record, key } = await store(companyId, input, {
    locationIds: namedLocations,
    roleId: input.roleId ?? undefined,
    counted: isCustomPermission,
    liveLimit: config().apiKeysPerCompany,
  });
  return { ...record, key };
}

/**
 * A company's admin key, made by an internal operator who onboards it (docs/onboarding.md): the
 * company's admin role (which must still exist), every location, counted like any key made
 * through the API. The caller has checked who may.
 */
export function issueAdminKey(
  companyId: number,
  adminRoleId: number,
  input: { name: string; tier: Tier },
): Promise<ApiKeyWithPlaintext> {
  return storeCapped(
    companyId,
    { name: input.name, tier: input.tier, roleId: adminRoleId, permissions: null, locationIds: null },
    [],
  );
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
  assertChangeFits(prev, input);
  await assertMayManage(principal, prev);
  const grant = chosenGrant(input, false);
  if (input.tier) assertTierAllowed(principal, input.tier);
  const locationIds = input.locationIds === undefined ? prev.locationIds : locationsGiven(principal, input.locationIds);
  if (grant) await checkGrant(principal, grant, input);

  const next: ApiKeyRecord = {
    ...prev,
    name: input.name ?? prev.name,
    tier: input.tier ?? prev.tier,
    roleId: grant === undefined ? prev.roleId : (input.roleId ?? null),
    permissions:
      grant === undefined ? prev.permissions : grant === 'permissions' ? [...input.permissions!].sort() : null,
    locationIds,
    allowedOrigins: input.allowedOrigins ?? prev.allowedOrigins,
    updatedAt: new Date().toISOString(),
    version: prev.version + 1,
  };
  const changes = changedFields(prev, next, ['name', 'tier', 'roleId', 'permissions', 'locationIds', 'allowedOrigins']);
  if (Object.keys(changes).length === 0) return prev;

  const plans = await usagePlans();
  const moved = current.usageKey !== null && next.tier !== prev.tier;
  if (moved) await plans.move(current.usageKey!, prev.tier, next.tier);
  try {
    const refs = {
      locationIds: input.locationIds ?? [],
      roleId: grant === 'role' ? input.roleId : undefined,
      counted: isCustomPermission,
    };
    await apiKeys.update(
      principal.companyId,
      { ...current, record: next },
      prev,
      refs,
      newEvent(principal.companyId, 'api-key.updated', id, { ...next }, changes),
    );
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
  await assertMayManage(principal, prev);
  if (prev.revokedAt) return prev;
  const now = new Date().toISOString();
  const next: ApiKeyRecord = { ...prev, revokedAt: now, updatedAt: now, version: prev.version + 1 };
  await apiKeys.revoke(
    principal.companyId,
    { ...current, record: next, usageKey: null },
    prev,
    isCustomPermission,
    newEvent(principal.companyId, 'api-key.revoked', id, { ...next }),
  );
  forgetApiKey(prev.keyId);
  if (current.usageKey) await (await usagePlans()).detach(current.usageKey);
  return next;
}
