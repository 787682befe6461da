import { conflict, notFound, validationFailed } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { Page } from '../page';
import type { WeekHours } from '../schemas/locations';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { counterStep, type PageRequest } from './paging';
import { deleteStep, transact, type Step } from './transact';

export interface Location {
  id: number;
  name: string;
  timezone: string;
  /** Every weekday; a closed day is []. */
  operatingHours: WeekHours;
  address: string | null;
  phone: string | null;
  /**
   * ISO 3166-1 alpha-2, or null: local phone numbers given at the location are read in it. Always
   * written; absent only on a location stored before the field existed (read as null).
   */
  country?: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

const listPartition = (companyId: number) => `${keys.company(companyId)}#LOCATIONS`;
const counter = (companyId: number) => companyKey(companyId, 'COUNT#LOCATION');

/** A location: in its company's partition; listed (gsi1) by id. */
export const locationEntity = defineEntity({
  name: 'LOCATION',
  label: 'location',
  key: (companyId: number, locationId: number) => companyKey(companyId, `LOCATION#${keys.pad(locationId)}`),
  keyOf: (companyId, l: Location) => [companyId, l.id] as const,
  fields: ['id', 'name', 'timezone', 'operatingHours', 'address', 'phone', 'country', 'version', 'createdAt', 'updatedAt'],
  indexes: (companyId, l) => ({ gsi1pk: listPartition(companyId), gsi1sk: keys.pad(l.id) }),
});

/** What a location holds, each kind counted per location (the list totals of its collection). */
export type LocationContent = 'TABLE' | 'BGROUP' | 'COURSING' | 'CAPSET';
const contentNames: Record<LocationContent, string> = { TABLE: 'tables', BGROUP: 'booking groups', COURSING: 'coursings', CAPSET: 'capacity settings' };

/** The counter item of one kind of content of a location. The location is deleted only when all are zero. */
export const locationCounter = (companyId: number, locationId: number, kind: LocationContent) => companyKey(companyId, `COUNT#${kind}#L#${keys.pad(locationId)}`);

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
  get: locationEntity.get,

  /** The company's locations by id: one Query per page. */
  list(companyId: number, page: PageRequest): Promise<Page<Location>> {
    return locationEntity.list({ index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) }, page);
  },

  /**
   * The locations among `ids` that the company has, by id, paged in memory: a credential limited
   * to some locations lists these, read with one BatchGetItem per 100 ids.
   */
  async listByIds(companyId: number, ids: readonly number[], req: PageRequest): Promise<Page<Location>> {
    const page = req.cursor ? decodeIdsCursor(req.cursor) : req.page;
    const found = (await locationEntity.getMany([...new Set(ids)].map((id) => [companyId, id] as [number, number]))).sort((a, b) => a.id - b.id);
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
    await transact([locationEntity.newItemStep(companyId, l, () => conflict(`Location ${l.id} already exists`)), counterStep(counter(companyId), 1), outboxStep(event)]);
  },

  /** Replaces the location if nobody changed it since `expectedVersion` was read; writes every event given. */
  async update(companyId: number, next: Location, expectedVersion: number, events: DomainEvent[]): Promise<void> {
    await transact([locationEntity.versionedPutStep(companyId, next, expectedVersion), ...events.map(outboxStep)]);
  },

  /**
   * Deletes the location as it was read, only while it holds no tables, booking groups,
   * coursings or capacity settings: each content counter must be zero, and goes with the location.
   */
  async remove(companyId: number, l: Location, event: DomainEvent): Promise<void> {
    const emptyContent = (kind: LocationContent): Step =>
      deleteStep(locationCounter(companyId, l.id, kind), { expression: 'attribute_not_exists(n) OR n = :zero', values: { ':zero': 0 } }, () =>
        conflict(`Location ${l.id} still has ${contentNames[kind]}; delete them first`),
      );
    await transact([
      emptyContent('TABLE'),
      emptyContent('BGROUP'),
      emptyContent('COURSING'),
      emptyContent('CAPSET'),
      locationEntity.versionedDeleteStep(companyId, l),
      counterStep(counter(companyId), -1),
      outboxStep(event),
    ]);
  },
};

/** A transaction step that holds only if the location exists in the company (else 404). */
export const locationExistsStep = (companyId: number, locationId: number): Step => locationEntity.existsStep([companyId, locationId], () => notFound(`Location ${locationId}`));
