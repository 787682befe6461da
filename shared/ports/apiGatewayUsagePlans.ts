/**
 * Usage plans on AWS: one API Gateway API key per merchant key, in the usage plan of its tier
 * (USAGE_PLAN_IDS, set by CDK). Its value is 40 random letters and digits; it identifies the key to
 * the plan, clients never send it.
 */
import type { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { Logger } from '@aws-lambda-powertools/logger';
import { randomBase62 } from '../auth/apiKey';
import type { Tier } from '../auth/principal';
import { config, type Stage } from '../config';
import { writeGate } from '../data/writeGate';
import { unavailable } from '../errors';
import type { UsageKey, UsagePlans } from './usagePlansPort';
import { captured } from '../runtime/tracing';

const logger = new Logger({ serviceName: 'brigade' });

type Sdk = typeof import('@aws-sdk/client-api-gateway');
let loaded: Promise<{ sdk: Sdk; client: APIGatewayClient }> | undefined;
/** The SDK is imported on first use (a bundler would otherwise load it at every cold start of the handler). */
const gateway = () =>
  (loaded ??= import('@aws-sdk/client-api-gateway').then((sdk) => ({
    sdk,
    client: captured(new sdk.APIGatewayClient({ region: config().region })),
  })));

/** A gateway failure is the API's 503: the request changed nothing and may be retried. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    logger.error(`usage plans: ${what} failed`, { error: err as Error });
    throw unavailable('The usage plans cannot be changed right now; try again shortly');
  }
}

export function apiGatewayUsagePlans(stage: Stage, planIds: Record<Tier, string>): UsagePlans {
  const planOf = (tier: Tier) => {
    const id = planIds[tier];
    if (!id) throw new Error(`USAGE_PLAN_IDS has no plan for the ${tier} tier`);
    return id;
  };
  const addToPlan = (keyId: string, tier: Tier) =>
    call(`adding key ${keyId} to the ${tier} plan`, async () => {
      const { sdk, client } = await gateway();
      return client.send(new sdk.CreateUsagePlanKeyCommand({ usagePlanId: planOf(tier), keyId, keyType: 'API_KEY' }));
    });
  const remove = async (usageKey: UsageKey) => {
    try {
      const { sdk, client } = await gateway();
      await client.send(new sdk.DeleteApiKeyCommand({ apiKey: usageKey.id }));
    } catch (err) {
      logger.error('usage plans: deleting a usage key failed; delete it by hand', {
        usageKeyId: usageKey.id,
        error: err as Error,
      });
    }
  };

  return {
    async attach(keyId, tier) {
      await writeGate(); // a gateway key is a write too: none for a refused request
      const value = randomBase62(40);
      const created = await call('creating a usage key', async () => {
        const { sdk, client } = await gateway();
        return client.send(new sdk.CreateApiKeyCommand({ name: `brigade-${stage}-${keyId}`, enabled: true, value }));
      });
      const usageKey = { id: created.id!, value };
      try {
        await addToPlan(usageKey.id, tier);
      } catch (err) {
        await remove(usageKey);
        throw err;
      }
      return usageKey;
    },

    // A key may be in one plan per API stage: leave the old plan, then join the new one.
    async move(usageKey, fromTier, toTier) {
      await writeGate();
      await call(`removing key ${usageKey.id} from the ${fromTier} plan`, async () => {
        const { sdk, client } = await gateway();
        return client.send(new sdk.DeleteUsagePlanKeyCommand({ usagePlanId: planOf(fromTier), keyId: usageKey.id }));
      });
      try {
        await addToPlan(usageKey.id, toTier);
      } catch (err) {
        await addToPlan(usageKey.id, fromTier).catch(() =>
          logger.error('usage plans: a usage key is in no plan', { usageKeyId: usageKey.id }),
        );
        throw err;
      }
    },

    detach: remove,
  };
}
