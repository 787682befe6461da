/**
 * Direct access to the local stage's database from an API test worker, for fixtures the API
 * cannot make (yet), such as a key with exactly the permissions a test needs.
 */
import { inject } from 'vitest';
import type { Tier } from '../../shared/auth/principal';
import { resetConfig } from '../../shared/config';
import { setDb } from '../../shared/data/client';
import { issueApiKey } from '../../shared/domain/apiKeys';

let connected = false;
function connect() {
  if (connected) return;
  const { endpoint, tableName } = inject('stageDatabase');
  Object.assign(process.env, { STAGE: 'local', TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint });
  resetConfig();
  setDb(undefined);
  connected = true;
}

/** A new API key of a seeded company, straight into the stage's table; returns the plaintext. */
export async function testKey(companyId: number, options: { permissions: string[]; tier?: Tier; locationIds?: number[] | null; name?: string }): Promise<string> {
  connect();
  const { key } = await issueApiKey(companyId, {
    name: options.name ?? 'test key',
    tier: options.tier ?? 'unlimited',
    permissions: options.permissions,
    locationIds: options.locationIds ?? null,
  });
  return key;
}
