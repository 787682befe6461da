/**
 * Availability and table optimization against DynamoDB Local: the floor read in one round trip,
 * a dry run that writes nothing, moves written with their tabs, table days and events, a swap in
 * one transaction, and concurrent changes that make a move fail (never overwrite) or the
 * optimizer plan again.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../shared/auth/principal';
import { config } from '../../shared/config';
import { bookings } from '../../shared/data/bookings';
import { db, setDb, tableName } from '../../shared/data/client';
import { tabs } from '../../shared/data/tabs';
import { createBooking } from '../../shared/domain/bookings/create';
import { getAvailability, readFloor } from '../../shared/domain/bookings/floor';
import { layoutCache } from '../../shared/domain/bookings/layoutCache';
import { loadSolver } from '../../shared/domain/bookings/solver';
import { applyMoves, optimizeBookings } from '../../shared/domain/bookings/optimize';
import { seatBooking } from '../../shared/domain/bookings/seating';
import { putBookingSettings } from '../../shared/domain/bookings/settings';
import { localDay } from '../../shared/domain/bookings/time';
import { lockBooking } from '../../shared/domain/bookings/transitions';
import { updateBooking } from '../../shared/domain/bookings/update';
import { createBookingGroup, deleteBookingGroup, updateBookingGroup } from '../../shared/domain/bookingGroups';
import { createLocation, deleteLocation, updateLocation } from '../../shared/domain/locations';
import { createTable, deleteTable, updateTable } from '../../shared/domain/tables';
import { weekdays } from '../../shared/schemas/locations';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

const ids = idBlock(import.meta.url);
const companyId = ids.next();
const principal: Principal = {
  kind: 'user',
  companyId,
  permissions: [],
  tier: 'unlimited',
  locationIds: null,
  rateSubject: `test:${companyId}`,
  internalOperator: false,
};
const zone = 'Europe/Stockholm';
const hours = Object.fromEntries(weekdays.map((d) => [d, [{ open: '17:00', close: '23:00' }]]));

/** A date `days` ahead whose local day is 24 hours long (no clock change on it). */
function ordinaryDay(days: number): string {
  for (let d = days; ; d++) {
    const date = new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const { startMs, endMs } = localDay(date, zone);
    if (endMs - startMs === 86_400_000) return date;
  }
}

/** A location of the file's company with tables named and sized as given; buffer 0 unless said. */
async function place(tables: [name: string, min: number, max: number][], settings: Record<string, unknown> = {}) {
  const location = await createLocation(
    principal,
    { name: 'Selling bistro', timezone: zone, operatingHours: hours },
    ids.next(),
  );
  const made = new Map<string, string>();
  for (const [name, minCapacity, maxCapacity] of tables)
    made.set(name, (await createTable(principal, location.id, { name, minCapacity, maxCapacity })).id);
  await putBookingSettings(principal, location.id, { bufferMinutes: 0, maxAdvanceDays: 365, ...settings });
  return { locationId: location.id, table: (name: string) => made.get(name)! };
}

const book = (
  locationId: number,
  date: string,
  start: string,
  end: string,
  guestCount: number,
  tableIds: string[],
  extra: Record<string, unknown> = {},
) =>
  createBooking(principal, {
    locationId,
    bookingDate: date,
    startTime: start,
    endTime: end,
    guestCount,
    tableIds,
    guestName: 'Selling test',
    ...extra,
  });

const raw = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk }, ConsistentRead: true }))).Item;
/** The payloads of the company's events of a type about one resource. */
const events = async (type: string, id: string) =>
  ((await companyEvents(companyId)).Items ?? [])
    .map((i) => i.payload as Record<string, unknown>)
    .filter((e) => e.event === type && e.resourceId === id);

/** Every item of the company (its own partition and those under it). */
async function snapshot(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items
    .filter((i) => i.pk === `C#${companyId}` || String(i.pk).startsWith(`C#${companyId}#`) || i.companyId === companyId)
    .sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`));
}

interface Watched {
  command: string;
  input?: Record<string, unknown>;
  start: number;
  end?: number;
}

/** A client that records when each command starts and ends, and runs `before` once ahead of the first TransactWriteItems. */
function watchingClient(log: Watched[], before?: () => Promise<void>): DynamoDBDocumentClient {
  const { region, dynamoEndpoint } = config();
  const base = new DynamoDBClient({
    region,
    endpoint: dynamoEndpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let pending = before;
  base.middlewareStack.add(
    (next, context) => async (args) => {
      if (pending && context.commandName === 'TransactWriteItemsCommand') {
        const run = pending;
        pending = undefined;
        await run();
      }
      const entry: Watched = {
        command: context.commandName!,
        input: (args as { input: Record<string, unknown> }).input,
        start: performance.now(),
      };
      log.push(entry);
      try {
        return await next(args);
      } finally {
        entry.end = performance.now();
      }
    },
    { step: 'initialize', name: 'watch' },
  );
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

afterEach(() => setDb(undefined));

const date = ordinaryDay(20);

describe('the floor of a date', () => {
  it('is read in one round trip: one BatchGetItem and three Queries (tables, bookings, waitlist offers), all sent before any answers', async () => {
    const { locationId } = await place([['T1', 1, 4]]);
    const group = await createBookingGroup(principal, locationId, {
      name: 'Terrace',
      tableIds: [(await readFloor(companyId, locationId, date)).tables[0]!.id],
    });
    const log: Watched[] = [];
    setDb(watchingClient(log));
    await readFloor(companyId, locationId, date, { bookingGroupId: group.id });
    expect(log.map((l) => l.command).sort()).toEqual([
      'BatchGetItemCommand',
      'QueryCommand',
      'QueryCommand',
      'QueryCommand',
    ]);
    const firstAnswer = Math.min(...log.map((l) => l.end!));
    expect(log.every((l) => l.start < firstAnswer)).toBe(true);
  });

  it('holds the bookings of the day before and after, and answers 404 for what the company lacks', async () => {
    // Open until 01:00: the evening's booking may end after midnight (docs/bookings.md, "Time").
    const lateHours = Object.fromEntries(weekdays.map((d) => [d, [{ open: '17:00', close: '01:00' }]]));
    const { locationId, table } = await place([['T1', 1, 4]], { operatingHours: lateHours });
    const eve = await book(locationId, ordinaryDay(19), '22:00', '00:30', 2, [table('T1')]);
    const next = await book(locationId, ordinaryDay(21), '17:00', '19:00', 2, [table('T1')]);
    const floor = await readFloor(companyId, locationId, date);
    expect(floor.bookings.map((b) => b.id).sort()).toEqual([eve.id, next.id].sort());
    await expect(readFloor(companyId, 999_999_999, date)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(readFloor(companyId, locationId, date, { bookingGroupId: crypto.randomUUID() })).rejects.toMatchObject(
      { code: 'NOT_FOUND', details: [{ path: '/bookingGroupId' }] },
    );
    await expect(readFloor(companyId, locationId, date, { primaryUserId: 987_654_321 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      details: [{ path: '/primaryUserId' }],
    });
  });
});

describe('availability', () => {
  it('answers the slots of the date from what is stored', async () => {
    const { locationId, table } = await place([['T1', 1, 4]], { bufferMinutes: 15 });
    await book(locationId, date, '17:00', '19:00', 2, [table('T1')]);
    const answer = await getAvailability(principal, locationId, { date, partySize: 2 });
    expect(answer).toMatchObject({
      locationId,
      date,
      partySize: 2,
      bookingGroupId: null,
      timezone: zone,
      slotIntervalMinutes: 15,
      durationMinutes: 120,
    });
    expect(answer.slots).toHaveLength(96);
    const reason = (time: string) => answer.slots.find((s) => s.time === time)!.reason;
    expect(['16:45', '17:00', '19:00', '21:15'].map(reason)).toEqual([
      'closed',
      'no_table_fits',
      'no_table_fits',
      'closed',
    ]);
    expect(answer.slots.filter((s) => s.available).map((s) => s.time)).toEqual([
      '19:15',
      '19:30',
      '19:45',
      '20:00',
      '20:15',
      '20:30',
      '20:45',
      '21:00',
    ]);
  });
});

describe('availability: the layout kept between calls', () => {
  const ask = (locationId: number, partySize = 2, bookingGroupId?: string) =>
    getAvailability(principal, locationId, { date, partySize, ...(bookingGroupId ? { bookingGroupId } : {}) });
  /** The answer a container that kept nothing gives. */
  const cold = async (locationId: number, partySize = 2, bookingGroupId?: string) => {
    layoutCache.clear();
    return ask(locationId, partySize, bookingGroupId);
  };
  const free = (answer: { slots: { time: string; available: boolean }[] }) =>
    answer.slots.filter((s) => s.available).map((s) => s.time);
  /** The partitions a watched call read, and whether it read the layout (the tables, by index or from the company's partition). */
  const reads = (log: Watched[]) =>
    log.map((l) => `${l.command} ${JSON.stringify(l.input?.ExpressionAttributeValues ?? l.input?.Key ?? '')}`);
  const readTheTables = (log: Watched[]) =>
    log.some((l) => l.command === 'QueryCommand' && JSON.stringify(l.input).includes('TABLE'));

  it('a warm call reads the token, the buckets and the offers in one round trip, and not the layout', async () => {
    const { locationId, table } = await place([
      ['T1', 1, 4],
      ['T2', 1, 4],
    ]);
    await book(locationId, date, '18:00', '20:00', 2, [table('T1')]);
    const first = await cold(locationId);
    const log: Watched[] = [];
    setDb(watchingClient(log));
    expect(await ask(locationId)).toEqual(first);
    expect(log.map((l) => l.command).sort(), reads(log).join('\n')).toEqual([
      'GetItemCommand',
      'QueryCommand',
      'QueryCommand',
    ]);
    expect(readTheTables(log)).toBe(false);
    const firstAnswer = Math.min(...log.map((l) => l.end!));
    expect(log.every((l) => l.start < firstAnswer)).toBe(true);
    // A cold call reads the layout, strongly consistent, after the token.
    const coldLog: Watched[] = [];
    setDb(watchingClient(coldLog));
    layoutCache.clear();
    await ask(locationId);
    expect(readTheTables(coldLog)).toBe(true);
    const layoutReads = coldLog.filter(
      (l) => l.input?.ConsistentRead === true || JSON.stringify(l.input).includes('"ConsistentRead":true'),
    );
    expect(layoutReads.map((l) => l.command).sort()).toEqual(['BatchGetItemCommand', 'QueryCommand']);
    const token = coldLog.find((l) => l.command === 'GetItemCommand')!;
    expect(layoutReads.every((l) => l.start > token.end!)).toBe(true);
  });

  it('every write of the layout is seen by the next call, as a container that kept nothing sees it', async () => {
    const { locationId, table } = await place([
      ['T1', 1, 4],
      ['T2', 1, 4],
    ]);
    const group = await createBookingGroup(principal, locationId, { name: 'Window', tableIds: [table('T1')] });
    await book(locationId, date, '18:00', '20:00', 4, [table('T2')]);
    /** Warms the container, makes the change, then asks again: the warm answer is the cold one, and the change shows. */
    const seen = async (change: () => Promise<unknown>, partySize = 2, groupId?: string) => {
      const before = await ask(locationId, partySize, groupId);
      await ask(locationId, partySize, groupId);
      await change();
      const warm = await ask(locationId, partySize, groupId);
      expect(warm).toEqual(await cold(locationId, partySize, groupId));
      expect(warm).not.toEqual(before);
      return warm;
    };
    // Tables: added, changed, deleted.
    const six = await seen(() => createTable(principal, locationId, { name: 'T3', minCapacity: 2, maxCapacity: 6 }), 6);
    expect(free(six).length).toBeGreaterThan(0);
    const t3 = (await readFloor(companyId, locationId, date)).tables.find((t) => t.name === 'T3')!;
    expect(free(await seen(() => updateTable(principal, locationId, t3.id, { maxCapacity: 5 }), 6))).toEqual([]);
    await seen(() => updateTable(principal, locationId, t3.id, { maxCapacity: 6 }), 6);
    expect(free(await seen(() => deleteTable(principal, locationId, t3.id), 6))).toEqual([]);
    // The settings, the location's hours.
    const half = await seen(() => putBookingSettings(principal, locationId, { slotIntervalMinutes: 30 }));
    expect(half.slotIntervalMinutes).toBe(30);
    const late = Object.fromEntries(weekdays.map((d) => [d, [{ open: '19:00', close: '23:00' }]]));
    await seen(() => updateLocation(principal, locationId, { operatingHours: late }));
    await seen(() => putBookingSettings(principal, locationId, { operatingHours: hours }));
    // A booking group: changed, then deleted (404).
    await seen(() => updateBookingGroup(principal, locationId, group.id, { tableIds: [table('T2')] }), 2, group.id);
    await ask(locationId, 2, group.id);
    await deleteBookingGroup(principal, locationId, group.id);
    await expect(ask(locationId, 2, group.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a location deleted answers 404 at once, also from a container that kept its layout', async () => {
    const location = await createLocation(
      principal,
      { name: 'Pop-up', timezone: zone, operatingHours: hours },
      ids.next(),
    );
    await ask(location.id);
    await ask(location.id);
    await deleteLocation(principal, location.id);
    await expect(ask(location.id)).rejects.toMatchObject({ code: 'NOT_FOUND', details: [{ path: '/locationId' }] });
  });

  it('a booking written is seen by the next call without reading the layout again', async () => {
    const { locationId, table } = await place([['T1', 1, 4]]);
    const before = await ask(locationId);
    const log: Watched[] = [];
    setDb(watchingClient(log));
    await book(locationId, date, '18:00', '20:00', 2, [table('T1')]);
    log.length = 0;
    const after = await ask(locationId);
    expect(readTheTables(log)).toBe(false);
    expect(free(after)).not.toEqual(free(before));
    expect(after).toEqual(await cold(locationId));
  });

  it("keeps re-seating's answers on a floor as read: asked again, nothing is solved; the floor changed, solved anew", async () => {
    const { locationId, table } = await place([
      ['TWO', 1, 2],
      ['FOUR', 1, 4],
    ]);
    await book(locationId, date, '18:00', '20:00', 2, [table('FOUR')]);
    const solve = vi.spyOn(await loadSolver(), 'solveBinary');
    try {
      // A party of four at 18:00: only by moving the couple from FOUR to TWO.
      const first = await cold(locationId, 4);
      expect(first.slots.find((s) => s.time === '18:00')).toMatchObject({ available: true });
      expect(solve).toHaveBeenCalled();
      solve.mockClear();
      expect(await ask(locationId, 4)).toEqual(first);
      expect(solve).not.toHaveBeenCalled();
      // Another booking, later: a new floor, solved anew, as a container that kept nothing answers.
      await book(locationId, date, '21:30', '23:00', 2, [table('TWO')]);
      const later = await ask(locationId, 4);
      expect(solve).toHaveBeenCalled();
      expect(later).toEqual(await cold(locationId, 4));
      // TWO taken at 18:00 too: the couple cannot move, and the answer says so.
      await book(locationId, date, '18:00', '20:00', 2, [table('TWO')]);
      const full = await ask(locationId, 4);
      expect(full.slots.find((s) => s.time === '18:00')).toMatchObject({ available: false });
      expect(full).toEqual(await cold(locationId, 4));
    } finally {
      solve.mockRestore();
    }
  });

  it('keeps nothing for a location without a token (older than the tokens): each call reads its layout', async () => {
    const { locationId } = await place([['T1', 1, 4]]);
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: { pk: `C#${companyId}#L#${String(locationId).padStart(12, '0')}#LAYOUT`, sk: 'LAYOUT' },
      }),
    );
    await cold(locationId);
    const log: Watched[] = [];
    setDb(watchingClient(log));
    await ask(locationId);
    expect(readTheTables(log)).toBe(true);
  });
});

describe('optimizing a date', () => {
  it('dry run: answers the moves and the figures, and writes nothing', async () => {
    const { locationId, table } = await place([
      ['EIGHT', 2, 8],
      ['TWO', 1, 2],
    ]);
    const couple = await book(locationId, date, '19:00', '21:00', 2, [table('EIGHT')]);
    const before = await snapshot();
    const answer = await optimizeBookings(principal, locationId, date, {});
    expect(answer).toMatchObject({
      dryRun: true,
      moves: [{ bookingId: couple.id, fromTableIds: [table('EIGHT')], toTableIds: [table('TWO')] }],
      notApplied: [],
    });
    expect(answer.before).toEqual({
      movable: 1,
      withoutTables: 0,
      placedCovers: 2,
      sellableSeatHours: 8 * 2 * 2 + 2 * 3 * 2,
      oversizeSeatHours: 12,
    });
    expect(answer.after).toEqual({
      movable: 1,
      withoutTables: 0,
      placedCovers: 2,
      sellableSeatHours: 8 * 3 * 2 + 2 * 2 * 2,
      oversizeSeatHours: 0,
    });
    expect(await snapshot()).toEqual(before);
  });

  it('applies the moves: the booking, its tab and table days move, with booking.updated naming what changed', async () => {
    const { locationId, table } = await place([
      ['EIGHT', 2, 8],
      ['TWO', 1, 2],
    ]);
    const couple = await book(locationId, date, '19:00', '21:00', 2, [table('EIGHT')]);
    const answer = await optimizeBookings(principal, locationId, date, { dryRun: false });
    expect(answer.moves).toEqual([
      { bookingId: couple.id, fromTableIds: [table('EIGHT')], toTableIds: [table('TWO')] },
    ]);
    expect(answer.after.oversizeSeatHours).toBe(0);
    const moved = (await bookings.get(companyId, couple.id))!;
    expect(moved).toMatchObject({
      tableId: table('TWO'),
      tableIds: [table('TWO')],
      version: couple.version + 1,
      tab: { id: couple.tab.id, tableId: table('TWO') },
    });
    expect((await tabs.get(companyId, couple.tab.id))?.tableId).toBe(table('TWO'));
    expect(Object.keys((await raw(`C#${companyId}#TABLE#${table('TWO')}`, `DAY#${date}`))!.holds)).toEqual([couple.id]);
    expect((await raw(`C#${companyId}#TABLE#${table('EIGHT')}`, `DAY#${date}`))!.holds).toEqual({});
    const [event] = await events('booking.updated', couple.id);
    expect(event!.changes).toEqual({
      tableId: table('TWO'),
      tableIds: [table('TWO')],
      tab: moved.tab,
      tabs: moved.tabs,
    });
    // Nothing left to gain: a second run proposes nothing.
    expect((await optimizeBookings(principal, locationId, date, { dryRun: false })).moves).toEqual([]);
  });

  it('never moves a locked or seated booking', async () => {
    const { locationId, table } = await place([
      ['EIGHT', 2, 8],
      ['TWO', 1, 2],
    ]);
    const couple = await book(locationId, date, '19:00', '21:00', 2, [table('EIGHT')]);
    const early = await book(locationId, date, '17:00', '18:30', 2, [table('EIGHT')]);
    await lockBooking(principal, couple.id, true);
    const seated = await seatBooking(principal, early.id, {});
    const answer = await optimizeBookings(principal, locationId, date, { dryRun: false });
    expect(answer).toMatchObject({ moves: [], before: { movable: 0 } });
    expect((await bookings.get(companyId, couple.id))!.tableIds).toEqual([table('EIGHT')]);
    expect(await bookings.get(companyId, early.id)).toEqual(seated);
  });

  it('writes two bookings that trade tables in one transaction', async () => {
    const { locationId, table } = await place([
      ['A', 1, 4],
      ['B', 1, 4],
    ]);
    const a = await book(locationId, date, '19:00', '21:00', 2, [table('A')]);
    const b = await book(locationId, date, '19:30', '21:30', 2, [table('B')]);
    const floor = await readFloor(companyId, locationId, date);
    const log: { command: string; start: number }[] = [];
    setDb(watchingClient(log));
    const result = await applyMoves(companyId, floor, [
      { bookingId: a.id, from: [table('A')], to: [table('B')] },
      { bookingId: b.id, from: [table('B')], to: [table('A')] },
    ]);
    expect(result.failed).toEqual([]);
    expect(log.filter((l) => l.command === 'TransactWriteItemsCommand')).toHaveLength(1);
    expect((await bookings.get(companyId, a.id))!.tableIds).toEqual([table('B')]);
    expect((await bookings.get(companyId, b.id))!.tableIds).toEqual([table('A')]);
    expect(Object.keys((await raw(`C#${companyId}#TABLE#${table('A')}`, `DAY#${date}`))!.holds)).toEqual([b.id]);
    expect(Object.keys((await raw(`C#${companyId}#TABLE#${table('B')}`, `DAY#${date}`))!.holds)).toEqual([a.id]);
  });
});

describe('concurrent changes', () => {
  it('a table taken since the plan: the move is not made and says why; nothing is overwritten', async () => {
    const { locationId, table } = await place([
      ['EIGHT', 2, 8],
      ['TWO', 1, 2],
    ]);
    const couple = await book(locationId, date, '19:00', '21:00', 2, [table('EIGHT')]);
    const floor = await readFloor(companyId, locationId, date);
    const plan = await optimizeBookings(principal, locationId, date, {});
    const walkIn = await book(locationId, date, '19:30', '21:30', 2, [table('TWO')]);
    const moves = plan.moves.map((m) => ({ bookingId: m.bookingId, from: m.fromTableIds, to: m.toTableIds }));
    const result = await applyMoves(companyId, floor, moves);
    expect(result).toEqual({ applied: [], failed: [{ ...moves[0], reason: 'table TWO is taken at that time' }] });
    expect(await bookings.get(companyId, couple.id)).toEqual(couple);
    expect(await bookings.get(companyId, walkIn.id)).toEqual(walkIn);
  });

  it('a booking changed since it was read: its transaction fails as a whole', async () => {
    const { locationId, table } = await place([
      ['EIGHT', 2, 8],
      ['TWO', 1, 2],
    ]);
    const couple = await book(locationId, date, '19:00', '21:00', 2, [table('EIGHT')]);
    const floor = await readFloor(companyId, locationId, date);
    const noted = await updateBooking(principal, couple.id, { internalNotes: 'Window seat' });
    const before = await snapshot();
    const result = await applyMoves(companyId, floor, [
      { bookingId: couple.id, from: [table('EIGHT')], to: [table('TWO')] },
    ]);
    expect(result.failed).toEqual([
      expect.objectContaining({
        bookingId: couple.id,
        reason: 'the booking or its tables were changed by another request meanwhile',
      }),
    ]);
    expect(await snapshot()).toEqual(before);
    expect(await bookings.get(companyId, couple.id)).toEqual(noted);
  });

  it('the optimizer reads again and plans anew when its moves meet a concurrent change', async () => {
    const { locationId, table } = await place([
      ['EIGHT', 2, 8],
      ['TWO', 1, 2],
    ]);
    const couple = await book(locationId, date, '19:00', '21:00', 2, [table('EIGHT')]);
    const log: { command: string; start: number }[] = [];
    // Just before the optimizer's first transaction, someone edits the booking.
    setDb(
      watchingClient(log, async () => void (await updateBooking(principal, couple.id, { internalNotes: 'Birthday' }))),
    );
    const answer = await optimizeBookings(principal, locationId, date, { dryRun: false });
    expect(answer).toMatchObject({ moves: [{ bookingId: couple.id, toTableIds: [table('TWO')] }], notApplied: [] });
    expect(await bookings.get(companyId, couple.id)).toMatchObject({
      internalNotes: 'Birthday',
      tableIds: [table('TWO')],
      version: couple.version + 2,
    });
    expect(log.filter((l) => l.command === 'QueryCommand').length).toBeGreaterThanOrEqual(4);
  });
});
