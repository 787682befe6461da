/**
 * Schedules with their rules embedded (docs/schedules.md):
 *
 *   schedule  C#<cid> / SCHED#<id:12>      lists of locatedLists('SCHED', 'E'): by location, and by
 *             entity (the dimension's value is `<entityType>#<entityId>`)
 *   rule      C#<cid> / SRULE#<id:12>      { ruleId, scheduleId }: where a rule lives
 *
 * A schedule holds its rules (at most MAX_RULES), so every change of a schedule or of one of its
 * rules is one versioned write of the schedule: replacing every rule racing an added rule leaves
 * one of the two whole outcomes, never a mix. One entity's schedules at a location are one gsi2
 * partition range, so the availability check is one Query. A soft-deleted schedule keeps its item
 * (with `deletedAt`) but loses its index keys and its counts: it is in no list and no check.
 */
import { Type, type Static } from '../schemas/typebox';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { Nullable } from '../schemas/common';
import { ScheduleRuleView, ScheduleView, type EntityType } from '../schemas/schedules';
import { Instant } from '../schemas/views';
import { companyKey, defineEntity, extendView } from './entity';
import { keys } from './keys';
import { locatedLists } from './locatedLists';
import { locationEntity } from './locations';
import { outboxStep } from './outbox';
import type { PageRequest } from './paging';
import { deleteStep, equalsAll, transact, type Condition } from './transact';

/** A rule as stored (in its schedule) and shown: declared by ScheduleRuleView. */
export type ScheduleRule = Static<typeof ScheduleRuleView>;

/** A schedule as stored: as shown (its rules in the order they were given or added), and `deletedAt`, set when soft deleted. */
const StoredSchedule = extendView(ScheduleView, { deletedAt: Nullable(Instant) });
export type Schedule = Static<typeof StoredSchedule>;

/** Where a rule lives: its schedule. */
const RuleRef = Type.Object({ ruleId: Type.Integer(), scheduleId: Type.Integer() });
type RuleRef = Static<typeof RuleRef>;

/** At most this many schedules of one entity at one location are read by an availability check (more: 422). */
const MAX_SCHEDULES_PER_ENTITY = 200;

const lists = locatedLists('SCHED', 'E', 'SCHED');
const entityValue = (entityType: EntityType, entityId: string) => `${entityType}#${entityId}`;
const placement = (s: Schedule) => ({
  locationId: s.locationId,
  value: entityValue(s.entityType, s.entityId),
  id: s.id,
});

export const scheduleEntity = defineEntity({
  name: 'SCHEDULE',
  label: 'schedule',
  key: (companyId: number, id: number) => companyKey(companyId, `SCHED#${keys.pad(id)}`),
  schema: StoredSchedule,
  keyOf: (companyId, s) => [companyId, s.id] as const,
  indexes: (companyId, s) => (s.deletedAt === null ? lists.indexes(companyId, placement(s)) : {}),
});

const ruleRefEntity = defineEntity({
  name: 'SCHEDULE_RULE_REF',
  label: 'schedule rule',
  key: (companyId: number, ruleId: number) => companyKey(companyId, `SRULE#${keys.pad(ruleId)}`),
  schema: RuleRef,
  keyOf: (companyId, r) => [companyId, r.ruleId] as const,
});

export interface ScheduleFilter {
  locationId?: number | undefined;
  entityType?: EntityType | undefined;
  /** Only with `entityType`. */
  entityId?: string | undefined;
  isActive?: boolean | undefined;
}

/** The Query filter of a list: the entity type when no entity id narrows the partition, and isActive. */
function listFilter(f: ScheduleFilter): Condition | undefined {
  // entityType alone is a filter; with entityId it is part of the index's key.
  return equalsAll({ entityType: f.entityId === undefined ? f.entityType : undefined, isActive: f.isActive });
}

const refOf = (r: ScheduleRule): RuleRef => ({ ruleId: r.id, scheduleId: r.scheduleId });

export const schedules = {
  get: scheduleEntity.get,

  /** The schedule that holds the rule (also a soft-deleted one), or undefined: two reads, the rule's then its schedule's. */
  async ofRule(companyId: number, ruleId: number): Promise<Schedule | undefined> {
    const ref = await ruleRefEntity.get(companyId, ruleId);
    return ref && scheduleEntity.get(companyId, ref.scheduleId);
  },

  /**
   * Live schedules, by location then id: one Query per page. Narrowed to one entity (type and id)
   * it reads that entity's partition; a type alone or `isActive` are a filter of the Query (the
   * page may then be short, with a cursor going on, and is not counted).
   */
  list(companyId: number, f: ScheduleFilter, page: PageRequest): Promise<Page<Schedule>> {
    const value =
      f.entityType !== undefined && f.entityId !== undefined ? entityValue(f.entityType, f.entityId) : undefined;
    return lists.list(scheduleEntity, companyId, { locationId: f.locationId, value }, page, listFilter(f));
  },

  /** Every live schedule of one entity at a location, with its rules: one Query (at most MAX_SCHEDULES_PER_ENTITY). */
  ofEntity(companyId: number, locationId: number, entityType: EntityType, entityId: string): Promise<Schedule[]> {
    return lists.all(
      scheduleEntity,
      companyId,
      { locationId, value: entityValue(entityType, entityId) },
      MAX_SCHEDULES_PER_ENTITY,
    );
  },

  /** Adds the schedule with its rules (their refs), its counters and its events at once; the location must exist. */
  async create(companyId: number, s: Schedule, events: DomainEvent[]): Promise<void> {
    await transact([
      locationEntity.existsStep([companyId, s.locationId]),
      scheduleEntity.newItemStep(companyId, s),
      ...s.rules.map((r) => ruleRefEntity.newItemStep(companyId, refOf(r))),
      ...lists.counted(companyId, placement(s), 1),
      ...events.map(outboxStep),
    ]);
  },

  /**
   * Replaces the schedule (its rules with it) if nobody changed it since `prev` was read, with the
   * refs of rules that are new and of rules that are gone, and the events. A schedule soft deleted
   * here leaves its lists (its rule refs stay, and lead to a deleted schedule: 404).
   * At most 1 + 2 × MAX_RULES + the events' steps: 83 for a replacement of 40 rules by 40.
   */
  async update(companyId: number, prev: Schedule, next: Schedule, events: DomainEvent[]): Promise<void> {
    const before = new Set(prev.rules.map((r) => r.id));
    const after = new Set(next.rules.map((r) => r.id));
    const deleted = prev.deletedAt === null && next.deletedAt !== null;
    await transact([
      scheduleEntity.versionedPutStep(companyId, next, prev.version),
      ...next.rules.filter((r) => !before.has(r.id)).map((r) => ruleRefEntity.newItemStep(companyId, refOf(r))),
      ...(deleted
        ? []
        : prev.rules.filter((r) => !after.has(r.id)).map((r) => deleteStep(ruleRefEntity.key(companyId, r.id)))),
      ...(deleted ? lists.counted(companyId, placement(prev), -1) : []),
      ...events.map(outboxStep),
    ]);
  },
};
