/**
 * The verifier kept beside an API key's bcrypt hash (docs/access.md, "How a key is verified"): an
 * HMAC-SHA256 of the key under the stage's pepper, a secret the table does not hold
 * (`API_KEY_PEPPER`: on AWS a Secrets Manager secret of the stage, infra/credential-authorizer.ts;
 * on the local stage derived from its own secret, bin/local/stage.ts). bcrypt stays the stored
 * credential; the verifier only lets a container that has not seen the key judge it with one HMAC
 * instead of one bcrypt run.
 *
 * Stored as `<pepper id>.<hash tag>.<mac>`: the pepper id (32 bits of an HMAC of a fixed label under
 * the pepper) and the hash tag (64 bits of the bcrypt hash's SHA-256) say which pepper and which
 * hash it was made for. A verifier made under another pepper (rotated) or for another hash is not
 * used: bcrypt judges the key, and the authorizer writes a new verifier. The MAC covers the hash and
 * the key, and is compared in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../config';

interface Pepper {
  source: string;
  key: Buffer;
  id: string;
}

let pepper: Pepper | undefined;

/** This process's pepper (read again when the configuration changed), or undefined: no verifiers here. */
function currentPepper(): Pepper | undefined {
  const source = config().apiKeyPepper;
  if (source === undefined) return undefined;
  if (pepper?.source !== source) {
    const key = Buffer.from(source, 'utf8');
    pepper = {
      source,
      key,
      id: createHmac('sha256', key).update('brigade api-key pepper id').digest('hex').slice(0, 8),
    };
  }
  return pepper;
}

const hashTag = (hash: string): string => createHash('sha256').update(hash).digest('base64url').slice(0, 11);

const macOf = (p: Pepper, plaintext: string, hash: string): Buffer =>
  createHmac('sha256', p.key).update(hash).update('\n').update(plaintext).digest();

/** The verifier of `plaintext` for the lookup item whose bcrypt hash is `hash`; undefined where there is no pepper. */
export function keyVerifier(plaintext: string, hash: string): string | undefined {
  const p = currentPepper();
  return p && `${p.id}.${hashTag(hash)}.${macOf(p, plaintext, hash).toString('base64url')}`;
}

/**
 * What a stored verifier says of `plaintext`: true or false when it decides, `unusable` when there
 * is none, this process has no pepper, or it was made under another pepper or for another hash.
 */
export function checkVerifier(stored: string | undefined, plaintext: string, hash: string): boolean | 'unusable' {
  const p = currentPepper();
  if (stored === undefined || p === undefined) return 'unusable';
  const [id, tag, mac] = stored.split('.');
  if (id !== p.id || tag !== hashTag(hash) || mac === undefined) return 'unusable';
  const expected = macOf(p, plaintext, hash);
  const given = Buffer.from(mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether `stored` is the verifier this process would write for `hash` (same pepper, same hash). */
export const verifierCurrent = (stored: string | undefined, hash: string): boolean => {
  const p = currentPepper();
  return p !== undefined && stored?.startsWith(`${p.id}.${hashTag(hash)}.`) === true;
};
