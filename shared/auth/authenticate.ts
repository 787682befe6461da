/**
 * Credential → principal. Used by the API Gateway authorizer on AWS and by the Middy chain where
 * no authorizer ran (the local stage). The design against floods (docs/access.md, threat model) and
 * for many keys (docs/access.md, "How a key is verified"):
 *
 * - A key that does not parse is refused at once: no read, no bcrypt, no cache entry.
 * - Verified keys and refused keys are cached apart (SHA-256 of the key → entry, 60 s; at most
 *   `VERIFIED_MAX` verified entries and 10,000 refused ones, the oldest dropped first), so junk can
 *   only evict junk. Principals holding the same permissions share one list of them.
 * - A verified key is remembered with the hash it verified against after its 60 s are up: once
 *   they are, the next request reads the lookup item again (revocation, changes) but needs no
 *   bcrypt while the hash is the same. A key this container has verified is never locked out.
 * - A secret whose fingerprint (32 bits of its SHA-256, on the lookup item) differs from the
 *   key's is refused without bcrypt: random secrets with a real keyId almost never reach it.
 * - A lookup item carrying a verifier of its hash under this process's pepper (shared/auth/verifier.ts)
 *   is judged by it, one HMAC compared in constant time: accepted or refused, without bcrypt. Only
 *   without one (a key made where there was no pepper, a rotated pepper, a changed hash) does bcrypt
 *   run; the authorizer then writes the verifier (`recordVerifier`), so the key costs each
 *   container one HMAC from then on, not one bcrypt run.
 * - bcrypt runs at most `BCRYPT_ATTEMPTS_PER_KEY_ID` times per keyId per minute per container
 *   for secrets not yet verified here (successes give their attempt back); beyond that such a
 *   secret is refused unverified and not cached. Concurrent requests with one key share one
 *   verification, so a busy real key spends one attempt, not one per request.
 *
 * Lookups are strongly consistent reads: a new key works as soon as its creation has answered,
 * and a revoked or changed one is refused by the first verification after its entry's 60 s (at
 * once in the process that revoked it): every verdict after that, by verifier or by bcrypt, starts
 * from a fresh read of the lookup item.
 */
import { createHash } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../config';
import { apiKeys, type ApiKeyAuth } from '../data/apiKeys';
import { roles } from '../data/roles';
import { unauthenticated } from '../errors';
import { keyFingerprint, parseApiKey, verifyApiKey } from './apiKey';
import { putBounded } from '../boundedMap';
import { checkVerifier, keyVerifier, verifierCurrent } from './verifier';
import { builtInPermissions } from './catalog';
import { verifyBearer } from './jwt';
import type { Principal } from './principal';

const logger = new Logger({ serviceName: 'brigade' });

/** How long a verified principal is used before its lookup item is read again: the revocation bound (docs/access.md). */
export const KEY_CACHE_TTL_MS = 60_000;
/**
 * Verified keys a container remembers: about 0.6 KB each with the permission lists shared (measured,
 * docs/access.md "How a key is verified"), so 200,000 take some 120 MB of the authorizer's 512 MB.
 */
const VERIFIED_MAX = 200_000;
const REFUSED_MAX = 10_000;
/** Distinct permission lists shared between principals. */
const PERMISSION_LISTS_MAX = 10_000;
/** bcrypt runs a keyId may cost one container per minute for secrets not verified there yet. */
export const BCRYPT_ATTEMPTS_PER_KEY_ID = 5;
const BUDGETS_MAX = 10_000;

interface Verified {
  principal: Principal;
  keyId: string;
  /** The bcrypt hash the key verified against: while the lookup item holds the same, no bcrypt again. */
  hash: string;
  /** Until then the principal is used as it is; after, it is read again. */
  expiresAt: number;
}

/** Digest of the key → its verified entry. */
const verified = new Map<string, Verified>();
/** keyId → digest of its verified entry, so a change to a key can drop it by keyId. */
const verifiedByKeyId = new Map<string, string>();
/** Digest of a refused key → until when it stays refused without a read. */
const refused = new Map<string, number>();
/** keyId → bcrypt runs spent on unverified secrets in the minute since `since`. */
const budgets = new Map<string, { spent: number; since: number }>();
/** Digest → the verification under way (at most one per key at a time). */
const inFlight = new Map<string, Promise<Principal | null>>();
/** A permission list → the one frozen copy principals holding it share (keys of one role hold the same list). */
const permissionLists = new Map<string, string[]>();

export const keyCacheStats = () => ({
  entries: verified.size,
  maxEntries: VERIFIED_MAX,
  refusedEntries: refused.size,
  ttlSeconds: KEY_CACHE_TTL_MS / 1000,
});
export const clearKeyCache = () => {
  verified.clear();
  verifiedByKeyId.clear();
  refused.clear();
  budgets.clear();
  permissionLists.clear();
};

function dropVerified(digest: string): void {
  const keyId = verified.get(digest)?.keyId;
  if (keyId !== undefined && verifiedByKeyId.get(keyId) === digest) verifiedByKeyId.delete(keyId);
  verified.delete(digest);
}

function remember(digest: string, entry: Verified): void {
  const previous = verifiedByKeyId.get(entry.keyId);
  if (previous !== undefined && previous !== digest) dropVerified(previous);
  putBounded(verified, digest, entry, VERIFIED_MAX, dropVerified);
  verifiedByKeyId.set(entry.keyId, digest);
  refused.delete(digest);
}

const refuse = (digest: string, now: number) => putBounded(refused, digest, now + KEY_CACHE_TTL_MS, REFUSED_MAX);

/** Takes one bcrypt run from the keyId's budget for this minute; false when it is spent. */
function spend(keyId: string, now: number): boolean {
  const budget = budgets.get(keyId);
  const current = budget && budget.since + KEY_CACHE_TTL_MS > now ? budget : { spent: 0, since: now };
  if (current.spent >= BCRYPT_ATTEMPTS_PER_KEY_ID) return false;
  putBounded(budgets, keyId, { spent: current.spent + 1, since: current.since }, BUDGETS_MAX);
  return true;
}

/** A bcrypt run that verified the key gives its attempt back: only failures use the budget up. */
function giveBack(keyId: string): void {
  const budget = budgets.get(keyId);
  if (budget && budget.spent > 0) budget.spent -= 1;
}

/** The shared copy of a permission list: one array per distinct list, however many principals hold it. */
function sharedList(list: readonly string[]): string[] {
  const id = list.join('\n');
  const known = permissionLists.get(id);
  if (known) return known;
  const copy = Object.freeze([...list]) as string[];
  putBounded(permissionLists, id, copy, PERMISSION_LISTS_MAX);
  return copy;
}

/** Drops the cached principal of a key that was just revoked or changed in this process. */
export function forgetApiKey(keyId: string): void {
  const digest = verifiedByKeyId.get(keyId);
  if (digest !== undefined) dropVerified(digest);
}

async function principalOf(auth: ApiKeyAuth, keyId: string): Promise<Principal> {
  // A key with a role holds the role's permissions as they are now (the role stores their keys);
  // the admin role holds every permission, including those the platform adds after this moment.
  const role = auth.roleId ? await roles.grantOf(auth.companyId, auth.roleId) : undefined;
  const all = role?.allPermissions === true;
  const permissions = auth.roleId
    ? all
      ? [...new Set([...builtInPermissions, ...role!.permissionKeys])]
      : (role?.permissionKeys ?? [])
    : auth.permissions;
  return {
    kind: 'apiKey',
    companyId: auth.companyId,
    permissions: sharedList(permissions),
    ...(all ? { allPermissions: true as const } : {}),
    tier: auth.tier,
    locationIds: auth.locationIds,
    rateSubject: `key:${keyId}`,
    internalOperator: false,
    apiKeyId: auth.apiKeyId,
    ...(auth.usageKey ? { usageKey: auth.usageKey } : {}),
    ...(auth.allowedOrigins ? { allowedOrigins: auth.allowedOrigins } : {}),
  };
}

/**
 * How a secret was judged: by the lookup item alone (missing, revoked), this container's memory, the
 * fingerprint, the verifier, or bcrypt; `unjudged` when bcrypt was needed and the keyId's budget is spent.
 */
type Judgement = { matches: boolean; by: 'lookup' | 'memory' | 'fingerprint' | 'verifier' | 'bcrypt' } | 'unjudged';

/** Whether `key` is the key of `auth`, running bcrypt only when nothing cheaper can tell. */
async function judge(
  key: string,
  keyId: string,
  auth: ApiKeyAuth,
  known: Verified | undefined,
  now: number,
): Promise<Judgement> {
  if (known?.hash === auth.hash) return { matches: true, by: 'memory' }; // this very key verified against this very hash before
  if (auth.fingerprint !== undefined && auth.fingerprint !== keyFingerprint(key))
    return { matches: false, by: 'fingerprint' };
  const byVerifier = checkVerifier(auth.verifier, key, auth.hash);
  if (byVerifier !== 'unusable') return { matches: byVerifier, by: 'verifier' };
  if (!spend(keyId, now)) return 'unjudged';
  const ok = await verifyApiKey(key, auth.hash);
  if (ok) giveBack(keyId);
  return { matches: ok, by: 'bcrypt' };
}

/**
 * Writes the verifier of a key that verified against a lookup item lacking a current one, so no
 * container needs bcrypt for it again. Only while the item holds the hash that verified it; a
 * failure costs the next container one bcrypt run, never this request.
 */
async function recordVerifier(key: string, keyId: string, auth: ApiKeyAuth): Promise<void> {
  if (verifierCurrent(auth.verifier, auth.hash)) return;
  const verifier = keyVerifier(key, auth.hash);
  if (verifier === undefined) return;
  try {
    await apiKeys.recordVerifier(keyId, auth.hash, verifier);
  } catch (err) {
    logger.warn('writing an API key verifier failed; bcrypt judges the key again', { keyId, error: err as Error });
  }
}

async function cachedPrincipalOfKey(key: string, now: number, options: AuthenticateOptions): Promise<Principal | null> {
  const parsed = parseApiKey(key, config().stage);
  if (!parsed) return null;
  const digest = createHash('sha256').update(key).digest('base64url');
  const known = verified.get(digest);
  if (known && known.expiresAt > now) return known.principal;
  if ((refused.get(digest) ?? 0) > now) return null;
  // Concurrent requests with one key (the local stage serves many at once) share one verification.
  const pending = inFlight.get(digest);
  if (pending) return pending;
  const verification = verify(key, parsed.keyId, digest, known, now, options).finally(() => inFlight.delete(digest));
  inFlight.set(digest, verification);
  return verification;
}

/** Reads the key's lookup item, judges the secret and caches the verdict (a refusal for lack of budget is no verdict). */
async function verify(
  key: string,
  keyId: string,
  digest: string,
  known: Verified | undefined,
  now: number,
  options: AuthenticateOptions,
): Promise<Principal | null> {
  const auth = await apiKeys.findAuth(keyId);
  const judged: Judgement =
    auth && !auth.revoked ? await judge(key, keyId, auth, known, now) : { matches: false, by: 'lookup' };
  if (judged === 'unjudged') return null;
  if (!judged.matches) {
    dropVerified(digest);
    refuse(digest, now);
    return null;
  }
  const [principal] = await Promise.all([
    principalOf(auth!, keyId),
    options.recordVerifier && judged.by !== 'verifier' ? recordVerifier(key, keyId, auth!) : undefined,
  ]);
  remember(digest, { principal, keyId, hash: auth!.hash, expiresAt: now + KEY_CACHE_TTL_MS });
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

export interface AuthenticateOptions {
  /**
   * Write the verifier onto a lookup item that lacks a current one once the key verified: the
   * authorizer does (its role may update a lookup item's verifier); the functions that verify a
   * credential themselves do not. Concurrent requests with one key share the first one's options.
   */
  recordVerifier?: boolean;
}

/**
 * The principal of a request's credential (`X-API-Key`, or `Authorization: Bearer`). Headers are
 * lower-cased. Throws UNAUTHENTICATED when there is none or it does not verify.
 */
export async function authenticate(
  headers: Record<string, string | undefined>,
  now = Date.now(),
  options: AuthenticateOptions = {},
): Promise<Principal> {
  const apiKey = headers['x-api-key'];
  const authorization = headers['authorization'];
  let principal: Principal | null = null;
  if (apiKey) principal = await cachedPrincipalOfKey(apiKey, now, options);
  else if (authorization?.startsWith('Bearer ')) principal = await principalOfBearer(authorization.slice(7).trim());
  else throw unauthenticated();
  if (!principal) throw unauthenticated('The API key or bearer token is not valid');
  return principal;
}
