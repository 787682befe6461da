import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';

/** A bookable storefront resource (a table) of a location. */
export interface DiningTable {
  id: string;
  locationId: number;
  name: string;
  minCapacity: number;
  maxCapacity: number;
  combinableWith: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

const fields = ['id', 'locationId', 'name', 'minCapacity', 'maxCapacity', 'combinableWith', 'version', 'createdAt', 'updatedAt'] as const;

const prefix = (locationId: number) => `TABLE#${keys.pad(locationId)}#`;

export const diningTables = {
  async put(companyId: number, t: DiningTable): Promise<void> {
    try {
      await db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { pk: keys.company(companyId), sk: `${prefix(t.locationId)}${t.id}`, entity: 'TABLE', companyId, ...t },
        }),
      );
    } catch (err) {
      throw toAppError(err);
    }
  },

  async listByLocation(companyId: number, locationId: number): Promise<DiningTable[]> {
    try {
      const out = await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ExpressionAttributeValues: { ':pk': keys.company(companyId), ':p': prefix(locationId) },
        }),
      );
      return (out.Items ?? []).map((i) => pick<DiningTable>(i, fields));
    } catch (err) {
      throw toAppError(err);
    }
  },
};
