import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, type AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { BookingSettingsOverride } from '../schemas/bookingSettings';
import type { WeekHours } from '../schemas/locations';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { locationCounter, locationExistsStep } from './locations';
import { counterStep, listPage, type PageRequest } from './paging';
import { groupMembershipStep, nameSortKey } from './tables';
import { transact, versionedPutStep, type Step } from './transact';
import { outboxStep } from './outbox';

/** A pool of a location's tables with its own schedule and booking settings. */
export interface BookingGroup {
  id: string;
  locationId: number;
  name: string;
  tableIds: string[];
  /** The group's hours; null: the location's operating hours. */
  schedule: WeekHours | null;
  /** Booking settings that differ from the location's (a non-empty subset of spec 2.8); null: none. */
  settingsOverride: BookingSettingsOverride | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The error for a table id the location does not have. */
export type MissingTable = (tableId: string) => AppError;

const fields = ['id', 'locationId', 'name', 'tableIds', 'schedule', 'settingsOverride', 'version', 'createdAt', 'updatedAt'] as const;
const toGroup = (i: Record<string, unknown>) => pick<BookingGroup>(i, fields);

const key = (companyId: number, locationId: number, id: string) => ({ pk: keys.company(companyId), sk: `BGROUP#${keys.pad(locationId)}#${id}` });
const listPartition = (companyId: number) => `${keys.company(companyId)}#BGROUPS`;
const listPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;
const groupCounter = (companyId: number, locationId: number) => locationCounter(companyId, locationId, 'BGROUP');

function item(companyId: number, g: BookingGroup) {
  return {
    ...key(companyId, g.locationId, g.id),
    gsi1pk: listPartition(companyId),
    gsi1sk: `${listPrefix(g.locationId)}${nameSortKey(g.name)}#${g.id}`,
    entity: 'BGROUP',
    companyId,
    ...g,
  };
}

const changedConcurrently = () => conflict('The booking group was changed by another request; read it again and retry');

/** Each table records the groups that include it, so that a table in a group cannot be deleted. */
const membership = (companyId: number, g: BookingGroup, tableIds: string[], change: 'add' | 'remove', missing: MissingTable): Step[] =>
  tableIds.map((tableId) => groupMembershipStep(companyId, g.locationId, tableId, g.id, change, () => missing(tableId)));

export const bookingGroups = {
  async get(companyId: number, locationId: number, id: string): Promise<BookingGroup | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, locationId, id) }));
      return out.Item ? toGroup(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The location's groups by name: one Query per page. */
  list(companyId: number, locationId: number, page: PageRequest): Promise<Page<BookingGroup>> {
    return listPage(
      { index: 'gsi1', partition: listPartition(companyId), prefix: listPrefix(locationId), counter: groupCounter(companyId, locationId) },
      page,
      toGroup,
    );
  },

  /** Adds the group; every one of its tables must exist at the location (else `missing`). */
  async create(companyId: number, g: BookingGroup, missing: MissingTable, event: DomainEvent): Promise<void> {
    await transact([
      locationExistsStep(companyId, g.locationId),
      { item: { Put: { TableName: tableName(), Item: item(companyId, g), ConditionExpression: 'attribute_not_exists(pk)' } } },
      counterStep(groupCounter(companyId, g.locationId), 1),
      ...membership(companyId, g, g.tableIds, 'add', missing),
      outboxStep(event),
    ]);
  },

  /** Replaces the group if nobody changed it since `prev` was read; tables that join must exist (else `missing`). */
  async update(companyId: number, prev: BookingGroup, next: BookingGroup, missing: MissingTable, event: DomainEvent): Promise<void> {
    const joined = next.tableIds.filter((id) => !prev.tableIds.includes(id));
    const left = prev.tableIds.filter((id) => !next.tableIds.includes(id));
    await transact([
      versionedPutStep(item(companyId, next), prev.version, 'booking group'),
      ...membership(companyId, next, joined, 'add', missing),
      ...membership(companyId, next, left, 'remove', changedConcurrently),
      outboxStep(event),
    ]);
  },

  /** Deletes the group as read; its tables forget it. */
  async remove(companyId: number, g: BookingGroup, event: DomainEvent): Promise<void> {
    await transact([
      {
        item: {
          Delete: { TableName: tableName(), Key: key(companyId, g.locationId, g.id), ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': g.version } },
        },
        onConditionFailed: changedConcurrently,
      },
      counterStep(groupCounter(companyId, g.locationId), -1),
      ...membership(companyId, g, g.tableIds, 'remove', changedConcurrently),
      outboxStep(event),
    ]);
  },
};
