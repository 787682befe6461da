/**
 * The API Gateway usage plans that meter each merchant key by its tier (infra/usage-tiers.ts).
 * A key gets its own gateway key on creation; the authorizer names it as the request's
 * `usageIdentifierKey`, so API Gateway throttles each key on its own. The local stage has no
 * gateway: its adapter attaches nothing.
 */
import type { Tier } from '../auth/principal';
import { config } from '../config';

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

/** The local stage: no gateway, nothing to meter. */
export const noUsagePlans: UsagePlans = {
  attach: async () => null,
  move: async () => undefined,
  detach: async () => undefined,
};

let current: UsagePlans | undefined;

/** The adapter of this stage. The AWS SDK's API Gateway client is loaded only where it is used. */
export async function usagePlans(): Promise<UsagePlans> {
  if (!current) {
    const { stage } = config();
    if (stage === 'local') {
      current = noUsagePlans;
    } else {
      const { apiGatewayUsagePlans } = await import('./apiGatewayUsagePlans');
      current = apiGatewayUsagePlans(stage, JSON.parse(process.env.USAGE_PLAN_IDS ?? '{}') as Record<Tier, string>);
    }
  }
  return current;
}

/** Tests replace the adapter (and reset it with undefined). */
export function setUsagePlans(next: UsagePlans | undefined): void {
  current = next;
}
