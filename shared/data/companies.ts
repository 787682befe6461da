import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { writeGate } from './writeGate';

export interface Company {
  id: number;
  name: string;
  createdAt: string;
}

const key = (companyId: number) => ({ pk: keys.company(companyId), sk: 'COMPANY' });

export const companies = {
  async get(companyId: number): Promise<Company | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId) }));
      return out.Item ? pick<Company>(out.Item, ['id', 'name', 'createdAt']) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  async put(company: Company): Promise<void> {
    await writeGate();
    try {
      await db().send(new PutCommand({ TableName: tableName(), Item: { ...key(company.id), entity: 'COMPANY', ...company } }));
    } catch (err) {
      throw toAppError(err);
    }
  },
};
