/**
 * The member transactions' outcomes with DynamoDB mocked: which step's failed condition means
 * which refusal, and how an RSVP recovers from a race. DynamoDB Local runs transactions one at a
 * time, so the TransactionConflict of a busy table is only reachable here.
 */
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { AlreadyMember, BookingClosed, bookingMembers, type StoredMember } from '../../shared/data/bookingMembers';
import { rsvp } from '../../shared/domain/bookingMembers';
import { newEvent } from '../../shared/events/catalog';

const ddb = mockClient(DynamoDBDocumentClient);

const STAMP = '2026-11-20T12:00:00.000Z';
const BOOKING_ID = '5a7c9e1b-2d4f-4a6b-8c0d-1e3f5a7b9c2d';
const CODE = 'K7MQ2XHP';
const member: StoredMember = {
  id: '0b2d4f6a-8c1e-4a3b-9d5f-7a9c1e3b5d7f',
  bookingId: BOOKING_ID,
  userId: 5001,
  guestName: 'Åsa Lind',
  guestEmail: 'asa@example.com',
  rsvpStatus: 'invited',
  version: 3,
  createdAt: STAMP,
  updatedAt: STAMP,
  locationId: 101,
};
const guard = { statuses: ['pending', 'confirmed'] as const, guestCount: 4, limit: 14 };
const add = () => bookingMembers.add(7, member, guard, newEvent(7, 'booking-member.added', member.id, { ...member }));

/** A cancelled transaction of `steps` steps, step `failing` with `code`. */
const cancelled = (steps: number, failing: number, code: string) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: Array.from({ length: steps }, (_, i) => ({ Code: i === failing ? code : 'None' })),
  });

/** The stored item the mocked table answers for the code lookup, which carries the booking (status as given). */
function stage(status = 'confirmed') {
  const booking = { id: BOOKING_ID, locationId: 101, guestCount: 4, status, confirmationCode: CODE, version: 1 };
  ddb
    .on(GetCommand, { Key: { pk: `CODE#${CODE}`, sk: 'CODE' } })
    .resolves({ Item: { companyId: 7, bookingId: BOOKING_ID, booking } });
}

const stored = (m: StoredMember) => ({
  pk: 'C#7',
  sk: `BOOKING#${BOOKING_ID}#MEMBER#${m.id}`,
  entity: 'BOOKING_MEMBER',
  companyId: 7,
  ...m,
});
const reply = {
  confirmationCode: CODE,
  guestName: 'Åsa L.',
  guestEmail: 'ASA@example.com',
  rsvpStatus: 'accepted' as const,
};

beforeEach(() => {
  ddb.reset();
});

describe('bookingMembers.add', () => {
  it('checks the booking, puts member and contacts, counts, and records the event in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await add();
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.map((i) => Object.keys(i)[0])).toEqual(['ConditionCheck', 'Put', 'Put', 'Put', 'Update', 'Put']);
    expect(items[0]!.ConditionCheck).toMatchObject({
      Key: { pk: 'C#7', sk: `BOOKING#${BOOKING_ID}` },
      ExpressionAttributeValues: { ':s0': 'pending', ':s1': 'confirmed', ':gc': 4 },
    });
    expect(items.slice(1, 4).map((i) => i.Put!.Item!.sk)).toEqual([
      `BOOKING#${BOOKING_ID}#MEMBER#${member.id}`,
      `BOOKING#${BOOKING_ID}#MEMBERCONTACT#E#asa@example.com`,
      `BOOKING#${BOOKING_ID}#MEMBERCONTACT#U#5001`,
    ]);
    expect(items[4]!.Update).toMatchObject({
      Key: { pk: 'C#7', sk: `COUNT#MEMBER#B#${BOOKING_ID}` },
      ExpressionAttributeValues: { ':limit': 14 },
    });
    expect(items[5]!.Put!.Item).toMatchObject({
      entity: 'OUTBOX',
      payload: { event: 'booking-member.added', resource: 'booking-member' },
    });
  });

  it.each([
    [0, BookingClosed, 409],
    [2, AlreadyMember, 409],
    [3, AlreadyMember, 409],
  ])('turns a failed condition of step %i into its refusal', async (failing, type, status) => {
    ddb.on(TransactWriteCommand).rejects(cancelled(6, failing, 'ConditionalCheckFailed'));
    const err = await add().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(type);
    expect(err).toMatchObject({ status });
  });

  it('answers 422 naming the limit when the party is full', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(6, 4, 'ConditionalCheckFailed'));
    await expect(add()).rejects.toMatchObject({
      status: 422,
      code: 'UNPROCESSABLE',
      message: 'A booking for 4 guests can have at most 14 members',
    });
  });
});

describe('rsvp', () => {
  it('sets the reply of the member with the email, keeping its name, in one versioned write; answers what was sent', async () => {
    stage();
    ddb.on(QueryCommand).resolves({ Items: [stored(member)] });
    ddb.on(TransactWriteCommand).resolves({});
    expect(await rsvp(reply)).toEqual({ guestName: 'Åsa L.', guestEmail: 'asa@example.com', rsvpStatus: 'accepted' });
    const items = ddb.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items[1]!.Put).toMatchObject({
      Item: { guestName: 'Åsa Lind', rsvpStatus: 'accepted', version: 4, replyByEmail: true },
      ExpressionAttributeValues: { ':v': 3 },
    });
    expect(items[2]!.Put!.Item).toMatchObject({
      payload: { event: 'booking-member.updated', changes: { rsvpStatus: 'accepted' } },
    });
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input.ConsistentRead).toBe(true);
  });

  it('writes nothing when the reply is the one stored', async () => {
    stage();
    ddb.on(QueryCommand).resolves({ Items: [stored({ ...member, rsvpStatus: 'accepted', replyByEmail: true })] });
    expect(await rsvp(reply)).toMatchObject({ rsvpStatus: 'accepted' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each([
    ['staff gave (no mark)', {}],
    ['staff gave after an RSVP', { replyByEmail: false }],
  ])('refuses with 409 and writes nothing for a reply %s, without retrying', async (_, mark) => {
    stage();
    ddb.on(QueryCommand).resolves({ Items: [stored({ ...member, rsvpStatus: 'declined', ...mark })] });
    await expect(rsvp(reply)).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(1);
  });

  it('after losing the race to add the email, sets the reply on the member the winner added', async () => {
    stage();
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [] })
      .resolves({ Items: [stored(member)] });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(5, 2, 'ConditionalCheckFailed'))
      .resolves({});
    expect(await rsvp(reply)).toEqual({ guestName: 'Åsa L.', guestEmail: 'asa@example.com', rsvpStatus: 'accepted' });
    const [first, second] = ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input.TransactItems!);
    expect(first![1]!.Put!.Item).toMatchObject({
      entity: 'BOOKING_MEMBER',
      guestName: 'Åsa L.',
      guestEmail: 'asa@example.com',
      version: 1,
    });
    expect(second![1]!.Put!.Item).toMatchObject({ id: member.id, rsvpStatus: 'accepted', version: 4 });
  });

  it('retries a write that met a concurrent transaction, and gives up with 409 after 4 attempts', async () => {
    stage();
    ddb.on(QueryCommand).resolves({ Items: [stored(member)] });
    ddb.on(TransactWriteCommand).rejects(cancelled(3, 1, 'TransactionConflict'));
    await expect(rsvp(reply)).rejects.toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(4);
  });

  it('does not retry when the booking closed meanwhile', async () => {
    stage();
    ddb.on(QueryCommand).resolves({ Items: [stored(member)] });
    ddb.on(TransactWriteCommand).rejects(cancelled(3, 0, 'ConditionalCheckFailed'));
    await expect(rsvp(reply)).rejects.toBeInstanceOf(BookingClosed);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('refuses a cancelled booking with 409 before reading its members', async () => {
    stage('cancelled');
    await expect(rsvp(reply)).rejects.toMatchObject({
      status: 409,
      message: 'The booking is cancelled: its members cannot change',
    });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  it('answers 404 for a code no booking has', async () => {
    ddb.on(GetCommand).resolves({});
    await expect(rsvp(reply)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
