/**
 * The usage-plans adapter of this stage. The port is usagePlansPort.ts, which the AWS adapter
 * imports instead of this file, so the two do not import each other. A key gets its own gateway
 * key on creation; the authorizer names it as the request's `usageIdentifierKey`, so API Gateway
 * throttles each key on its own. The local stage has no gateway: its adapter attaches nothing.
 */
import { config } from '../config';
import type { Tier } from '../schemas/access';
import type { UsagePlans } from './usagePlansPort';

export type { UsageKey, UsagePlans } from './usagePlansPort';

/** The local stage: no gateway, nothing to meter. */
const noUsagePlans: UsagePlans = {
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
