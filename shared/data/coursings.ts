import type { Static } from '@sinclair/typebox';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { CoursingView } from '../schemas/coursings';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationCounter, locationEntity } from './locations';
import { outboxStep } from './outbox';
import { counterStep, type PageRequest } from './paging';
import { transact } from './transact';

/** A coursing as stored and shown: its view schema is the one declaration. */
export type Coursing = Static<typeof CoursingView>;

const listPartition = (companyId: number) => `${keys.company(companyId)}#COURSINGS`;
const locationPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;

/** A coursing: in its company's partition; listed (gsi1) by location, then display order, then id. */
export const coursingEntity = defineEntity({
  name: 'COURSING',
  label: 'coursing',
  schema: CoursingView,
  key: (companyId: number, id: string) => companyKey(companyId, `COURSING#${id}`),
  keyOf: (companyId, c) => [companyId, c.id] as const,
  indexes: (companyId, c) => ({
    gsi1pk: listPartition(companyId),
    gsi1sk: `${locationPrefix(c.locationId)}${keys.sortableDecimal(c.order)}#${c.id}`,
  }),
});

/** The per-location counter is the location's (a location is deleted only while it holds no coursings). */
const counter = (companyId: number, locationId?: number) =>
  locationId === undefined
    ? companyKey(companyId, 'COUNT#COURSING')
    : locationCounter(companyId, locationId, 'COURSING');

export const coursings = {
  get: coursingEntity.get,

  list(companyId: number, locationId: number | undefined, page: PageRequest): Promise<Page<Coursing>> {
    return coursingEntity.list(
      {
        index: 'gsi1',
        partition: listPartition(companyId),
        ...(locationId === undefined ? {} : { prefix: locationPrefix(locationId) }),
        counter: counter(companyId, locationId),
      },
      page,
    );
  },

  /** Adds the coursing, its counters and its event at once; the location must exist in the company. */
  async create(companyId: number, c: Coursing, event: DomainEvent): Promise<void> {
    await transact([
      locationEntity.existsStep([companyId, c.locationId]),
      coursingEntity.newItemStep(companyId, c),
      counterStep(counter(companyId), 1),
      counterStep(counter(companyId, c.locationId), 1),
      outboxStep(event),
    ]);
  },

  /** Replaces the coursing if nobody changed it since `expectedVersion` was read. */
  async update(companyId: number, next: Coursing, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([coursingEntity.versionedPutStep(companyId, next, expectedVersion), outboxStep(event)]);
  },
};
