/**
 * Delivery settings from the environment, read on every use (not cached) so a test can set them
 * before it starts a local stage. Deployed stages leave both unset.
 *
 *   WEBHOOK_TIMEOUT_MS      how long a receiver has to answer (30 s by default; docs/webhooks.md)
 *   WEBHOOK_BACKOFF_SCALE   factor on every retry delay; tests run the 28-hour schedule in seconds
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface WebhookSettings {
  timeoutMs: number;
  backoffScale: number;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, valid: (n: number) => boolean): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || !valid(value)) throw new Error(`${name}=${raw} is not valid`);
  return value;
}

export function webhookSettings(env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  return {
    timeoutMs: numberFrom(env, 'WEBHOOK_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, (n) => Number.isInteger(n) && n > 0),
    backoffScale: numberFrom(env, 'WEBHOOK_BACKOFF_SCALE', 1, (n) => n >= 0),
  };
}
