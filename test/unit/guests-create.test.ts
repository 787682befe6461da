/**
 * The guest create transaction's outcomes with DynamoDB mocked: DynamoDB Local runs transactions
 * one at a time, so the TransactionConflict a busy table answers is only reachable here.
 */
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { guests, type Guest } from '../../shared/data/guests';
import { searchTokens } from '../../shared/domain/contact';
import { newEvent } from '../../shared/events/catalog';

const ddb = mockClient(DynamoDBDocumentClient);

const STAMP = '2026-11-20T12:00:00.000Z';
const guest: Guest = {
  id: 5001,
  name: 'Åsa Lind',
  email: 'asa@example.com',
  phone: '+46701234567',
  createdAt: STAMP,
  updatedAt: STAMP,
};
const existing: Guest = { ...guest, id: 4000, name: 'Åsa L.' };
const add = () =>
  guests.add(7, guest, searchTokens(guest), newEvent(7, 'guest.created', String(guest.id), { ...guest }));

/** A cancelled transaction, with one reason per step: guest, email, phone, 4 tokens, outbox. */
const cancelled = (failing: number, code: string) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: Array.from({ length: 8 }, (_, i) => ({ Code: i === failing ? code : 'None' })),
  });

beforeEach(() => {
  ddb.reset();
});

describe('guests.add', () => {
  it('writes guest, contacts, tokens and event in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    expect(await add()).toEqual({ guest, created: true });
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => (i.Put?.Item as { entity: string }).entity)).toEqual([
      'GUEST',
      'GUEST_CONTACT',
      'GUEST_CONTACT',
      'GUEST_SEARCH',
      'GUEST_SEARCH',
      'GUEST_SEARCH',
      'GUEST_SEARCH',
      'OUTBOX',
    ]);
    expect(items.every((i) => i.Put?.ConditionExpression === 'attribute_not_exists(pk)')).toBe(true);
  });

  it('retries a transaction that met a concurrent one, then answers the guest it made', async () => {
    ddb.on(TransactWriteCommand).rejectsOnce(cancelled(1, 'TransactionConflict')).resolves({});
    expect(await add()).toEqual({ guest, created: true });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('after a conflict, finds the guest the concurrent create made (strongly consistent reads)', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(1, 'TransactionConflict'))
      .rejects(cancelled(1, 'ConditionalCheckFailed'));
    ddb
      .on(GetCommand, { Key: { pk: 'C#7', sk: 'GUESTCONTACT#E#asa@example.com' } })
      .resolves({ Item: { guestId: 4000 } });
    ddb.on(GetCommand, { Key: { pk: 'C#7', sk: 'GUESTCONTACT#P#+46701234567' } }).resolves({});
    ddb
      .on(GetCommand, { Key: { pk: 'C#7', sk: 'GUEST#000000004000' } })
      .resolves({ Item: { pk: 'C#7', sk: 'GUEST#000000004000', entity: 'GUEST', ...existing } });
    expect(await add()).toEqual({ guest: existing, created: false });
    expect(ddb.commandCalls(GetCommand).every((c) => c.args[0].input.ConsistentRead === true)).toBe(true);
  });

  it('gives up with 409 when every attempt meets a concurrent transaction', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(2, 'TransactionConflict'));
    await expect(add()).rejects.toMatchObject({ code: 'CONFLICT', status: 409 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(4);
  });

  it("answers the phone's guest when only the phone is taken", async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(2, 'ConditionalCheckFailed'));
    ddb.on(GetCommand, { Key: { pk: 'C#7', sk: 'GUESTCONTACT#E#asa@example.com' } }).resolves({});
    ddb.on(GetCommand, { Key: { pk: 'C#7', sk: 'GUESTCONTACT#P#+46701234567' } }).resolves({ Item: { guestId: 4000 } });
    ddb.on(GetCommand, { Key: { pk: 'C#7', sk: 'GUEST#000000004000' } }).resolves({ Item: { ...existing } });
    expect(await add()).toEqual({ guest: existing, created: false });
  });
});
