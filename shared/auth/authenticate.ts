/**
 * Credential → principal. Used by the API Gateway authorizer on AWS and by the Middy chain where
 * no authorizer ran (the local stage). A verified API key is cached by the SHA-256 of the key for
 * at most 60 s, so bcrypt runs once per key per container and a revocation bites within a minute.
 */
import { createHash } from 'node:crypto';
import { config } from '../config';
import { apiKeys } from '../data/apiKeys';
import { unauthenticated } from '../errors';
import { parseApiKey, verifyApiKey } from './apiKey';
import { verifyBearer } from './jwt';
import type { Principal } from './principal';

export const KEY_CACHE_TTL_MS = 60_000;
const KEY_CACHE_MAX = 10_000;

interface Cached {
  principal: Principal | null;
  expiresAt: number;
}
const keyCache = new Map<string, Cached>();

export const keyCacheStats = () => ({ entries: keyCache.size, maxEntries: KEY_CACHE_MAX, ttlSeconds: KEY_CACHE_TTL_MS / 1000 });
export const clearKeyCache = () => keyCache.clear();

async function principalOfKey(key: string): Promise<Principal | null> {
  const parsed = parseApiKey(key, config().stage);
  if (!parsed) return null;
  const auth = await apiKeys.findAuth(parsed.keyId);
  if (!auth || auth.revoked || !(await verifyApiKey(key, auth.hash))) return null;
  return {
    kind: 'apiKey',
    companyId: auth.companyId,
    permissions: auth.permissions,
    tier: auth.tier,
    locationIds: auth.locationIds,
    rateSubject: `key:${parsed.keyId}`,
    internalOperator: false,
    apiKeyId: auth.apiKeyId,
    ...(auth.usageKey ? { usageKey: auth.usageKey } : {}),
  };
}

async function cachedPrincipalOfKey(key: string, now: number): Promise<Principal | null> {
  const digest = createHash('sha256').update(key).digest('base64url');
  const hit = keyCache.get(digest);
  if (hit && hit.expiresAt > now) return hit.principal;
  const principal = await principalOfKey(key);
  if (keyCache.size >= KEY_CACHE_MAX) keyCache.delete(keyCache.keys().next().value!);
  keyCache.delete(digest);
  keyCache.set(digest, { principal, expiresAt: now + KEY_CACHE_TTL_MS });
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
