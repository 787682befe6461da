/** Who is calling, once the credential is verified. Everything a request may do follows from it. */
export type Tier = 'standard' | 'premium' | 'unlimited';

/** Requests per clock hour (spec §8). */
export const tierLimits: Record<Tier, number> = { standard: 1_000, premium: 10_000, unlimited: 100_000 };
export const tiers = Object.keys(tierLimits) as Tier[];

export interface Principal {
  kind: 'apiKey' | 'user';
  companyId: number;
  permissions: string[];
  tier: Tier;
  /** Locations the credential may act on; null means every location of the company. */
  locationIds: number[] | null;
  /** Whose hourly window a request counts against. */
  rateSubject: string;
  /** JWT users whose `sub` is on the internal-operator list (permission catalog management). */
  internalOperator: boolean;
  /** The API key's record id (UUID), for keys. */
  apiKeyId?: string;
  /** The user's id (JWT `sub`), for users. */
  userId?: string;
}
