import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { conflict, notFound, validationFailed } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { Page } from '../page';
import type { WeekHours } from '../schemas/locations';
import { getItems } from './batch';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { counterStep, listPage, type PageRequest } from './paging';
import { outboxStep, transact, versionedPutStep, type Step } from './transact';

export interface Location {
  id: number;
  name: string;
  timezone: string;
  /** Every weekday; a closed day is []. */
  operatingHours: WeekHours;
  address: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const fields = ['id', 'name', 'timezone', 'operatingHours', 'address', 'phone', 'version', 'createdAt', 'updatedAt'] as const;
const toLocation = (i: Record<string, unknown>) => pick<Location>(i, fields);

const key = (companyId: number, locationId: number) => ({ pk: keys.company(companyId), sk: `LOCATION#${keys.pad(locationId)}` });
const listPartition = (companyId: number) => `${keys.company(companyId)}#LOCATIONS`;
const counter = (companyId: number) => ({ pk: keys.company(companyId), sk: 'COUNT#LOCATION' });

/** What a location holds, each kind counted per location (the list totals of its collection). */
export type LocationContent = 'TABLE' | 'BGROUP' | 'COURSING';
const contentNames: Record<LocationContent, string> = { TABLE: 'tables', BGROUP: 'booking groups', COURSING: 'coursings' };

/** The counter item of one kind of content of a location. The location is deleted only when all are zero. */
export const locationCounter = (companyId: number, locationId: number, kind: LocationContent) => ({
  pk: keys.company(companyId),
  sk: `COUNT#${kind}#L#${keys.pad(locationId)}`,
});

function item(companyId: number, l: Location) {
  return { ...key(companyId, l.id), gsi1pk: listPartition(companyId), gsi1sk: keys.pad(l.id), entity: 'LOCATION', companyId, ...l };
}

/** The cursor of a list of chosen ids: the page it continues at (the ids come from the credential, not the cursor). */
const encodeIdsCursor = (page: number) => Buffer.from(JSON.stringify({ ids: page })).toString('base64url');
function decodeIdsCursor(cursor: string): number {
  let page: unknown;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    page = Object.keys(parsed).length === 1 ? parsed.ids : undefined;
  } catch {
    page = undefined;
  }
  if (!Number.isInteger(page) || (page as number) < 1) throw validationFailed('Invalid cursor', [{ path: '/cursor', message: 'is not a cursor of this list' }]);
  return page as number;
}

export const locations = {
  async get(companyId: number, locationId: number): Promise<Location | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, locationId) }));
      return out.Item ? toLocation(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The company's locations by id: one Query per page. */
  list(companyId: number, page: PageRequest): Promise<Page<Location>> {
    return listPage({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page, toLocation);
  },

  /**
   * The locations among `ids` that the company has, by id, paged in memory: a credential limited
   * to some locations lists these, read with one BatchGetItem per 100 ids.
   */
  async listByIds(companyId: number, ids: readonly number[], req: PageRequest): Promise<Page<Location>> {
    const page = req.cursor ? decodeIdsCursor(req.cursor) : req.page;
    const found = (await getItems([...new Set(ids)].map((id) => key(companyId, id)))).map(toLocation).sort((a, b) => a.id - b.id);
    const more = page * req.limit < found.length;
    return new Page(found.slice((page - 1) * req.limit, page * req.limit), {
      page,
      limit: req.limit,
      total: found.length,
      totalPages: Math.ceil(found.length / req.limit),
      nextCursor: more ? encodeIdsCursor(page + 1) : null,
    });
  },

  async create(companyId: number, l: Location, event: DomainEvent): Promise<void> {
    await transact([
      {
        item: { Put: { TableName: tableName(), Item: item(companyId, l), ConditionExpression: 'attribute_not_exists(pk)' } },
        onConditionFailed: () => conflict(`Location ${l.id} already exists`),
      },
      counterStep(counter(companyId), 1),
      outboxStep(event),
    ]);
  },

  /** Replaces the location if nobody changed it since `expectedVersion` was read; writes every event given. */
  async update(companyId: number, next: Location, expectedVersion: number, events: DomainEvent[]): Promise<void> {
    await transact([
      versionedPutStep(item(companyId, next), expectedVersion, 'location'),
      ...events.map(outboxStep),
    ]);
  },

  /**
   * Deletes the location as it was read, only while it holds no tables, booking groups or
   * coursings: each content counter must be zero, and goes with the location.
   */
  async remove(companyId: number, l: Location, event: DomainEvent): Promise<void> {
    const emptyContent = (kind: LocationContent): Step => ({
      item: {
        Delete: {
          TableName: tableName(),
          Key: locationCounter(companyId, l.id, kind),
          ConditionExpression: 'attribute_not_exists(n) OR n = :zero',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      onConditionFailed: () => conflict(`Location ${l.id} still has ${contentNames[kind]}; delete them first`),
    });
    await transact([
      emptyContent('TABLE'),
      emptyContent('BGROUP'),
      emptyContent('COURSING'),
      {
        item: {
          Delete: {
            TableName: tableName(),
            Key: key(companyId, l.id),
            ConditionExpression: 'version = :v',
            ExpressionAttributeValues: { ':v': l.version },
          },
        },
        onConditionFailed: () => conflict('The location was changed by another request; read it again and retry'),
      },
      counterStep(counter(companyId), -1),
      outboxStep(event),
    ]);
  },
};

/** A transaction step that holds only if the location exists in the company (else 404). */
export function locationExistsStep(companyId: number, locationId: number): Step {
  return {
    item: { ConditionCheck: { TableName: tableName(), Key: key(companyId, locationId), ConditionExpression: 'attribute_exists(pk)' } },
    onConditionFailed: () => notFound(`Location ${locationId}`),
  };
}
