import { bookingsAround } from './bookingsAround';
import { conflict, notFound } from '../errors';
import { getItems } from './batch';
import type { DomainEvent } from '../events/catalog';
import { pageInMemory, type Page } from '../page';
import type { Static } from '@sinclair/typebox';
import { LocationView } from '../schemas/locations';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { layoutToken } from './layout';
import { outboxStep, eventLogLocationStep } from './outbox';
import { counterStep, type PageRequest } from './paging';
import { deleteStep, transact, type Step } from './transact';

/**
 * A location as stored and shown: declared by LocationView. Its `country` (ISO 3166-1 alpha-2, or
 * null) is where local phone numbers given at the location are read; always written, absent only
 * on a location stored before the field existed (read as null).
 */
export type Location = Static<typeof LocationView>;

const listPartition = (companyId: number) => `${keys.company(companyId)}#LOCATIONS`;
const counter = (companyId: number) => companyKey(companyId, 'COUNT#LOCATION');

/** A location: in its company's partition; listed (gsi1) by id. */
export const locationEntity = defineEntity({
  name: 'LOCATION',
  label: 'location',
  key: (companyId: number, locationId: number) => companyKey(companyId, `LOCATION#${keys.pad(locationId)}`),
  schema: LocationView,
  keyOf: (companyId, l) => [companyId, l.id] as const,
  indexes: (companyId, l) => ({ gsi1pk: listPartition(companyId), gsi1sk: keys.pad(l.id) }),
});

/**
 * What a location holds, each kind counted per location: the list totals of its collections, and
 * (BOOKING) the bookings without a table that still use the location (active, or with an open tab:
 * bookings with tables are counted on their tables, which the location must not have either).
 */
export type LocationContent =
  | 'TABLE'
  | 'BGROUP'
  | 'COURSING'
  | 'CAPSET'
  | 'ITEM'
  | 'VGROUP'
  | 'SCHED'
  | 'BOOKING'
  | 'PRINTERGROUP'
  | 'TERMINAL';
export const locationContents: readonly LocationContent[] = [
  'TABLE',
  'BGROUP',
  'COURSING',
  'CAPSET',
  'ITEM',
  'VGROUP',
  'SCHED',
  'BOOKING',
  'PRINTERGROUP',
  'TERMINAL',
];
export const contentNames: Record<LocationContent, string> = {
  TABLE: 'tables',
  BGROUP: 'booking groups',
  COURSING: 'coursings',
  CAPSET: 'capacity settings',
  ITEM: 'items',
  VGROUP: 'variant groups',
  SCHED: 'schedules',
  BOOKING: 'bookings without a table that use it',
  PRINTERGROUP: 'printer groups',
  TERMINAL: 'terminals',
};

/** The counter item of one kind of content of a location. The location is deleted only when all are zero. */
export const locationCounter = (companyId: number, locationId: number, kind: LocationContent) =>
  companyKey(companyId, `COUNT#${kind}#L#${keys.pad(locationId)}`);

export const locations = {
  get: locationEntity.get,
  /** A read of the location, to send with others in one round trip. */
  read: locationEntity.read,

  /** The company's locations by id: one Query per page. */
  list(companyId: number, page: PageRequest): Promise<Page<Location>> {
    return locationEntity.list(
      { index: 'gsi1', partition: listPartition(companyId), counter: counter(companyId) },
      page,
    );
  },

  /**
   * The locations among `ids` that the company has, by id, paged in memory: a credential limited
   * to some locations lists these, read with one BatchGetItem per 100 ids.
   */
  async listByIds(companyId: number, ids: readonly number[], req: PageRequest): Promise<Page<Location>> {
    const found = (
      await locationEntity.getMany([...new Set(ids)].map((id) => [companyId, id] as [number, number]))
    ).sort((a, b) => a.id - b.id);
    return pageInMemory(found, req, 'locations-by-id', (l) => l.id);
  },

  async create(companyId: number, l: Location, event: DomainEvent): Promise<void> {
    await transact([
      locationEntity.newItemStep(companyId, l, () => conflict(`Location ${l.id} already exists`)),
      counterStep(counter(companyId), 1),
      // A new location has no bookings: its buckets of bookings around a date are whole from the start.
      bookingsAround.markerStep(companyId, l.id),
      layoutToken.changedStep(companyId, l.id),
      eventLogLocationStep(companyId, l.id),
      outboxStep(event),
    ]);
  },

  /** Replaces the location if nobody changed it since `expectedVersion` was read; writes every event given. */
  async update(companyId: number, next: Location, expectedVersion: number, events: DomainEvent[]): Promise<void> {
    await transact([
      locationEntity.versionedPutStep(companyId, next, expectedVersion),
      layoutToken.changedStep(companyId, next.id),
      ...events.map(outboxStep),
    ]);
  },

  /** How much of each kind of content the location has (absent counters as 0): one BatchGetItem. */
  async contents(companyId: number, locationId: number): Promise<Record<LocationContent, number>> {
    const keys = locationContents.map((kind) => locationCounter(companyId, locationId, kind));
    const found = new Map((await getItems(keys)).map((i) => [i.sk, Number(i.n ?? 0)]));
    return Object.fromEntries(
      locationContents.map((kind, i) => [kind, Math.max(found.get(keys[i]!.sk) ?? 0, 0)]),
    ) as Record<LocationContent, number>;
  },

  /**
   * Deletes the location as it was read, only while it holds no tables, booking groups,
   * coursings, capacity settings, items, variant groups or schedules and no booking without a table uses it: each content counter must be zero, and goes
   * with the location.
   */
  async remove(companyId: number, l: Location, event: DomainEvent): Promise<void> {
    const emptyContent = (kind: LocationContent): Step =>
      deleteStep(
        locationCounter(companyId, l.id, kind),
        { expression: 'attribute_not_exists(n) OR n <= :zero', values: { ':zero': 0 } },
        () => conflict(`Location ${l.id} still has ${contentNames[kind]}; delete them first`),
      );
    await transact([
      ...locationContents.map(emptyContent),
      locationEntity.versionedDeleteStep(companyId, l),
      layoutToken.changedStep(companyId, l.id),
      counterStep(counter(companyId), -1),
      // Its events stay in its log for 30 days: the log's readers keep finding it.
      eventLogLocationStep(companyId, l.id),
      outboxStep(event),
    ]);
  },
};

/**
 * A booking without a table starts (+1) or stops (−1) using the location: its count keeps the
 * location from being deleted under it (a booking with tables is counted on its tables instead).
 */
export const tablelessUseStep = (companyId: number, locationId: number, delta: number): Step =>
  counterStep(locationCounter(companyId, locationId, 'BOOKING'), delta);

/** A transaction step that holds only if the location exists in the company (else 404). */
export const locationExistsStep = (companyId: number, locationId: number): Step =>
  locationEntity.existsStep([companyId, locationId], () => notFound(`Location ${locationId}`));
