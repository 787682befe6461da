/**
 * Bearer tokens (docs/access.md): HS256 with a local secret on the local stage, RS256/ES256
 * against a JWKS URL on deployed stages. Claims: sub (numeric string), cid, perms, exp, and `iss`
 * and `aud`, which must be this stage's issuer and audience: a token the same identity provider
 * issued to another stage or another application is refused, though its signature verifies.
 */
import type { JWTPayload, createRemoteJWKSet } from 'jose';
import { config, localTokenBinding } from '../config';
import { unavailable } from '../errors';

export interface UserClaims {
  sub: string;
  cid: number;
  perms: string[];
}

/** The key set of the configured JWKS URL (jose caches and refreshes its keys), made on first use. */
let jwks: { url: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

/** jose is loaded when the first bearer token arrives: API-key traffic never needs it. */
const jose = () => import('jose');

function isUserClaims(p: JWTPayload): p is JWTPayload & UserClaims {
  return (
    typeof p.sub === 'string' &&
    /^[0-9]+$/.test(p.sub) &&
    Number.isInteger(p.cid) &&
    (p.cid as number) > 0 &&
    Array.isArray(p.perms) &&
    p.perms.every((x) => typeof x === 'string') &&
    typeof p.exp === 'number'
  );
}

/**
 * The token's claims if its signature, expiry and claim shapes are right; otherwise undefined.
 * When the JWKS cannot be fetched the token cannot be judged: that is 503, not 401.
 */
export async function verifyBearer(token: string): Promise<UserClaims | undefined> {
  const { jwtSecret, jwksUrl, jwtIssuer, jwtAudience } = config();
  // A token bound to no issuer and audience would be accepted from any application of the provider.
  if (!jwtIssuer || !jwtAudience) return undefined;
  const options = { requiredClaims: ['sub', 'exp', 'iss', 'aud'], issuer: jwtIssuer, audience: jwtAudience };
  try {
    const { createRemoteJWKSet, jwtVerify } = await jose();
    let payload: JWTPayload;
    if (jwksUrl) {
      if (jwks?.url !== jwksUrl) jwks = { url: jwksUrl, keys: createRemoteJWKSet(new URL(jwksUrl)) };
      ({ payload } = await jwtVerify(token, jwks.keys, { ...options, algorithms: ['RS256', 'ES256'] }));
    } else if (jwtSecret) {
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(jwtSecret), {
        ...options,
        algorithms: ['HS256'],
      }));
    } else {
      return undefined;
    }
    return isUserClaims(payload) ? { sub: payload.sub, cid: payload.cid, perms: payload.perms } : undefined;
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC' || !code?.startsWith('ERR_J'))
      throw unavailable("The token issuer's keys cannot be fetched; try again shortly");
    return undefined;
  }
}

/** Signs an HS256 token (the local stage's operator token, and tests), bound to the local stage's issuer and audience. */
export async function signLocalToken(
  claims: UserClaims,
  secret: string,
  expiresIn = '365d',
  binding: { issuer: string; audience: string } = localTokenBinding,
): Promise<string> {
  const { SignJWT } = await jose();
  return new SignJWT({ cid: claims.cid, perms: claims.perms })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(binding.issuer)
    .setAudience(binding.audience)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
}
