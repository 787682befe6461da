/**
 * A company's resources listed by location and by one more dimension (an item's category, a
 * variant group's type), each list counted:
 *
 *   gsi1 C#<cid>#<NAME>S / L#<locationId:12>#<id:12>                all, or one location's (prefix)
 *   gsi2 C#<cid>#<NAME>S#<DIM>#<value> / L#<locationId:12>#<id:12>   one value, or one value at a location
 *
 * Four counters follow each resource (the company's, the location's content counter, the value's,
 * the value's at the location), moved in the transaction that adds, moves or removes it. A
 * resource without index keys (a soft-deleted one) is in no list.
 */
import type { Page } from '../page';
import type { ItemKey } from './batch';
import { companyKey, type Entity } from './entity';
import { keys } from './keys';
import { locationCounter, type LocationContent } from './locations';
import { counterStep, logPage, queryAll, readLog, type PageRequest, type QuerySpan } from './paging';
import type { Condition, Step } from './transact';

/** Where a resource is listed: its location, its value of the dimension, its id. */
export interface Placement {
  locationId: number;
  value: string;
  id: number;
}

/** Which part of the lists to read: a location, a value of the dimension, both or neither. */
export interface ListFilter {
  locationId?: number | undefined;
  value?: string | undefined;
}

export function locatedLists(name: string, dim: string, content: LocationContent) {
  const all = (companyId: number) => `${keys.company(companyId)}#${name}S`;
  const ofValue = (companyId: number, value: string) => `${all(companyId)}#${dim}#${value}`;
  const locationPrefix = (locationId: number) => `L#${keys.pad(locationId)}#`;
  const sortKey = (p: Placement) => `${locationPrefix(p.locationId)}${keys.pad(p.id)}`;

  const counter = (companyId: number, f: ListFilter): ItemKey => {
    if (f.value === undefined)
      return f.locationId === undefined
        ? companyKey(companyId, `COUNT#${name}`)
        : locationCounter(companyId, f.locationId, content);
    return companyKey(
      companyId,
      `COUNT#${name}#${dim}#${f.value}${f.locationId === undefined ? '' : `#L#${keys.pad(f.locationId)}`}`,
    );
  };
  /** The counters of the company and the location (0, 1), then of the value (2, 3). */
  const countersOf = (companyId: number, p: Placement) => [
    counter(companyId, {}),
    counter(companyId, { locationId: p.locationId }),
    counter(companyId, { value: p.value }),
    counter(companyId, { value: p.value, locationId: p.locationId }),
  ];
  const span = (companyId: number, f: ListFilter) => ({
    index: f.value === undefined ? ('gsi1' as const) : ('gsi2' as const),
    partition: f.value === undefined ? all(companyId) : ofValue(companyId, f.value),
    prefix: f.locationId === undefined ? undefined : locationPrefix(f.locationId),
  });
  const querySpan = (companyId: number, f: ListFilter, filter?: Condition): QuerySpan => {
    const { index, partition, prefix } = span(companyId, f);
    return {
      index,
      partition,
      ...(prefix ? { range: { op: 'begins_with', value: prefix } } : {}),
      ...(filter ? { filter } : {}),
    };
  };

  return {
    /** The index keys of a listed resource. */
    indexes: (companyId: number, p: Placement) => ({
      gsi1pk: all(companyId),
      gsi1sk: sortKey(p),
      gsi2pk: ofValue(companyId, p.value),
      gsi2sk: sortKey(p),
    }),

    /** Counter moves of a resource entering (+1) or leaving (−1) the lists. */
    counted: (companyId: number, p: Placement, delta: number): Step[] =>
      countersOf(companyId, p).map((c) => counterStep(c, delta)),

    /** Counter moves of a resource that changes its value of the dimension (none when it keeps it). */
    moved: (companyId: number, prev: Placement, next: Placement): Step[] =>
      prev.value === next.value
        ? []
        : [
            ...countersOf(companyId, prev)
              .slice(2)
              .map((c) => counterStep(c, -1)),
            ...countersOf(companyId, next)
              .slice(2)
              .map((c) => counterStep(c, 1)),
          ],

    /**
     * One page, by location then id: one Query per page (and the counter's GetItem beside it).
     * With `filter` the list is not counted: a page may be short with a cursor going on, and
     * `total` counts what was listed up to the page (plus one while more may follow).
     */
    async list<T>(
      entity: Entity<T, [number, number]>,
      companyId: number,
      f: ListFilter,
      page: PageRequest,
      filter?: Condition,
    ): Promise<Page<T>> {
      const { index, partition, prefix } = span(companyId, f);
      if (!filter)
        return entity.list({ index, partition, ...(prefix ? { prefix } : {}), counter: counter(companyId, f) }, page);
      return logPage(await readLog(querySpan(companyId, f, filter), page), entity.from);
    },

    /**
     * Every listed resource of the filter, by location then id, for a collection known to be small
     * (one entity's schedules at a location): one Query; more than `max` is TooMany (422).
     */
    async all<T>(entity: Entity<T, [number, number]>, companyId: number, f: ListFilter, max: number): Promise<T[]> {
      return (await queryAll(querySpan(companyId, f), max)).map(entity.from);
    },
  };
}
