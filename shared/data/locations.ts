import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { notFound } from '../errors';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import type { Step } from './transact';

/** Opening hours of one weekday, local wall time. */
export interface OpeningHours {
  open: string;
  close: string;
}

export interface Location {
  id: number;
  name: string;
  timezone: string;
  /** Keys `monday` … `sunday`; a missing day is closed. */
  operatingHours: Record<string, OpeningHours[]>;
  confirmationMode: 'instant' | 'request_based';
  createdAt: string;
  updatedAt: string;
  version: number;
}

const fields = ['id', 'name', 'timezone', 'operatingHours', 'confirmationMode', 'version', 'createdAt', 'updatedAt'] as const;

const key = (companyId: number, locationId: number) => ({ pk: keys.company(companyId), sk: `LOCATION#${keys.pad(locationId)}` });

export const locations = {
  async get(companyId: number, locationId: number): Promise<Location | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, locationId) }));
      return out.Item ? pick<Location>(out.Item, fields) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  async put(companyId: number, location: Location): Promise<void> {
    try {
      await db().send(
        new PutCommand({ TableName: tableName(), Item: { ...key(companyId, location.id), entity: 'LOCATION', companyId, ...location } }),
      );
    } catch (err) {
      throw toAppError(err);
    }
  },
};

/** A transaction step that holds only if the location exists in the company (else 404). */
export function locationExistsStep(companyId: number, locationId: number): Step {
  return {
    item: { ConditionCheck: { TableName: tableName(), Key: key(companyId, locationId), ConditionExpression: 'attribute_exists(pk)' } },
    onConditionFailed: () => notFound(`Location ${locationId}`),
  };
}
