/** API keys (decisions.md §2): the plaintext exists only in the answer to the creation. */
import { randomUUID } from 'node:crypto';
import { generateApiKey, keyPrefix } from '../auth/apiKey';
import type { Tier } from '../auth/principal';
import { config } from '../config';
import { apiKeys, type ApiKeyRecord } from '../data/apiKeys';
import { newEvent } from '../events/catalog';

export interface NewApiKey {
  name: string;
  tier: Tier;
  permissions: string[];
  roleId?: number | null;
  locationIds?: number[] | null;
}

/** Creates a key; returns its record and, this once, its plaintext. */
export async function issueApiKey(companyId: number, input: NewApiKey): Promise<{ record: ApiKeyRecord; key: string }> {
  const { stage } = config();
  const generated = await generateApiKey(stage);
  const now = new Date().toISOString();
  const record: ApiKeyRecord = {
    id: randomUUID(),
    keyId: generated.keyId,
    prefix: keyPrefix(stage),
    name: input.name,
    tier: input.tier,
    roleId: input.roleId ?? null,
    permissions: [...input.permissions].sort(),
    locationIds: input.locationIds ?? null,
    createdAt: now,
    updatedAt: now,
    revokedAt: null,
    version: 1,
  };
  await apiKeys.create(companyId, record, generated.hash, null, newEvent(companyId, 'api-key.created', record.id, { ...record }));
  return { record, key: generated.plaintext };
}
