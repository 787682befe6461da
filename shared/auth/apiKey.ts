/**
 * API key format (decisions.md §2): `brigade_<live|dev>_<keyId>_<secret>`. `keyId` (12 of a-z0-9)
 * finds the stored hash; `secret` (40 base62) carries the entropy. The whole key is bcrypt-hashed.
 */
import { randomInt } from 'node:crypto';
import type { Stage } from '../config';

export const BCRYPT_COST = 10;

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
}

export async function generateApiKey(stage: Stage): Promise<NewKey> {
  const keyId = randomString(KEY_ID_ALPHABET, 12);
  const plaintext = `${keyPrefix(stage)}${keyId}_${randomBase62(40)}`;
  return { keyId, plaintext, hash: await (await bcrypt()).hash(plaintext, BCRYPT_COST) };
}

export const verifyApiKey = async (plaintext: string, hash: string): Promise<boolean> => (await bcrypt()).compare(plaintext, hash);
