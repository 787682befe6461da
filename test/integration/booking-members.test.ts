/** The booking member repository against DynamoDB Local: one transaction per change, uniqueness and the party limit under concurrency. */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { AlreadyMember, BookingClosed, bookingMembers, type StoredMember } from '../../shared/data/bookingMembers';
import { db, tableName } from '../../shared/data/client';
import { eventLogLocationStep } from '../../shared/data/outbox';
import { transact } from '../../shared/data/transact';
import { activeStatuses, type BookingStatus } from '../../shared/domain/bookings/states';
import { memberLimit } from '../../shared/domain/bookingMembers';
import { AppError } from '../../shared/errors';
import { newEvent } from '../../shared/events/catalog';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

/** Each test file works in its own company, so files can run in parallel on one table. */
const ids = idBlock(import.meta.url);
const companyId = ids.next();
const otherCompany = ids.next();
const LOCATION_ID = 101;

// The bookings here are items at a location made without its creation: the company's log is told of it as creating it would.
beforeAll(() => transact([eventLogLocationStep(companyId, LOCATION_ID)]));

/**
 * A booking item as the bookings repository stores it (docs/bookings.md), reduced to what the
 * member guard reads: members need a booking, and the lifecycle's own tests cover making one.
 */
async function booking(status: BookingStatus = 'confirmed', guestCount = 4): Promise<string> {
  const id = randomUUID();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `C#${companyId}`,
        sk: `BOOKING#${id}`,
        entity: 'BOOKING',
        companyId,
        id,
        locationId: LOCATION_ID,
        status,
        guestCount,
        version: 1,
      },
    }),
  );
  return id;
}

const setBooking = (id: string, values: { status?: BookingStatus; guestCount?: number }) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `C#${companyId}`, sk: `BOOKING#${id}` },
      UpdateExpression: `SET ${Object.keys(values)
        .map((k) => `#${k} = :${k}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((k) => [`#${k}`, k])),
      ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([k, v]) => [`:${k}`, v])),
    }),
  );

function member(bookingId: string, fields: Partial<StoredMember> = {}): StoredMember {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    bookingId,
    userId: null,
    guestName: 'Karin Öberg',
    guestEmail: null,
    rsvpStatus: 'invited',
    version: 1,
    createdAt: now,
    updatedAt: now,
    locationId: LOCATION_ID,
    ...fields,
  };
}

const guardFor = (guestCount = 4) => ({ statuses: activeStatuses, guestCount, limit: memberLimit(guestCount) });
const add = (m: StoredMember, guestCount = 4) =>
  bookingMembers.add(companyId, m, guardFor(guestCount), newEvent(companyId, 'booking-member.added', m.id, { ...m }));
const update = (next: StoredMember, expectedVersion: number) =>
  bookingMembers.update(
    companyId,
    next,
    expectedVersion,
    { statuses: activeStatuses },
    newEvent(companyId, 'booking-member.updated', next.id, { ...next }, { rsvpStatus: next.rsvpStatus }),
  );

/** The company's recorded events about `resourceId`. */
async function eventsAbout(resourceId: string) {
  const out = await companyEvents(companyId);
  return (out.Items ?? []).filter((e) => e.payload.resourceId === resourceId).map((e) => e.payload);
}

async function count(bookingId: string): Promise<number> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk: `COUNT#MEMBER#B#${bookingId}` } }),
  );
  return Number(out.Item?.n ?? 0);
}

/** Settles every promise: the values of those that succeeded, the errors of those that failed. */
async function race<T>(runs: Promise<T>[]) {
  const settled = await Promise.allSettled(runs);
  return {
    won: settled.filter((s) => s.status === 'fulfilled').length,
    errors: settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : [])),
  };
}

describe('adding members', () => {
  it('writes the member, its counter and its event in one transaction; reads see it', async () => {
    const b = await booking();
    const m = member(b, { guestEmail: 'karin@example.com', userId: 4242 });
    await add(m);
    expect(await bookingMembers.get(companyId, b, m.id)).toEqual(m);
    expect(await bookingMembers.all(companyId, b)).toEqual([m]);
    expect(await count(b)).toBe(1);
    expect(await eventsAbout(m.id)).toEqual([
      expect.objectContaining({ event: 'booking-member.added', resource: 'booking-member', data: m }),
    ]);
  });

  it('keeps tenants apart: another company reads nothing of the booking', async () => {
    const b = await booking();
    const m = member(b);
    await add(m);
    expect(await bookingMembers.get(otherCompany, b, m.id)).toBeUndefined();
    expect(await bookingMembers.all(otherCompany, b)).toEqual([]);
    expect((await bookingMembers.list(otherCompany, b, { page: 1, limit: 20 })).items).toEqual([]);
  });

  it('makes one member of concurrent adds of one email; the rest get 409 and write nothing', async () => {
    const b = await booking('confirmed', 20);
    const tries = Array.from({ length: 8 }, (_, i) =>
      member(b, { guestName: `Racer ${i}`, guestEmail: 'same@example.com' }),
    );
    const { won, errors } = await race(tries.map((m) => add(m, 20)));
    expect(won).toBe(1);
    expect(errors.every((e) => e instanceof AppError && e.status === 409)).toBe(true);
    expect(errors.some((e) => e instanceof AlreadyMember)).toBe(true);
    expect(await bookingMembers.all(companyId, b)).toHaveLength(1);
    expect(await count(b)).toBe(1);
    const recorded = (await Promise.all(tries.map((m) => eventsAbout(m.id)))).flat();
    expect(recorded).toHaveLength(1);
  });

  it('makes one member of concurrent adds of one user', async () => {
    const b = await booking('confirmed', 20);
    const { won } = await race(Array.from({ length: 6 }, () => add(member(b, { userId: 777 }), 20)));
    expect(won).toBe(1);
    expect((await bookingMembers.all(companyId, b)).map((m) => m.userId)).toEqual([777]);
  });

  it('lets members without email or user repeat a name ("Plus one" twice)', async () => {
    const b = await booking();
    await add(member(b, { guestName: 'Plus one' }));
    await add(member(b, { guestName: 'Plus one' }));
    expect(await bookingMembers.all(companyId, b)).toHaveLength(2);
  });

  it('holds the party limit under concurrency: exactly guestCount + 10 of 16 parallel adds succeed, the rest 422', async () => {
    const b = await booking('confirmed', 0);
    const { won, errors } = await race(
      Array.from({ length: 16 }, (_, i) => add(member(b, { guestEmail: `p${i}@example.com` }), 0)),
    );
    expect(won).toBe(10);
    expect(errors.map((e) => (e as AppError).status)).toEqual(Array(6).fill(422));
    expect(await bookingMembers.all(companyId, b)).toHaveLength(10);
    expect(await count(b)).toBe(10);
  });

  it.each(['cancelled', 'completed', 'no_show'] as const)('refuses a %s booking and writes nothing', async (status) => {
    const b = await booking(status);
    const m = member(b, { guestEmail: 'late@example.com' });
    await expect(add(m)).rejects.toBeInstanceOf(BookingClosed);
    expect(await bookingMembers.all(companyId, b)).toEqual([]);
    expect(await count(b)).toBe(0);
    expect(await eventsAbout(m.id)).toEqual([]);
    // The email was not claimed: once the booking takes members again, it can be added.
    await setBooking(b, { status: 'confirmed' });
    await add(m);
  });

  it('refuses when the party size changed since the limit was computed', async () => {
    const b = await booking('confirmed', 4);
    await setBooking(b, { guestCount: 2 });
    await expect(add(member(b), 4)).rejects.toBeInstanceOf(BookingClosed);
    expect(await count(b)).toBe(0);
  });

  it("refuses a booking that does not exist (or is another company's)", async () => {
    const m = member(randomUUID());
    await expect(add(m)).rejects.toBeInstanceOf(BookingClosed);
    const theirs = await booking();
    await expect(
      bookingMembers.add(
        otherCompany,
        member(theirs),
        guardFor(),
        newEvent(otherCompany, 'booking-member.added', m.id, {}),
      ),
    ).rejects.toBeInstanceOf(BookingClosed);
  });
});

describe('updating members', () => {
  it('replaces the member from the version it read; a stale writer gets 409 and changes nothing', async () => {
    const b = await booking();
    const m = member(b);
    await add(m);
    const first = { ...m, rsvpStatus: 'accepted' as const, version: 2 };
    await update(first, 1);
    await expect(update({ ...m, rsvpStatus: 'declined', version: 2 }, 1)).rejects.toMatchObject({
      status: 409,
      message: 'The member was changed by another request; read it again and retry',
    });
    expect(await bookingMembers.get(companyId, b, m.id)).toEqual(first);
    expect((await eventsAbout(m.id)).map((e) => e.event)).toEqual(['booking-member.added', 'booking-member.updated']);
  });

  it('refuses a change once the booking is cancelled', async () => {
    const b = await booking();
    const m = member(b);
    await add(m);
    await setBooking(b, { status: 'cancelled' });
    await expect(update({ ...m, rsvpStatus: 'accepted', version: 2 }, 1)).rejects.toBeInstanceOf(BookingClosed);
    expect(await bookingMembers.get(companyId, b, m.id)).toEqual(m);
  });
});

describe('listing members', () => {
  it('pages in id order with the total from the counter, by offset and by cursor alike', async () => {
    const b = await booking('confirmed', 10);
    const made = Array.from({ length: 7 }, (_, i) => member(b, { guestName: `Guest ${i}` }));
    for (const m of made) await add(m, 10);
    const ids = made.map((m) => m.id).sort();
    const first = await bookingMembers.list(companyId, b, { page: 1, limit: 3 });
    expect(first.items.map((m) => m.id)).toEqual(ids.slice(0, 3));
    expect(first.pagination).toMatchObject({
      page: 1,
      limit: 3,
      total: 7,
      totalPages: 3,
      nextCursor: expect.any(String),
    });
    const second = await bookingMembers.list(companyId, b, { page: 1, limit: 3, cursor: first.pagination.nextCursor! });
    expect(second.items).toEqual((await bookingMembers.list(companyId, b, { page: 2, limit: 3 })).items);
    const last = await bookingMembers.list(companyId, b, { page: 3, limit: 3 });
    expect(last.items.map((m) => m.id)).toEqual(ids.slice(6));
    expect(last.pagination.nextCursor).toBeNull();
  });

  it("refuses a cursor of another booking's list", async () => {
    const a = await booking();
    const other = await booking();
    for (let i = 0; i < 3; i++) await add(member(a));
    const page = await bookingMembers.list(companyId, a, { page: 1, limit: 2 });
    await expect(
      bookingMembers.list(companyId, other, { page: 1, limit: 2, cursor: page.pagination.nextCursor! }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
