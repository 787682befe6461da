/**
 * A company's creation transaction with DynamoDB mocked: every creation counts itself on the
 * platform's one list count, so on AWS two at once can cancel each other (TransactionConflict);
 * DynamoDB Local runs transactions one at a time, so that is only reachable here.
 */
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { companies, type Company } from '../../shared/data/companies';
import { newEvent } from '../../shared/events/catalog';

const ddb = mockClient(DynamoDBDocumentClient);

const company: Company = { id: 4711, name: 'Trattoria Roma AB', createdAt: '2026-11-20T12:00:00.000Z' };
const create = () =>
  companies.create(company, 9001, [], newEvent(company.id, 'company.created', String(company.id), { ...company }));

/** A cancelled transaction, with one reason per step: company, list count, event. */
const cancelled = (failing: number, code: string) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: Array.from({ length: 3 }, (_, i) => ({ Code: i === failing ? code : 'None' })),
  });

beforeEach(() => {
  ddb.reset();
});

describe('companies.create', () => {
  it('writes the company (put-if-absent, listed by id), the list count and the event in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await create();
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[0]!.Put).toMatchObject({
      Item: { entity: 'COMPANY', id: 4711, adminRoleId: 9001, gsi1pk: 'COMPANIES', gsi1sk: '000000004711' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(items[1]!.Update).toMatchObject({
      Key: { pk: 'COMPANIES', sk: 'COUNT#COMPANY' },
      UpdateExpression: 'ADD n :d SET entity = :e',
      ExpressionAttributeValues: { ':d': 1 },
    });
    expect((items[2]!.Put!.Item as { entity: string }).entity).toBe('OUTBOX');
  });

  it('tries again when a concurrent creation held the list count, and succeeds', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(1, 'TransactionConflict'))
      .rejectsOnce(cancelled(1, 'TransactionConflict'))
      .resolves({});
    await create();
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('gives up with 409 after 5 tries', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(1, 'TransactionConflict'));
    await expect(create()).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(5);
  });

  it('does not try again when the id is taken (409 at once)', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(0, 'ConditionalCheckFailed'));
    await expect(create()).rejects.toMatchObject({ code: 'CONFLICT', message: 'The company already exists' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});
