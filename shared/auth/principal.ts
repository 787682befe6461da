/** Who is calling, once the credential is verified. Everything a request may do follows from it. */
import type { Tier } from '../schemas/access';

export type { Tier } from '../schemas/access';

/** Requests per clock hour (docs/conventions.md, “Limits”). */
export const tierLimits: Record<Tier, number> = { standard: 1_000, premium: 10_000, unlimited: 100_000 };

export interface Principal {
  kind: 'apiKey' | 'user';
  companyId: number;
  /** The permissions it holds (for a key of the admin role: every built-in, see `allPermissions`). */
  permissions: string[];
  /**
   * A key of the company's admin system role: it holds every permission of the catalog, including
   * those the platform adds after the key was verified. Ask `holds`, not `permissions`.
   */
  allPermissions?: true;
  tier: Tier;
  /** Locations the credential may act on; null means every location of the company. */
  locationIds: number[] | null;
  /** Whose hourly window a request counts against. */
  rateSubject: string;
  /** JWT users whose `sub` is on the internal-operator list (permission catalog management). */
  internalOperator: boolean;
  /**
   * A publishable key's web origins (docs/online-booking.md): a request from another origin is
   * refused, and the key's requests count in the client IP's window, not the key's.
   */
  allowedOrigins?: string[];
  /** The API key's record id (UUID), for keys. */
  apiKeyId?: string;
  /** The user's id (JWT `sub`), for users. */
  userId?: string;
  /**
   * The API Gateway API key value that identifies this key to its tier's usage plan (deployed
   * stages; set when the key is created). Absent: the authorizer falls back to the tier's shared key.
   */
  usageKey?: string;
}

/** Whether the principal holds the permission `key`. */
export const holds = (principal: Principal, key: string): boolean =>
  principal.allPermissions === true || principal.permissions.includes(key);

/**
 * What the API Gateway authorizer passes to the handlers in `requestContext.authorizer`:
 * `principal` (JSON of Principal) when the credential verified, otherwise `anonymous: "true"`,
 * so the handler answers 401 itself, in the envelope and with rate-limit headers.
 */
export interface AuthorizerContext {
  principal?: string;
  anonymous?: 'true';
}
