/**
 * API key format (docs/access.md): `brigade_<live|dev>_<keyId>_<secret>`. `keyId` (12 of a-z0-9)
 * finds the stored hash; `secret` (40 base62, 238 bits) carries the entropy. The whole key is
 * bcrypt-hashed; beside the hash is kept a fingerprint (32 bits of its SHA-256) that refuses a
 * wrong secret without running bcrypt (docs/access.md, threat model).
 */
import { createHash, randomInt } from 'node:crypto';
import type { Stage } from '../config';

export const BCRYPT_COST = 10;

/**
 * bcrypt's cost for a new key: `BCRYPT_COST` on every deployed stage. The local stage honours
 * `API_KEY_HASH_COST` (4 to 10) when it is set: the test suites set 4, since they make a few
 * hundred keys and a cost-10 hash and its first check take 0.1-0.2 s each of a 2-core machine.
 * `npm start` leaves it unset. A hash carries its cost, so keys of any cost verify everywhere.
 */
export function hashCost(stage: Stage, env: NodeJS.ProcessEnv = process.env): number {
  const asked = env.API_KEY_HASH_COST;
  if (stage !== 'local' || asked === undefined || asked === '') return BCRYPT_COST;
  const cost = Number(asked);
  if (!Number.isInteger(cost) || cost < 4 || cost > BCRYPT_COST)
    throw new Error(`API_KEY_HASH_COST must be an integer from 4 to ${BCRYPT_COST}`);
  return cost;
}

/** bcrypt is loaded on first use: most requests are served from the verified-key cache. */
const bcrypt = async () => (await import('bcryptjs')).default;
const KEY_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = /^brigade_(live|dev)_([a-z0-9]{12})_([A-Za-z0-9]{40})$/;

export const keyPrefix = (stage: Stage) => (stage === 'prod' ? 'brigade_live_' : 'brigade_dev_');

const randomString = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/** `length` random letters and digits from a CSPRNG. */
export const randomBase62 = (length: number) => randomString(SECRET_ALPHABET, length);

export interface ParsedKey {
  environment: 'live' | 'dev';
  keyId: string;
}

/** The parts of a well-formed key, or undefined. A key of the other environment is not accepted. */
export function parseApiKey(value: string, stage: Stage): ParsedKey | undefined {
  const m = KEY_PATTERN.exec(value);
  if (!m) return undefined;
  const environment = m[1] as 'live' | 'dev';
  if (`brigade_${environment}_` !== keyPrefix(stage)) return undefined;
  return { environment, keyId: m[2]! };
}

export interface NewKey {
  keyId: string;
  plaintext: string;
  hash: string;
  fingerprint: string;
}

/**
 * The first 32 bits of the key's SHA-256, as 8 hex digits. A random secret matches a stored one
 * once in 2^32 tries, so junk with a real keyId almost never reaches bcrypt; and it tells whoever
 * reads it nothing usable about a 238-bit secret.
 */
export const keyFingerprint = (plaintext: string): string =>
  createHash('sha256').update(plaintext).digest('hex').slice(0, 8);

export async function generateApiKey(stage: Stage): Promise<NewKey> {
  const keyId = randomString(KEY_ID_ALPHABET, 12);
  const plaintext = `${keyPrefix(stage)}${keyId}_${randomBase62(40)}`;
  return {
    keyId,
    plaintext,
    hash: await (await bcrypt()).hash(plaintext, hashCost(stage)),
    fingerprint: keyFingerprint(plaintext),
  };
}

export const verifyApiKey = async (plaintext: string, hash: string): Promise<boolean> =>
  (await bcrypt()).compare(plaintext, hash);
