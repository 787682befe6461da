/**
 * Credential → principal. Used by the API Gateway authorizer on AWS and by the Middy chain where
 * no authorizer ran (the local stage). A verified API key is cached by the SHA-256 of the key for
 * at most 60 s, so bcrypt runs once per key per container, and a revocation or a change of the key
 * or its role bites within a minute everywhere (at once in the process that made it).
 */
import { createHash } from 'node:crypto';
import { config } from '../config';
import { apiKeys } from '../data/apiKeys';
import { roles } from '../data/roles';
import { unauthenticated } from '../errors';
import { parseApiKey, verifyApiKey } from './apiKey';
import { verifyBearer } from './jwt';
import type { Principal } from './principal';

export const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX = 10_000;

interface Cached {
  principal: Principal | null;
  /** Set when the key verified: the index below points back at this entry. */
  keyId?: string;
  expiresAt: number;
}
const keyCache = new Map<string, Cached>();
/** keyId → digest of its verified entry, so a change to a key can drop it by keyId. */
const verifiedByKeyId = new Map<string, string>();

export const keyCacheStats = () => ({ entries: keyCache.size, maxEntries: KEY_CACHE_MAX, ttlSeconds: KEY_CACHE_TTL_MS / 1000 });
export const clearKeyCache = () => {
  keyCache.clear();
  verifiedByKeyId.clear();
};

function dropEntry(digest: string): void {
  const keyId = keyCache.get(digest)?.keyId;
  if (keyId !== undefined && verifiedByKeyId.get(keyId) === digest) verifiedByKeyId.delete(keyId);
  keyCache.delete(digest);
}

/** Drops the cached principal of a key that was just revoked or changed in this process. */
export function forgetApiKey(keyId: string): void {
  const digest = verifiedByKeyId.get(keyId);
  if (digest !== undefined) dropEntry(digest);
}

async function principalOfKey(key: string, keyId: string): Promise<Principal | null> {
  const auth = await apiKeys.findAuth(keyId);
  if (!auth || auth.revoked || !(await verifyApiKey(key, auth.hash))) return null;
  // A key with a role holds the role's permissions as they are now (the role stores their keys).
  const permissions = auth.roleId ? ((await roles.grantOf(auth.companyId, auth.roleId)) ?? []) : auth.permissions;
  return {
    kind: 'apiKey',
    companyId: auth.companyId,
    permissions,
    tier: auth.tier,
    locationIds: auth.locationIds,
    rateSubject: `key:${keyId}`,
    internalOperator: false,
    apiKeyId: auth.apiKeyId,
    ...(auth.usageKey ? { usageKey: auth.usageKey } : {}),
  };
}

async function cachedPrincipalOfKey(key: string, now: number): Promise<Principal | null> {
  const digest = createHash('sha256').update(key).digest('base64url');
  const hit = keyCache.get(digest);
  if (hit && hit.expiresAt > now) return hit.principal;
  const parsed = parseApiKey(key, config().stage);
  const principal = parsed ? await principalOfKey(key, parsed.keyId) : null;
  dropEntry(digest);
  if (keyCache.size >= KEY_CACHE_MAX) dropEntry(keyCache.keys().next().value!);
  // Only a verified key is indexed: a wrong secret for the same keyId must not displace it.
  const keyId = principal ? parsed!.keyId : undefined;
  keyCache.set(digest, { principal, expiresAt: now + KEY_CACHE_TTL_MS, ...(keyId ? { keyId } : {}) });
  if (keyId) verifiedByKeyId.set(keyId, digest);
  return principal;
}

async function principalOfBearer(token: string): Promise<Principal | null> {
  const claims = await verifyBearer(token);
  if (!claims) return null;
  return {
    kind: 'user',
    companyId: claims.cid,
    permissions: claims.perms,
    tier: 'standard',
    locationIds: null,
    rateSubject: `user:${claims.sub}`,
    internalOperator: config().internalOperatorIds.has(claims.sub),
    userId: claims.sub,
  };
}

/**
 * The principal of a request's credential (`X-API-Key`, or `Authorization: Bearer`). Headers are
 * lower-cased. Throws UNAUTHENTICATED when there is none or it does not verify.
 */
export async function authenticate(headers: Record<string, string | undefined>, now = Date.now()): Promise<Principal> {
  const apiKey = headers['x-api-key'];
  const authorization = headers['authorization'];
  let principal: Principal | null = null;
  if (apiKey) principal = await cachedPrincipalOfKey(apiKey, now);
  else if (authorization?.startsWith('Bearer ')) principal = await principalOfBearer(authorization.slice(7).trim());
  else throw unauthenticated();
  if (!principal) throw unauthenticated('The API key or bearer token is not valid');
  return principal;
}
