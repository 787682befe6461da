/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` and the
 * base64 of 32 random bytes; a signature is `v1,` and the base64 HMAC-SHA256, keyed with the
 * decoded secret, of `{webhook-id}.{webhook-timestamp}.{body}`. During a rotation the header
 * carries one signature per valid secret, separated by spaces.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export const newSecret = (): string => `${PREFIX}${randomBytes(32).toString('base64')}`;

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  if (!secret.startsWith(PREFIX)) throw new Error('not a webhook secret');
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per secret. */
export const signatureHeader = (secrets: readonly string[], id: string, timestamp: number, body: string): string =>
  secrets.map((s) => sign(s, id, timestamp, body)).join(' ');
