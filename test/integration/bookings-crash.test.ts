/**
 * Crash injection: create, seat, unseat and cancel are each one TransactWriteItems. Failing that
 * call (as a crash between any two of the operation's writes would) leaves every item of the
 * company exactly as it was; letting it through, the operation sends no other write.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { config } from '../../shared/config';
import { db, setDb, tableName } from '../../shared/data/client';
import { diningTables } from '../../shared/data/tables';
import { createBooking } from '../../shared/domain/bookings/create';
import { setPreOrder } from '../../shared/domain/bookings/orders';
import { seatBooking, unseatBooking } from '../../shared/domain/bookings/seating';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { cancelBooking } from '../../shared/domain/bookings/transitions';
import { createLocation } from '../../shared/domain/locations';
import { newEvent } from '../../shared/events/catalog';

const companyId = 22_000 + Math.floor(Math.random() * 1000);
const principal: Principal = { kind: 'user', companyId, permissions: [], tier: 'unlimited', locationIds: null, rateSubject: `test:${companyId}`, internalOperator: false };

const writes = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand']);
let crash = false;
let sent: string[] = [];

/** A client whose TransactWriteItems fails while `crash` is set, recording every command sent. */
function crashingClient(): DynamoDBDocumentClient {
  const { region, dynamoEndpoint } = config();
  const base = new DynamoDBClient({ region, endpoint: dynamoEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  base.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName!);
      if (crash && context.commandName === 'TransactWriteItemsCommand') throw Object.assign(new Error('injected crash'), { name: 'InjectedCrash' });
      return next(args);
    },
    { step: 'initialize', name: 'crashInjection' },
  );
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

/** Every item of the company, in every partition it writes (its own, its tables' and guests', codes, sweep items). */
async function snapshot(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  const mine = (i: Record<string, unknown>) => i.pk === `C#${companyId}` || String(i.pk).startsWith(`C#${companyId}#`) || i.companyId === companyId;
  return items.filter(mine).sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`));
}

/** Runs the operation with the transaction failing (nothing may change), then for real (one transaction, no other write). */
async function crashThenRun<T>(operation: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  crash = true;
  await expect(operation()).rejects.toMatchObject({ name: 'InjectedCrash' });
  crash = false;
  expect(await snapshot()).toEqual(before);
  sent = [];
  const result = await operation();
  expect(sent.filter((c) => writes.has(c))).toEqual(['TransactWriteItemsCommand']);
  return result;
}

let locationId: number;
let tableIds: string[];
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  const location = await createLocation(principal, { name: 'Crash bistro', timezone: 'Europe/Stockholm', operatingHours: {} }, 32_000 + Math.floor(Math.random() * 1000));
  locationId = location.id;
  const now = new Date().toISOString();
  const tables = ['C1', 'C2'].map((name) => ({ id: crypto.randomUUID(), locationId, name, minCapacity: 1, maxCapacity: 6, combinableWith: [], createdAt: now, updatedAt: now, version: 1 }));
  await diningTables.create(companyId, locationId, tables, [], tables.map((t) => newEvent(companyId, 'table.created', t.id, { ...t })));
  tableIds = tables.map((t) => t.id);
  await putBookingSettings(principal, locationId, { autoNoShowDelayMinutes: 30 });
  setDb(crashingClient());
});

afterAll(() => setDb(undefined));

describe('each operation is one transaction', () => {
  it('create: no booking, tab, code, hold, link, history or event is left by a failed transaction', async () => {
    const booking = await crashThenRun(() => createBooking(principal, { locationId, bookingDate: tomorrow, startTime: '18:00', guestCount: 4, tableIds, defaultTabStrategy: 'per_resource', guestName: 'Crash test' }));
    expect(booking.tabs).toHaveLength(2);
  });

  it('seat, unseat and cancel: the booking, its tabs, table claims, dispatches, print job and events move together or not at all', async () => {
    const booking = await createBooking(principal, { locationId, bookingDate: tomorrow, startTime: '12:00', endTime: '13:00', guestCount: 2, tableIds: [tableIds[0]!], guestName: 'Seat test' });
    await setPreOrder(principal, booking.id, { items: [{ name: 'Soup', price: 900, quantity: 2 }] });
    const seated = await crashThenRun(() => seatBooking(principal, booking.id, {}));
    expect(seated.status).toBe('seated');
    const unseated = await crashThenRun(() => unseatBooking(principal, booking.id, 'Crash test'));
    expect(unseated.status).toBe('confirmed');
    const cancelled = await crashThenRun(() => cancelBooking(principal, booking.id, { reason: 'Crash test' }));
    expect(cancelled.status).toBe('cancelled');
  });
});
