import type { AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { Static } from '@sinclair/typebox';
import { BookingGroupView } from '../schemas/bookingGroups';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { layoutToken } from './layout';
import { locationCounter, locationExistsStep } from './locations';
import { outboxStep } from './outbox';
import { counterStep, type PageRequest } from './paging';
import { byLocationThenName, groupMembershipStep, listPrefix } from './tables';
import { changedMeanwhile, transact, type Step } from './transact';

/** A pool of a location's tables with its own schedule and booking settings. */
/**
 * A pool of a location's tables with its own schedule (null: the location's operating hours) and
 * booking settings (a subset of the booking settings, docs/bookings.md, that differ from the
 * location's; null: none): declared by BookingGroupView.
 */
export type BookingGroup = Static<typeof BookingGroupView>;

/** The error for a table id the location does not have. */
export type MissingTable = (tableId: string) => AppError;

const listPartition = (companyId: number) => `${keys.company(companyId)}#BGROUPS`;
const groupCounter = (companyId: number, locationId: number) => locationCounter(companyId, locationId, 'BGROUP');

/** A booking group: in its company's partition under its location; listed (gsi1) by location, then name. */
const groupEntity = defineEntity({
  name: 'BGROUP',
  label: 'booking group',
  key: (companyId: number, locationId: number, id: string) =>
    companyKey(companyId, `BGROUP#${keys.pad(locationId)}#${id}`),
  schema: BookingGroupView,
  keyOf: (companyId, g) => [companyId, g.locationId, g.id] as const,
  indexes: (companyId, g) => ({
    gsi1pk: listPartition(companyId),
    gsi1sk: byLocationThenName(g.locationId, g.name, g.id),
  }),
});

const changedConcurrently = changedMeanwhile('booking group');

/** Each table records the groups that include it, so that a table in a group cannot be deleted. */
const membership = (
  companyId: number,
  g: BookingGroup,
  tableIds: string[],
  change: 'add' | 'remove',
  missing: MissingTable,
): Step[] =>
  tableIds.map((tableId) =>
    groupMembershipStep(companyId, g.locationId, tableId, g.id, change, () => missing(tableId)),
  );

export const bookingGroups = {
  get: groupEntity.get,
  /** A read of the group, to send with others in one round trip. */
  read: groupEntity.read,

  /** The location's groups by name: one Query per page. */
  list(companyId: number, locationId: number, page: PageRequest): Promise<Page<BookingGroup>> {
    return groupEntity.list(
      {
        index: 'gsi1',
        partition: listPartition(companyId),
        prefix: listPrefix(locationId),
        counter: groupCounter(companyId, locationId),
      },
      page,
    );
  },

  /** Adds the group; every one of its tables must exist at the location (else `missing`). */
  async create(companyId: number, g: BookingGroup, missing: MissingTable, event: DomainEvent): Promise<void> {
    await transact([
      locationExistsStep(companyId, g.locationId),
      groupEntity.newItemStep(companyId, g),
      layoutToken.changedStep(companyId, g.locationId),
      counterStep(groupCounter(companyId, g.locationId), 1),
      ...membership(companyId, g, g.tableIds, 'add', missing),
      outboxStep(event),
    ]);
  },

  /** Replaces the group if nobody changed it since `prev` was read; tables that join must exist (else `missing`). */
  async update(
    companyId: number,
    prev: BookingGroup,
    next: BookingGroup,
    missing: MissingTable,
    event: DomainEvent,
  ): Promise<void> {
    const joined = next.tableIds.filter((id) => !prev.tableIds.includes(id));
    const left = prev.tableIds.filter((id) => !next.tableIds.includes(id));
    await transact([
      groupEntity.versionedPutStep(companyId, next, prev.version),
      layoutToken.changedStep(companyId, next.locationId),
      ...membership(companyId, next, joined, 'add', missing),
      ...membership(companyId, next, left, 'remove', changedConcurrently),
      outboxStep(event),
    ]);
  },

  /** Deletes the group as read; its tables forget it. */
  async remove(companyId: number, g: BookingGroup, event: DomainEvent): Promise<void> {
    await transact([
      groupEntity.versionedDeleteStep(companyId, g),
      layoutToken.changedStep(companyId, g.locationId),
      counterStep(groupCounter(companyId, g.locationId), -1),
      ...membership(companyId, g, g.tableIds, 'remove', changedConcurrently),
      outboxStep(event),
    ]);
  },
};
