import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tier } from '../auth/principal';
import type { DomainEvent } from '../events/catalog';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys } from './keys';
import { outboxStep, transact } from './transact';

/** An API key as the API shows it (never the plaintext or the hash). */
export interface ApiKeyRecord {
  id: string;
  keyId: string;
  /** `brigade_dev_` or `brigade_live_`: enough for a person to recognise the key. */
  prefix: string;
  name: string;
  tier: Tier;
  roleId: number | null;
  permissions: string[];
  locationIds: number[] | null;
  createdAt: string;
  updatedAt: string;
  revokedAt: string | null;
  version: number;
}

/** What authentication needs, found by the key's `keyId` in one GetItem. */
export interface ApiKeyAuth {
  apiKeyId: string;
  companyId: number;
  hash: string;
  tier: Tier;
  permissions: string[];
  locationIds: number[] | null;
  revoked: boolean;
  /** API Gateway usage-plan key value (deployed stages); null on the local stage. */
  usageKey: string | null;
}

/**
 * The lookup item is keyed by `keyId` alone: a credential names no company before it is verified.
 * It is the one item whose key does not start with the company; no route reads it by an id.
 */
const authKey = (keyId: string) => ({ pk: `KEY#${keyId}`, sk: 'KEY' });
const recordKey = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `APIKEY#${id}` });

export const apiKeys = {
  /** Stores the key's record and its lookup item together, with the event. */
  async create(companyId: number, record: ApiKeyRecord, hash: string, usageKey: string | null, event: DomainEvent): Promise<void> {
    const auth: ApiKeyAuth = {
      apiKeyId: record.id,
      companyId,
      hash,
      tier: record.tier,
      permissions: record.permissions,
      locationIds: record.locationIds,
      revoked: false,
      usageKey,
    };
    await transact([
      {
        item: {
          Put: {
            TableName: tableName(),
            Item: {
              ...recordKey(companyId, record.id),
              gsi1pk: `${keys.company(companyId)}#APIKEYS`,
              gsi1sk: `${record.createdAt}#${record.id}`,
              entity: 'APIKEY',
              companyId,
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      { item: { Put: { TableName: tableName(), Item: { ...authKey(record.keyId), entity: 'APIKEY_AUTH', ...auth }, ConditionExpression: 'attribute_not_exists(pk)' } } },
      outboxStep(event),
    ]);
  },

  async findAuth(keyId: string): Promise<ApiKeyAuth | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: authKey(keyId) }));
      return out.Item as ApiKeyAuth | undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },
};
