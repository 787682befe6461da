import { Type, type Static } from '../schemas/typebox';
import { AppError, conflict } from '../errors';
import { TableView } from '../schemas/tables';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { getItem } from './batch';
import { tableName } from './client';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { layoutToken } from './layout';
import { locationCounter, locationExistsStep } from './locations';
import { outboxStep } from './outbox';
import { counterStep, queryAll, type PageRequest } from './paging';
import { atVersion, deleteStep, transact, updateStep, type Step } from './transact';

/** A bookable storefront resource (a table) of a location. */
/**
 * A table as shown (`combinableWith`: other tables of the location it can be pushed together with;
 * the relation is kept symmetric): declared by TableView.
 */
export type DiningTable = Static<typeof TableView>;

/**
 * A table as stored: the resource, the booking groups that include it (kept by the groups'
 * writes) and how many bookings use it (kept by the bookings' writes, `tableUseStep`).
 */
export interface StoredTable {
  table: DiningTable;
  groupIds: string[];
  bookingsUsing: number;
}

/** A table write of a transaction: its new state, and the version it was read at. */
export interface TableWrite {
  next: DiningTable;
  expectedVersion: number;
}

/** A table name taken at a location, and the table that has it. */
const NameReservation = Type.Object({ locationId: Type.Integer(), name: Type.String(), tableId: Type.String() });
type NameReservation = Static<typeof NameReservation>;

const listPartition = (companyId: number) => `${keys.company(companyId)}#TABLES`;

/** The part of a list's sort key that keeps a location's items together (tables, booking groups). */
export const listPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;

/** Sort key of a name in a list: case-folded, numbers zero-padded so that T2 sorts before T10. */
export const nameSortKey = (name: string) => name.toLowerCase().replace(/\d+/g, (digits) => digits.padStart(10, '0'));

/** Where an item sorts in its list: by location, then name, then id. Booking groups list the same way. */
export const byLocationThenName = (locationId: number, name: string, id: string) =>
  `${listPrefix(locationId)}${nameSortKey(name)}#${id}`;

/** A table: in its company's partition under its location; listed (gsi1) by location, then name. */
const tableEntity = defineEntity({
  name: 'TABLE',
  label: 'table',
  key: (companyId: number, locationId: number, id: string) =>
    companyKey(companyId, `TABLE#${keys.pad(locationId)}#${id}`),
  schema: TableView,
  keyOf: (companyId, t) => [companyId, t.locationId, t.id] as const,
  indexes: (companyId, t) => ({
    gsi1pk: listPartition(companyId),
    gsi1sk: byLocationThenName(t.locationId, t.name, t.id),
  }),
});

/** The item that reserves a name within a location: names are unique per location, ignoring case. */
const nameEntity = defineEntity({
  name: 'TABLENAME',
  label: 'table name',
  key: (companyId: number, locationId: number, name: string) =>
    companyKey(companyId, `TABLENAME#${keys.pad(locationId)}#${name.toLowerCase()}`),
  schema: NameReservation,
  keyOf: (companyId, r) => [companyId, r.locationId, r.name] as const,
});

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const duplicateName = (name: string) =>
  new AppError('CONFLICT', `A table named "${name}" already exists at this location`, [
    { path: '/name', message: 'is taken by another table of this location' },
  ]);
const changedConcurrently = (t: DiningTable) =>
  conflict(`Table ${t.id} was changed by another request; read it again and retry`);

/**
 * Sets the table's fields, if it is still at `expectedVersion`. An update, not a Put: the
 * `groupIds` the booking groups keep on the item must survive.
 */
function writeStep(companyId: number, { next, expectedVersion }: TableWrite): Step {
  // The key and the fields that never change are left as they are.
  const { pk, sk, id, locationId, createdAt, ...values } = tableEntity.item(companyId, next);
  return updateStep({ pk: pk as string, sk: sk as string }, values, {
    condition: atVersion(expectedVersion),
    onConditionFailed: () => changedConcurrently(next),
  });
}

const reserveName = (companyId: number, t: DiningTable): Step =>
  nameEntity.newItemStep(companyId, { locationId: t.locationId, name: t.name, tableId: t.id }, () =>
    duplicateName(t.name),
  );

const releaseName = (companyId: number, t: DiningTable): Step =>
  deleteStep(nameEntity.key(companyId, t.locationId, t.name));

const tableCounter = (companyId: number, locationId: number) => locationCounter(companyId, locationId, 'TABLE');

export const diningTables = {
  async get(companyId: number, locationId: number, id: string): Promise<StoredTable | undefined> {
    const item = await getItem(tableEntity.key(companyId, locationId, id));
    return (
      item && {
        table: tableEntity.from(item),
        groupIds: [...((item.groupIds as Set<string> | undefined) ?? [])].sort(),
        bookingsUsing: Math.max(Number(item.bookingsUsing ?? 0), 0),
      }
    );
  },

  /** The tables among `ids` that the location has (one BatchGetItem). */
  getMany(companyId: number, locationId: number, ids: readonly string[]): Promise<DiningTable[]> {
    return tableEntity.getMany(ids.map((id) => [companyId, locationId, id]));
  },

  /** A read of the tables among `ids` that the location has, to send with others in one round trip. */
  readMany: (companyId: number, locationId: number, ids: readonly string[]) =>
    tableEntity.readMany(ids.map((id) => [companyId, locationId, id])),

  /** Every table of the location, by name: one Query (more only past 1 MB). For availability and the optimizer, which need the whole floor. */
  async all(companyId: number, locationId: number): Promise<DiningTable[]> {
    return (
      await queryAll({
        index: 'gsi1',
        partition: listPartition(companyId),
        range: { op: 'begins_with', value: listPrefix(locationId) },
      })
    ).map(tableEntity.from);
  },

  /**
   * The same, strongly consistent: one Query of the table (the company's partition, where the
   * tables are by id), in the order of the index's (by name). What availability keeps under the
   * location's layout token must be at least as new as the token (shared/data/layout.ts); the index
   * may lag it.
   */
  async allNow(companyId: number, locationId: number): Promise<DiningTable[]> {
    const items = await queryAll({
      partition: keys.company(companyId),
      range: { op: 'begins_with', value: `TABLE#${keys.pad(locationId)}#` },
      consistent: true,
    });
    const tables = items.map(tableEntity.from);
    // The index's order: by its sort key's UTF-8 bytes, as DynamoDB compares them.
    const sortKey = new Map(tables.map((t) => [t, Buffer.from(byLocationThenName(t.locationId, t.name, t.id))]));
    return tables.sort((a, b) => Buffer.compare(sortKey.get(a)!, sortKey.get(b)!));
  },

  /** The location's tables by name (numbers in names sort by value): one Query per page. */
  list(companyId: number, locationId: number, page: PageRequest): Promise<Page<DiningTable>> {
    return tableEntity.list(
      {
        index: 'gsi1',
        partition: listPartition(companyId),
        prefix: listPrefix(locationId),
        counter: tableCounter(companyId, locationId),
      },
      page,
    );
  },

  /**
   * Adds tables of one location (the API adds one; the seed a floor plan) with their names
   * reserved, their partners' lists updated, and the events, at once.
   */
  async create(
    companyId: number,
    locationId: number,
    tables: DiningTable[],
    partners: TableWrite[],
    events: DomainEvent[],
  ): Promise<void> {
    await transact([
      locationExistsStep(companyId, locationId),
      ...tables.flatMap((t): Step[] => [reserveName(companyId, t), tableEntity.newItemStep(companyId, t)]),
      counterStep(tableCounter(companyId, locationId), tables.length),
      layoutToken.changedStep(companyId, locationId),
      ...partners.map((p) => writeStep(companyId, p)),
      ...events.map(outboxStep),
    ]);
  },

  /** Writes the table and its partners if none changed since read; a new name is reserved, the old one released. */
  async update(
    companyId: number,
    prev: DiningTable,
    next: DiningTable,
    partners: TableWrite[],
    events: DomainEvent[],
  ): Promise<void> {
    const renamed = !sameName(prev.name, next.name);
    await transact([
      ...(renamed ? [reserveName(companyId, next), releaseName(companyId, prev)] : []),
      writeStep(companyId, { next, expectedVersion: prev.version }),
      layoutToken.changedStep(companyId, next.locationId),
      ...partners.map((p) => writeStep(companyId, p)),
      ...events.map(outboxStep),
    ]);
  },

  /**
   * Deletes the table as read, unless a booking group took it in or a booking started using it
   * meanwhile; its partners drop it from their lists.
   */
  async remove(companyId: number, t: DiningTable, partners: TableWrite[], events: DomainEvent[]): Promise<void> {
    await transact([
      deleteStep(
        tableEntity.key(companyId, t.locationId, t.id),
        {
          expression:
            'version = :v AND attribute_not_exists(groupIds) AND (attribute_not_exists(bookingsUsing) OR bookingsUsing <= :zero)',
          values: { ':v': t.version, ':zero': 0 },
        },
        () =>
          conflict(
            `Table ${t.id} was changed, added to a booking group or booked by another request; read it again and retry`,
          ),
      ),
      releaseName(companyId, t),
      counterStep(tableCounter(companyId, t.locationId), -1),
      layoutToken.changedStep(companyId, t.locationId),
      ...partners.map((p) => writeStep(companyId, p)),
      ...events.map(outboxStep),
    ]);
  },
};

/**
 * A booking starts (+1) or stops (−1) using the table (bookings.ts `usesItsPlace`): counted on the
 * table item, under the condition that it exists. So a booking cannot land on a table deleted
 * since it was read (404), and a table cannot be deleted while a booking uses it: the delete is
 * conditioned on the count, and of two such transactions at once one fails.
 */
export function tableUseStep(companyId: number, locationId: number, tableId: string, delta: number): Step {
  return updateStep(
    tableEntity.key(companyId, locationId, tableId),
    {},
    {
      add: { bookingsUsing: delta },
      condition: { expression: 'attribute_exists(pk)' },
      onConditionFailed: () =>
        delta > 0
          ? new AppError('NOT_FOUND', `Table ${tableId} not found at location ${locationId}`)
          : conflict(`Table ${tableId} of location ${locationId} is missing`),
    },
  );
}

/**
 * A step that records (add) or forgets (remove) that a booking group includes the table. It holds
 * only if the table exists at the location; `onMissing` is the error otherwise. The core's
 * `updateStep` has no string-set ADD/DELETE, which only this membership uses.
 */
export function groupMembershipStep(
  companyId: number,
  locationId: number,
  tableId: string,
  groupId: string,
  change: 'add' | 'remove',
  onMissing: () => AppError,
): Step {
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: tableEntity.key(companyId, locationId, tableId),
        UpdateExpression: `${change === 'add' ? 'ADD' : 'DELETE'} groupIds :g`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':g': new Set([groupId]) },
      },
    },
    onConditionFailed: onMissing,
  };
}
