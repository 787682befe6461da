import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { AppError, conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { getItems, readItems, type ReadRequest } from './batch';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { locationCounter, locationExistsStep } from './locations';
import { counterStep, listPage, type PageRequest } from './paging';
import { transact, type Step } from './transact';
import { outboxStep } from './outbox';

/** A bookable storefront resource (a table) of a location. */
export interface DiningTable {
  id: string;
  locationId: number;
  name: string;
  minCapacity: number;
  maxCapacity: number;
  /** Other tables of the location it can be pushed together with; the relation is kept symmetric. */
  combinableWith: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A table as stored: the resource, and the booking groups that include it (kept by the groups' writes). */
export interface StoredTable {
  table: DiningTable;
  groupIds: string[];
}

/** A table write of a transaction: its new state, and the version it was read at. */
export interface TableWrite {
  next: DiningTable;
  expectedVersion: number;
}

const fields = ['id', 'locationId', 'name', 'minCapacity', 'maxCapacity', 'combinableWith', 'version', 'createdAt', 'updatedAt'] as const;
const toTable = (i: Record<string, unknown>) => pick<DiningTable>(i, fields);

const key = (companyId: number, locationId: number, id: string) => ({ pk: keys.company(companyId), sk: `TABLE#${keys.pad(locationId)}#${id}` });
const listPartition = (companyId: number) => `${keys.company(companyId)}#TABLES`;
const listPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;

/**
 * Sort key of a name in a list: case-folded, numbers zero-padded so that T2 sorts before T10.
 * Booking groups list by name the same way.
 */
export const nameSortKey = (name: string) => name.toLowerCase().replace(/\d+/g, (digits) => digits.padStart(10, '0'));

/** The item that reserves a name within a location: names are unique per location, ignoring case. */
const nameKey = (companyId: number, locationId: number, name: string) => ({
  pk: keys.company(companyId),
  sk: `TABLENAME#${keys.pad(locationId)}#${name.toLowerCase()}`,
});
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const duplicateName = (name: string) =>
  new AppError('CONFLICT', `A table named "${name}" already exists at this location`, [{ path: '/name', message: 'is taken by another table of this location' }]);
const changedConcurrently = (t: DiningTable) => conflict(`Table ${t.id} was changed by another request; read it again and retry`);

function item(companyId: number, t: DiningTable) {
  return {
    ...key(companyId, t.locationId, t.id),
    gsi1pk: listPartition(companyId),
    gsi1sk: `${listPrefix(t.locationId)}${nameSortKey(t.name)}#${t.id}`,
    entity: 'TABLE',
    companyId,
    ...t,
  };
}

/**
 * Sets the table's fields, if it is still at `expectedVersion`. An update, not a Put: the
 * `groupIds` the booking groups keep on the item must survive.
 */
function writeStep(companyId: number, { next, expectedVersion }: TableWrite): Step {
  // The key and the fields that never change are left as they are.
  const { pk, sk, id, locationId, createdAt, ...values } = item(companyId, next);
  const set = Object.entries(values);
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: { pk, sk },
        UpdateExpression: `SET ${set.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: '#version = :expected',
        ExpressionAttributeNames: { ...Object.fromEntries(set.map(([name], i) => [`#f${i}`, name])), '#version': 'version' },
        ExpressionAttributeValues: { ...Object.fromEntries(set.map(([, value], i) => [`:f${i}`, value])), ':expected': expectedVersion },
      },
    },
    onConditionFailed: () => changedConcurrently(next),
  };
}

const reserveName = (companyId: number, t: DiningTable): Step => ({
  item: {
    Put: {
      TableName: tableName(),
      Item: { ...nameKey(companyId, t.locationId, t.name), entity: 'TABLENAME', companyId, tableId: t.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  onConditionFailed: () => duplicateName(t.name),
});

const releaseName = (companyId: number, t: DiningTable): Step => ({ item: { Delete: { TableName: tableName(), Key: nameKey(companyId, t.locationId, t.name) } } });

const tableCounter = (companyId: number, locationId: number) => locationCounter(companyId, locationId, 'TABLE');

export const diningTables = {
  async get(companyId: number, locationId: number, id: string): Promise<StoredTable | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, locationId, id) }));
      if (!out.Item) return undefined;
      return { table: toTable(out.Item), groupIds: [...((out.Item.groupIds as Set<string> | undefined) ?? [])].sort() };
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The tables among `ids` that the location has (one BatchGetItem). */
  async getMany(companyId: number, locationId: number, ids: readonly string[]): Promise<DiningTable[]> {
    if (ids.length === 0) return [];
    return (await getItems(ids.map((id) => key(companyId, locationId, id)))).map(toTable);
  },

  /** A read of the tables among `ids` that the location has, to send with others in one round trip. */
  readMany(companyId: number, locationId: number, ids: readonly string[]): ReadRequest<DiningTable[]> {
    const request = readItems(ids.map((id) => key(companyId, locationId, id)));
    return { keys: request.keys, answer: (found) => request.answer(found).flatMap((i) => (i ? [toTable(i)] : [])) };
  },

  /** The location's tables by name (numbers in names sort by value): one Query per page. */
  list(companyId: number, locationId: number, page: PageRequest): Promise<Page<DiningTable>> {
    return listPage(
      { index: 'gsi1', partition: listPartition(companyId), prefix: listPrefix(locationId), counter: tableCounter(companyId, locationId) },
      page,
      toTable,
    );
  },

  /**
   * Adds tables of one location (the API adds one; the seed a floor plan) with their names
   * reserved, their partners' lists updated, and the events, at once.
   */
  async create(companyId: number, locationId: number, tables: DiningTable[], partners: TableWrite[], events: DomainEvent[]): Promise<void> {
    await transact([
      locationExistsStep(companyId, locationId),
      ...tables.flatMap((t): Step[] => [
        reserveName(companyId, t),
        { item: { Put: { TableName: tableName(), Item: item(companyId, t), ConditionExpression: 'attribute_not_exists(pk)' } } },
      ]),
      counterStep(tableCounter(companyId, locationId), tables.length),
      ...partners.map((p) => writeStep(companyId, p)),
      ...events.map(outboxStep),
    ]);
  },

  /** Writes the table and its partners if none changed since read; a new name is reserved, the old one released. */
  async update(companyId: number, prev: DiningTable, next: DiningTable, partners: TableWrite[], events: DomainEvent[]): Promise<void> {
    const renamed = !sameName(prev.name, next.name);
    await transact([
      ...(renamed ? [reserveName(companyId, next), releaseName(companyId, prev)] : []),
      writeStep(companyId, { next, expectedVersion: prev.version }),
      ...partners.map((p) => writeStep(companyId, p)),
      ...events.map(outboxStep),
    ]);
  },

  /** Deletes the table as read, unless a booking group took it in meanwhile; its partners drop it from their lists. */
  async remove(companyId: number, t: DiningTable, partners: TableWrite[], events: DomainEvent[]): Promise<void> {
    await transact([
      {
        item: {
          Delete: {
            TableName: tableName(),
            Key: key(companyId, t.locationId, t.id),
            ConditionExpression: 'version = :v AND attribute_not_exists(groupIds)',
            ExpressionAttributeValues: { ':v': t.version },
          },
        },
        onConditionFailed: () => conflict(`Table ${t.id} was changed or added to a booking group by another request; read it again and retry`),
      },
      releaseName(companyId, t),
      counterStep(tableCounter(companyId, t.locationId), -1),
      ...partners.map((p) => writeStep(companyId, p)),
      ...events.map(outboxStep),
    ]);
  },
};

/**
 * A step that records (add) or forgets (remove) that a booking group includes the table. It holds
 * only if the table exists at the location; `onMissing` is the error otherwise.
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
        Key: key(companyId, locationId, tableId),
        UpdateExpression: `${change === 'add' ? 'ADD' : 'DELETE'} groupIds :g`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':g': new Set([groupId]) },
      },
    },
    onConditionFailed: onMissing,
  };
}
