/**
 * Bookings and the items that keep their invariants (docs/bookings.md#data):
 *
 *   booking       C#<cid> / BOOKING#<id>     gsi1 C#<cid>#L#<loc:12>#BOOKINGS / <date>#<HH:MM>#<id>
 *                                            gsi2 C#<cid>#BOOKINGS / <date>#<HH:MM>#<id>
 *   code lookup   CODE#<code> / CODE         companyId, bookingId (codes are unique platform-wide)
 *   table day     C#<cid>#TABLE#<tableId> / DAY#<local date>   holds {bookingId: [startMs, endMs]}, version
 *   table link    C#<cid>#TABLE#<tableId>#BOOKINGS / <date>#<HH:MM>#<id>
 *   guest link    C#<cid>#USER#<userId>#BOOKINGS / <date>#<HH:MM>#<id>
 *   active count  C#<cid>#USER#<userId>#ACTIVE / L#<loc:12>   n: the guest's active bookings there
 *   no-show sweep SWEEP#<UTC hour of dueAt> / <dueAt>#<cid>#<id>
 *
 * Every change of a booking is one TransactWriteItems built by `bookings.write` from a plan the
 * domain makes (what to put, which conditions hold); callers never see a key.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { DayHolds, TableDay, TableDayWrite } from '../domain/bookings/holds';
import type { BookingStatus, TabStatus } from '../domain/bookings/states';
import { Page } from '../page';
import { getItems } from './batch';
import { db, tableName } from './client';
import { toAppError } from './errors';

import { guestHistoryStep, type GuestHistoryChange } from './guests';
import { keys, pick } from './keys';
import { locationExistsStep } from './locations';
import { orderSteps, type OrderWrite } from './orders';
import { queryAll, readLog, type PageRequest } from './paging';
import { printJobStep, type PrintJob } from './printJobs';
import { openTabSteps, tabSteps, type OpenTabChange, type TabWrite } from './tabs';
import { transact, type Step } from './transact';
import { outboxStep } from './outbox';

export type TabStrategy = 'single' | 'per_resource';

/** A tab of the booking as the booking shows it: which resource it serves and its status. */
export interface BookingTab {
  id: string;
  tableId: string | null;
  status: TabStatus;
}

/** A booking (spec 2.12) as the API shows it. `bookingDate`/`startTime`/`endTime` are the location's local date and wall times. */
export interface Booking {
  id: string;
  locationId: number;
  bookingDate: string;
  startTime: string;
  endTime: string;
  timezone: string;
  /** The same instants in UTC. */
  startsAt: string;
  endsAt: string;
  guestCount: number;
  /** The primary table (tableIds[0]), or null. */
  tableId: string | null;
  tableIds: string[];
  defaultTabStrategy: TabStrategy;
  primaryUserId: number | null;
  guestName: string | null;
  guestEmail: string | null;
  guestPhone: string | null;
  occasion: string | null;
  specialRequests: string | null;
  internalNotes: string | null;
  paymentType: string | null;
  depositAmountCents: number | null;
  bookingSource: string | null;
  status: BookingStatus;
  /** The status the booking had when it was seated (unseating returns to it); null when not seated. */
  statusBeforeSeating: BookingStatus | null;
  confirmationCode: string;
  /** Pinned: the table optimizer never moves it. */
  locked: boolean;
  /** The primary tab (tabs[0]). */
  tab: BookingTab;
  /** The booking's tabs, primary first. */
  tabs: BookingTab[];
  /** The kitchen order seating made of the pre-order (reversed by unseating); null when none. */
  seatingOrderId: string | null;
  /** When the no-show sweeper will mark the booking if it is still confirmed or checked in; null when it will not. */
  autoNoShowAt: string | null;
  cancellationReason: string | null;
  seatedAt: string | null;
  completedAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const fields = [
  'id', 'locationId', 'bookingDate', 'startTime', 'endTime', 'timezone', 'startsAt', 'endsAt', 'guestCount', 'tableId', 'tableIds',
  'defaultTabStrategy', 'primaryUserId', 'guestName', 'guestEmail', 'guestPhone', 'occasion', 'specialRequests', 'internalNotes',
  'paymentType', 'depositAmountCents', 'bookingSource', 'status', 'statusBeforeSeating', 'confirmationCode', 'locked', 'tab', 'tabs',
  'seatingOrderId', 'autoNoShowAt', 'cancellationReason', 'seatedAt', 'completedAt', 'cancelledAt', 'createdAt', 'updatedAt', 'version',
] as const satisfies readonly (keyof Booking)[];
const toBooking = (i: Record<string, unknown>) => pick<Booking>(i, fields);

type Item = Record<string, unknown>;

const bookingKey = (companyId: number, id: string) => ({ pk: keys.company(companyId), sk: `BOOKING#${id}` });
const codeKey = (code: string) => ({ pk: `CODE#${code}`, sk: 'CODE' });
const tableDayKey = (companyId: number, tableId: string, date: string) => ({ pk: `${keys.company(companyId)}#TABLE#${tableId}`, sk: `DAY#${date}` });
const locationPartition = (companyId: number, locationId: number) => `${keys.company(companyId)}#L#${keys.pad(locationId)}#BOOKINGS`;
const companyPartition = (companyId: number) => `${keys.company(companyId)}#BOOKINGS`;
const tableLinkPartition = (companyId: number, tableId: string) => `${keys.company(companyId)}#TABLE#${tableId}#BOOKINGS`;
const guestLinkPartition = (companyId: number, userId: number) => `${keys.company(companyId)}#USER#${userId}#BOOKINGS`;
const activeKey = (companyId: number, userId: number, locationId: number) => ({ pk: `${keys.company(companyId)}#USER#${userId}#ACTIVE`, sk: `L#${keys.pad(locationId)}` });

/** Lists sort by local date, then wall time, then id. */
const listSortKey = (b: Pick<Booking, 'bookingDate' | 'startTime' | 'id'>) => `${b.bookingDate}#${b.startTime}#${b.id}`;

function bookingItem(companyId: number, b: Booking): Item {
  const sortKey = listSortKey(b);
  return {
    ...bookingKey(companyId, b.id),
    gsi1pk: locationPartition(companyId, b.locationId),
    gsi1sk: sortKey,
    gsi2pk: companyPartition(companyId),
    gsi2sk: sortKey,
    entity: 'BOOKING',
    companyId,
    ...b,
  };
}

/** Each table's link and the guest's link of a booking: what lists by table or by guest read. */
function linkKeys(companyId: number, b: Booking): { pk: string; sk: string }[] {
  const sk = listSortKey(b);
  const partitions = b.tableIds.map((t) => tableLinkPartition(companyId, t));
  if (b.primaryUserId !== null) partitions.push(guestLinkPartition(companyId, b.primaryUserId));
  return partitions.map((pk) => ({ pk, sk }));
}

/** The no-show sweep item of a booking due at `dueAt`; partitioned by its UTC hour so the sweeper reads a few small partitions. */
const sweepKey = (companyId: number, bookingId: string, dueAt: string) => ({ pk: `SWEEP#${dueAt.slice(0, 13)}`, sk: `${dueAt}#${companyId}#${bookingId}` });

const tableDayItem = (companyId: number, w: TableDayWrite) => ({
  ...tableDayKey(companyId, w.tableId, w.date),
  entity: 'TABLE_DAY',
  companyId,
  tableId: w.tableId,
  date: w.date,
  holds: w.holds,
  version: (w.expectedVersion ?? 0) + 1,
});

/** A table-day item changed since it was read, or a concurrent transaction held the same items: read again and retry. */
export class Contention extends AppError {
  constructor() {
    super('CONFLICT', 'Another request is booking the same tables right now; try again');
  }
}

/** The confirmation code drawn for a new booking is taken: draw another. */
export class CodeTaken extends AppError {
  constructor() {
    super('CONFLICT', 'The confirmation code is taken');
  }
}

/** One change of a booking and everything that moves with it, written as one transaction by `bookings.write`. */
export interface BookingWrite {
  /**
   * The booking as read, or undefined for a new one. The write is conditioned on its version; the
   * link items and the no-show sweep item follow from prev → next.
   */
  prev?: Booking;
  next: Booking;
  /** Table-day items to put back, each at the version read (holds placed or moved). */
  tableDays?: TableDayWrite[];
  /** A hold to drop without reading: the booking's tables and the days its hold is in. */
  releaseHolds?: { tableIds: readonly string[]; dates: readonly string[] };
  tabs?: TabWrite[];
  openTabs?: OpenTabChange[];
  orders?: OrderWrite[];
  printJobs?: PrintJob[];
  /** Added to the primary guest's history at the location. */
  guestHistory?: GuestHistoryChange;
  /**
   * Added to the primary guest's count of active bookings at the location. An increase may be
   * capped: the count must be below `max`, else `error` (spec 2.8 maxActiveBookingsPerGuest).
   */
  activeBookings?: { delta: number; cap?: { max: number; error: () => AppError } | undefined };
  events: DomainEvent[];
}

function bookingSteps(companyId: number, w: BookingWrite): Step[] {
  const { prev, next } = w;
  const steps: Step[] = [];
  if (prev) {
    steps.push({
      item: { Put: { TableName: tableName(), Item: bookingItem(companyId, next), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': prev.version } } },
      onConditionFailed: () => conflict('The booking was changed by another request; read it again and retry'),
    });
  } else {
    steps.push(
      locationExistsStep(companyId, next.locationId),
      { item: { Put: { TableName: tableName(), Item: bookingItem(companyId, next), ConditionExpression: 'attribute_not_exists(pk)' } } },
      {
        item: { Put: { TableName: tableName(), Item: { ...codeKey(next.confirmationCode), entity: 'BOOKING_CODE', companyId, bookingId: next.id }, ConditionExpression: 'attribute_not_exists(pk)' } },
        onConditionFailed: () => new CodeTaken(),
      },
    );
  }

  const id = (k: { pk: string; sk: string }) => `${k.pk}|${k.sk}`;
  const before = prev ? linkKeys(companyId, prev) : [];
  const after = linkKeys(companyId, next);
  for (const k of before) if (!after.some((a) => id(a) === id(k))) steps.push({ item: { Delete: { TableName: tableName(), Key: k } } });
  for (const k of after) {
    if (!before.some((b) => id(b) === id(k))) steps.push({ item: { Put: { TableName: tableName(), Item: { ...k, entity: 'BOOKING_LINK', companyId, bookingId: next.id } } } });
  }

  if (prev?.autoNoShowAt !== next.autoNoShowAt) {
    if (prev?.autoNoShowAt) steps.push({ item: { Delete: { TableName: tableName(), Key: sweepKey(companyId, next.id, prev.autoNoShowAt) } } });
    if (next.autoNoShowAt) {
      const Item = { ...sweepKey(companyId, next.id, next.autoNoShowAt), entity: 'NO_SHOW_SWEEP', companyId, bookingId: next.id, dueAt: next.autoNoShowAt };
      steps.push({ item: { Put: { TableName: tableName(), Item } } });
    }
  }

  if (next.primaryUserId !== null) {
    const { delta = 0, cap } = w.activeBookings ?? {};
    if (delta !== 0) {
      const capped = delta > 0 ? cap : undefined;
      steps.push({
        item: {
          Update: {
            TableName: tableName(),
            Key: activeKey(companyId, next.primaryUserId, next.locationId),
            UpdateExpression: 'SET entity = :e ADD n :d',
            ...(capped ? { ConditionExpression: 'attribute_not_exists(n) OR n < :max' } : {}),
            ExpressionAttributeValues: { ':e': 'GUEST_ACTIVE_BOOKINGS', ':d': delta, ...(capped ? { ':max': capped.max } : {}) },
          },
        },
        ...(capped ? { onConditionFailed: capped.error } : {}),
      });
    }
    if (w.guestHistory) steps.push(guestHistoryStep(companyId, next.primaryUserId, next.locationId, w.guestHistory));
  }

  for (const day of w.tableDays ?? []) {
    steps.push({
      item: {
        Put: {
          TableName: tableName(),
          Item: tableDayItem(companyId, day),
          ...(day.expectedVersion === null
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': day.expectedVersion } }),
        },
      },
      onConditionFailed: () => new Contention(),
    });
  }
  for (const tableId of w.releaseHolds?.tableIds ?? []) {
    for (const date of w.releaseHolds!.dates) {
      // The version moves: a concurrent writer that read the hold must not put it back.
      steps.push({
        item: {
          Update: {
            TableName: tableName(),
            Key: tableDayKey(companyId, tableId, date),
            UpdateExpression: 'REMOVE holds.#b ADD version :one',
            ConditionExpression: 'attribute_exists(holds)',
            ExpressionAttributeNames: { '#b': next.id },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        onConditionFailed: () => conflict(`The holds of table ${tableId} on ${date} are missing`),
      });
    }
  }

  const at = next.updatedAt;
  steps.push(...tabSteps(companyId, w.tabs ?? [], at), ...openTabSteps(companyId, w.openTabs ?? []), ...orderSteps(companyId, w.orders ?? []));
  steps.push(...(w.printJobs ?? []).map((job) => printJobStep(companyId, job)), ...w.events.map(outboxStep));
  return steps;
}

/** Where a list of bookings is read from (docs/bookings.md#lists): an index of bookings, or the link items of a table or a guest. */
export type BookingSource = { by: 'location'; locationId: number } | { by: 'company' } | { by: 'table'; tableId: string } | { by: 'guest'; userId: number };

export interface BookingListQuery extends PageRequest {
  source: BookingSource;
  /** Local dates, inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** The filters the source's keys do not apply, checked on each page. */
  keep: (b: Booking) => boolean;
}

function span(companyId: number, q: BookingListQuery) {
  const range = { op: 'between' as const, low: `${q.from ?? '0000-01-01'}#`, high: `${q.to ?? '9999-12-31'}#~` };
  switch (q.source.by) {
    case 'location':
      return { index: 'gsi1' as const, partition: locationPartition(companyId, q.source.locationId), range };
    case 'company':
      return { index: 'gsi2' as const, partition: companyPartition(companyId), range };
    case 'table':
      return { partition: tableLinkPartition(companyId, q.source.tableId), range };
    case 'guest':
      return { partition: guestLinkPartition(companyId, q.source.userId), range };
  }
}

export const bookings = {
  /** The booking, or undefined (also for another company's id): 1 GetItem. */
  async get(companyId: number, id: string): Promise<Booking | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: bookingKey(companyId, id) }));
      return out.Item ? toBooking(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** A booking by its confirmation code, for public operations that know no company: 2 GetItems. */
  async findByCode(code: string): Promise<{ companyId: number; booking: Booking } | undefined> {
    try {
      const lookup = await db().send(new GetCommand({ TableName: tableName(), Key: codeKey(code) }));
      if (!lookup.Item) return undefined;
      const companyId = lookup.Item.companyId as number;
      const booking = await bookings.get(companyId, lookup.Item.bookingId as string);
      return booking ? { companyId, booking } : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** Bookings by id, in the order asked (one BatchGetItem per 100). */
  async getMany(companyId: number, ids: readonly string[]): Promise<Booking[]> {
    const found = new Map((await getItems([...new Set(ids)].map((id) => bookingKey(companyId, id)))).map((i) => [i.id as string, toBooking(i)]));
    return ids.flatMap((id) => found.get(id) ?? []);
  },

  /**
   * One page of bookings: one Query of the source (plus, for tables and guests, one BatchGetItem
   * of the bookings the links name), then the other filters. A filtered page may hold fewer than
   * `limit` bookings while `nextCursor` goes on. `total` counts the bookings listed up to the end
   * of this page (the pages before it as full when it was reached by cursor), plus one when more
   * may follow.
   */
  async list(companyId: number, q: BookingListQuery): Promise<Page<Booking>> {
    const read = await readLog(span(companyId, q), q);
    const linked = q.source.by === 'table' || q.source.by === 'guest';
    const load = async (items: Record<string, unknown>[]) => (linked ? bookings.getMany(companyId, items.map((i) => i.bookingId as string)) : items.map(toBooking));
    const all = (await load([...read.head, ...read.items])).filter(q.keep);
    const headIds = new Set(read.head.map((i) => (linked ? i.bookingId : i.id) as string));
    const shown = all.filter((b) => !headIds.has(b.id));
    const before = q.cursor ? (read.page - 1) * read.limit : all.length - shown.length;
    const total = before + shown.length + (read.more ? 1 : 0);
    return new Page(shown, { page: read.page, limit: read.limit, total, totalPages: Math.ceil(total / read.limit), nextCursor: read.nextCursor });
  },

  /** Every booking of a location on a local date, by start time: one Query (more only past 1 MB). */
  async onDate(companyId: number, locationId: number, date: string): Promise<Booking[]> {
    const items = await queryAll({ index: 'gsi1', partition: locationPartition(companyId, locationId), range: { op: 'begins_with', value: `${date}#` } });
    return items.map(toBooking);
  },

  /** The table-day items of some tables and days (one BatchGetItem per 100); absent ones as empty with version null. */
  async tableDays(companyId: number, wanted: readonly { tableId: string; date: string }[]): Promise<TableDay[]> {
    const stored = new Map(
      (await getItems(wanted.map((w) => tableDayKey(companyId, w.tableId, w.date)))).map((i) => [`${i.tableId}|${i.date}`, i]),
    );
    return wanted.map(({ tableId, date }) => {
      const item = stored.get(`${tableId}|${date}`);
      return { tableId, date, holds: (item?.holds as DayHolds | undefined) ?? {}, version: (item?.version as number | undefined) ?? null };
    });
  },

  /**
   * Writes the change as one transaction. A failed condition answers the error its item means
   * (Contention for table days, CodeTaken, TableOccupied, 409 for a booking or tab changed
   * meanwhile); a transaction that met a concurrent one on the same items answers Contention.
   */
  async write(companyId: number, change: BookingWrite): Promise<void> {
    const fromConditions = new WeakSet<object>();
    const steps = bookingSteps(companyId, change).map((s): Step => {
      const toError = s.onConditionFailed;
      if (!toError) return s;
      return {
        ...s,
        onConditionFailed: () => {
          const err = toError();
          fromConditions.add(err);
          return err;
        },
      };
    });
    try {
      await transact(steps);
    } catch (err) {
      if (err instanceof AppError && err.code === 'CONFLICT' && !fromConditions.has(err)) throw new Contention();
      throw err;
    }
  },

  /** Sweep items due by `nowMs`, in the UTC hours from `sinceMs` on: one Query per hour. */
  async dueForNoShow(sinceMs: number, nowMs: number): Promise<{ companyId: number; bookingId: string; dueAt: string }[]> {
    const due: { companyId: number; bookingId: string; dueAt: string }[] = [];
    const bound = `${new Date(nowMs).toISOString()}#~`;
    for (let hour = Math.floor(sinceMs / 3_600_000) * 3_600_000; hour <= nowMs; hour += 3_600_000) {
      const items = await queryAll({ partition: `SWEEP#${new Date(hour).toISOString().slice(0, 13)}`, range: { op: '<', value: bound } });
      due.push(...items.map((i) => ({ companyId: i.companyId as number, bookingId: i.bookingId as string, dueAt: i.dueAt as string })));
    }
    return due;
  },
};
