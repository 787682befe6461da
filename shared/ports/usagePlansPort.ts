/**
 * The port to the API Gateway usage plans that meter each merchant key by its tier
 * (infra/usage-tiers.ts). Its adapters: apiGatewayUsagePlans.ts on AWS, `noUsagePlans` on the
 * local stage; usagePlans.ts picks the stage's.
 */
import type { Tier } from '../schemas/access';

/** A gateway key: its id (to move or delete it) and its value (what the authorizer names). */
export interface UsageKey {
  id: string;
  value: string;
}

export interface UsagePlans {
  /** Creates a gateway key for the merchant key `keyId` in its tier's plan; null where there is no gateway. */
  attach(keyId: string, tier: Tier): Promise<UsageKey | null>;
  /** Moves the gateway key to another tier's plan. */
  move(usageKey: UsageKey, fromTier: Tier, toTier: Tier): Promise<void>;
  /** Deletes the gateway key. Never throws: its merchant key is already revoked or was never stored. */
  detach(usageKey: UsageKey): Promise<void>;
}
