/**
 * Schedules and their rules (docs/schedules.md): when an entity (an item, a variant
 * group, a menu layout, a location's hours) is available. The value lists and bounds live here so
 * the pure availability rule, the data layer and the schemas share them.
 */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, NumericPathId, pageQuery } from './common';
import { displayName } from './locations';
import { Instant, entity, literals, stamps, view } from './views';
import { Prose } from './text';

/**
 * What a schedule is about (docs/schedules.md):
 * - `item`: an inventory item of the schedule's location (entityId its numeric id);
 * - `variant_group`: a live variant group of the location (entityId its numeric id);
 * - `menu_layout`: a menu layout, kept outside this service and named by id only (entityId any id
 *   of 1-64 letters, digits, `-` or `_`);
 * - `location_hours`: the opening hours of the schedule's location (entityId the location's id).
 */
const entityTypes = ['item', 'variant_group', 'menu_layout', 'location_hours'] as const;
export type EntityType = (typeof entityTypes)[number];
export const EntityType = Type.Union(
  entityTypes.map((t) => Type.Literal(t)),
  { description: 'item, variant_group, menu_layout or location_hours (docs/schedules.md)' },
);

/**
 * How a rule names its days (docs/schedules.md):
 * - `weekly`: every week on `weekday` (0 = Sunday … 6 = Saturday);
 * - `date_range`: every day from `startDate` to `endDate`, both included.
 * Either may have a time window (`startTime`-`endTime`, local wall time; end ≤ start runs past
 * midnight into the next day); without one it covers its days whole.
 */
const ruleTypes = ['weekly', 'date_range'] as const;
export type RuleType = (typeof ruleTypes)[number];
export const RuleType = Type.Union(
  ruleTypes.map((t) => Type.Literal(t)),
  { description: 'weekly or date_range (docs/schedules.md)' },
);

/** When a rule applies and what it says, as stored and answered (every field present, null when unset). */
export interface RuleTiming {
  ruleType: RuleType;
  /** 0 = Sunday … 6 = Saturday (weekly rules). */
  weekday: number | null;
  /** HH:MM, local wall time. */
  startTime: string | null;
  endTime: string | null;
  /** YYYY-MM-DD, local dates (date_range rules). */
  startDate: string | null;
  endDate: string | null;
  /** YYYY-MM-DD, both included, bounding the day an occurrence starts. */
  validFrom: string | null;
  validTo: string | null;
  isAvailable: boolean;
}

/** Why an availability check answers what it does (docs/schedules.md "The decision rule"). */
const availabilityReasons = ['rule', 'no_schedules', 'outside_schedule', 'no_exception'] as const;
export type AvailabilityReason = (typeof availabilityReasons)[number];

/** At most this many rules in one schedule: replacing them all stays one transaction (docs/schedules.md). */
export const MAX_RULES = 40;
/** Priorities run from 0 (the default) to this; the higher wins. */
const MAX_PRIORITY = 1000;

/** HH:MM or HH:MM:SS, 00:00-23:59(:59); the seconds are stripped. */
const TIME_PATTERN = '^(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9])?$';
/** YYYY-MM-DD (that the day exists is checked by the domain). */
const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
/** A menu layout's id, or any entity id as a string. */
const ENTITY_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

const time = Type.String({
  pattern: TIME_PATTERN,
  description: 'HH:MM or HH:MM:SS, local wall time (seconds are stripped)',
});
const date = Type.String({ pattern: DATE_PATTERN, description: 'YYYY-MM-DD, local date' });
const entityId = Type.String({
  pattern: ENTITY_ID_PATTERN,
  description:
    'the entity id: a numeric id for item, variant_group, location_hours; 1-64 letters, digits, - or _ for menu_layout',
});
const description = Nullable(Prose(1000, { minLength: 0 }));
const priority = Type.Integer({
  minimum: 0,
  maximum: MAX_PRIORITY,
  description: 'between conflicting schedules the higher wins',
});

const ruleFields = {
  weekday: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday (weekly rules)' })),
  ),
  startTime: Type.Optional(Nullable(time)),
  endTime: Type.Optional(Nullable(time)),
  startDate: Type.Optional(Nullable(date)),
  endDate: Type.Optional(Nullable(date)),
  validFrom: Type.Optional(Nullable(date)),
  validTo: Type.Optional(Nullable(date)),
};

const weekendBrunch = [
  { ruleType: 'weekly', weekday: 6, startTime: '10:00', endTime: '14:00' },
  { ruleType: 'weekly', weekday: 0, startTime: '10:00', endTime: '14:00' },
];
const closedForHolidays = {
  ruleType: 'date_range',
  startDate: '2026-12-24',
  endDate: '2026-12-26',
  isAvailable: false,
};

export const RuleBody = Type.Object(
  { ruleType: RuleType, ...ruleFields, isAvailable: Type.Optional(Type.Boolean({ default: true })) },
  { additionalProperties: false, examples: [closedForHolidays, weekendBrunch[0]] },
);
export const UpdateRuleBody = Type.Object(
  { ruleType: Type.Optional(RuleType), ...ruleFields, isAvailable: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1, examples: [{ startTime: '11:00', endTime: '15:00' }] },
);
const rules = Type.Array(RuleBody, { maxItems: MAX_RULES });

export const CreateScheduleBody = Type.Object(
  {
    locationId: NumericId,
    entityType: EntityType,
    entityId,
    name: displayName(200),
    description: Type.Optional(description),
    isActive: Type.Optional(Type.Boolean()),
    priority: Type.Optional(priority),
    rules: Type.Optional(rules),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        entityType: 'menu_layout',
        entityId: 'brunch',
        name: 'Weekend brunch',
        priority: 10,
        rules: weekendBrunch,
      },
    ],
  },
);

export const UpdateScheduleBody = Type.Object(
  {
    name: Type.Optional(displayName(200)),
    description: Type.Optional(description),
    isActive: Type.Optional(Type.Boolean()),
    priority: Type.Optional(priority),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Weekend brunch (summer)', isActive: false }] },
);

export const ReplaceRulesBody = Type.Object(
  { rules },
  { additionalProperties: false, examples: [{ rules: [...weekendBrunch, closedForHolidays] }] },
);

export const ListSchedulesQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  entityType: Type.Optional(EntityType),
  entityId: Type.Optional(entityId),
  isActive: Type.Optional(Type.Boolean()),
  ...pageQuery(100, 20),
});

export const AvailabilityQuery = Type.Object({
  locationId: NumericId,
  entityType: EntityType,
  entityId,
  checkTime: Type.Optional(
    Type.String({ format: 'date-time', description: 'ISO 8601 with Z or an offset; default now' }),
  ),
});

export const SchedulePath = Type.Object({ id: NumericPathId });
export const ScheduleRulesPath = Type.Object({ scheduleId: NumericPathId });
export const RulePath = Type.Object({ ruleId: NumericPathId });

// ---- Answers ----

const shownTime = Nullable(
  Type.String({ pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, local wall time' }),
);
const shownDate = Nullable(date);

/** A rule as stored and answered: every field present, null when unset. */
export const ScheduleRuleView = entity('ScheduleRule', {
  id: NumericId,
  scheduleId: NumericId,
  locationId: NumericId,
  ruleType: RuleType,
  weekday: Nullable(Type.Integer({ minimum: 0, maximum: 6, description: '0 = Sunday … 6 = Saturday' })),
  startTime: shownTime,
  endTime: shownTime,
  startDate: shownDate,
  endDate: shownDate,
  validFrom: shownDate,
  validTo: shownDate,
  isAvailable: Type.Boolean(),
  createdAt: Instant,
  updatedAt: Instant,
});

/** A schedule with its rules, in the order they were given or added. */
export const ScheduleView = entity('Schedule', {
  id: NumericId,
  locationId: NumericId,
  entityType: EntityType,
  entityId,
  name: Type.String(),
  description,
  isActive: Type.Boolean(),
  priority,
  rules: Type.Array(ScheduleRuleView, { maxItems: MAX_RULES }),
  ...stamps,
});
export const ScheduleListView = Type.Array(ScheduleView);

export const ScheduleAvailabilityView = entity('ScheduleAvailability', {
  entityType: EntityType,
  entityId,
  locationId: NumericId,
  timezone: Type.String(),
  checkTime: Instant,
  isAvailable: Type.Boolean(),
  reason: literals(availabilityReasons),
  decidedBy: Type.Union(
    [view({ scheduleId: NumericId, ruleId: NumericId, priority, isAvailable: Type.Boolean() }), Type.Null()],
    { description: 'the schedule and rule that decided; null when no rule applies' },
  ),
  localTime: Type.String({
    format: 'date-time',
    description: "checkTime as the location's wall time, ISO 8601 with its offset",
  }),
});

export type RuleBody = Static<typeof RuleBody>;
export type UpdateRuleBody = Static<typeof UpdateRuleBody>;
export type CreateScheduleBody = Static<typeof CreateScheduleBody>;
export type UpdateScheduleBody = Static<typeof UpdateScheduleBody>;
export type ReplaceRulesBody = Static<typeof ReplaceRulesBody>;
export type ListSchedulesQuery = Static<typeof ListSchedulesQuery>;
export type AvailabilityQuery = Static<typeof AvailabilityQuery>;
