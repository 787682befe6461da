import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../page';
import type { DomainEvent } from '../events/catalog';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { locationCounter, locationExistsStep } from './locations';
import { counterStep, listPage, type Collection, type PageRequest } from './paging';
import { outboxStep, transact, versionedPutStep } from './transact';

export interface Coursing {
  id: string;
  locationId: number;
  title: string;
  order: number;
  color: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

const fields = ['id', 'locationId', 'title', 'order', 'color', 'version', 'createdAt', 'updatedAt'] as const;
const toCoursing = (i: Record<string, unknown>) => pick<Coursing>(i, fields);

const sk = (id: string) => `COURSING#${id}`;
const listPartition = (companyId: number) => `${keys.company(companyId)}#COURSINGS`;
const locationPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;
/** Sorted by location, then display order, then id. */
const listSortKey = (c: Coursing) => `${locationPrefix(c.locationId)}${keys.sortableDecimal(c.order)}#${c.id}`;

/** The per-location counter is the location's (a location is deleted only while it holds no coursings). */
const counters = (companyId: number, locationId?: number) =>
  locationId === undefined ? { pk: keys.company(companyId), sk: 'COUNT#COURSING' } : locationCounter(companyId, locationId, 'COURSING');

function item(companyId: number, c: Coursing) {
  return { pk: keys.company(companyId), sk: sk(c.id), gsi1pk: listPartition(companyId), gsi1sk: listSortKey(c), entity: 'COURSING', companyId, ...c };
}

export const coursings = {
  async get(companyId: number, id: string): Promise<Coursing | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: keys.company(companyId), sk: sk(id) } }));
      return out.Item ? toCoursing(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  list(companyId: number, locationId: number | undefined, page: PageRequest): Promise<Page<Coursing>> {
    const collection: Collection = {
      index: 'gsi1',
      partition: listPartition(companyId),
      ...(locationId === undefined ? {} : { prefix: locationPrefix(locationId) }),
      counter: counters(companyId, locationId),
    };
    return listPage(collection, page, toCoursing);
  },

  /** Adds the coursing, its counters and its event at once; the location must exist in the company. */
  async create(companyId: number, c: Coursing, event: DomainEvent): Promise<void> {
    await transact([
      locationExistsStep(companyId, c.locationId),
      { item: { Put: { TableName: tableName(), Item: item(companyId, c), ConditionExpression: 'attribute_not_exists(pk)' } } },
      counterStep(counters(companyId), 1),
      counterStep(counters(companyId, c.locationId), 1),
      outboxStep(event),
    ]);
  },

  /** Replaces the coursing if nobody changed it since `expectedVersion` was read. */
  async update(companyId: number, next: Coursing, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([
      versionedPutStep(item(companyId, next), expectedVersion, 'coursing'),
      outboxStep(event),
    ]);
  },
};
