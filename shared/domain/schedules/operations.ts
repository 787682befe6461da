/**
 * Schedules and their rules (docs/schedules.md): create with rules, update, soft delete,
 * replace every rule at once, add, update and delete one rule, and the availability check. Every
 * change is one versioned write of the schedule (its rules are embedded), with its events, and,
 * when the schedule is about a menu layout or a location's hours, the downstream event
 * (`menu-layouts.updated`, `location.hours.updated`) in the same transaction.
 */
import type { Principal } from '../../auth/principal';
import { nextId } from '../../data/ids';
import { items } from '../../data/items';
import { locations, type Location } from '../../data/locations';
import { schedules, type Schedule, type ScheduleRule } from '../../data/schedules';
import { variantGroups } from '../../data/variantGroups';
import { AppError, notFound, validationFailed, type FieldProblem } from '../../errors';
import { newEvent, type DomainEvent, type EventName } from '../../events/catalog';
import { Page } from '../../page';
import {
  MAX_RULES,
  type AvailabilityQuery,
  type CreateScheduleBody,
  type EntityType,
  type ListSchedulesQuery,
  type ReplaceRulesBody,
  type RuleBody,
  type UpdateRuleBody,
  type UpdateScheduleBody,
} from '../../schemas/schedules';
import { assertLocationAllowed, listedAt, listLocation } from '../access';
import { changedFields } from '../changes';
import { availabilityAt, type Availability } from './availability';
import { normalizedRule, ruleProblems, type RuleFields } from './rules';

/** A schedule as the API shows it (soft-deleted ones are never shown). */
export type ScheduleView = Omit<Schedule, 'deletedAt'>;
const view = ({ deletedAt: _deleted, ...s }: Schedule): ScheduleView => s;

const ruleFieldNames = [
  'ruleType',
  'weekday',
  'startTime',
  'endTime',
  'startDate',
  'endDate',
  'validFrom',
  'validTo',
  'isAvailable',
] as const;

/** A live schedule the caller may reach: 404 for an unknown, another company's or soft-deleted one. */
async function liveSchedule(principal: Principal, id: string): Promise<Schedule> {
  const found = await schedules.get(principal.companyId, Number(id));
  if (!found || found.deletedAt !== null) throw notFound(`Schedule ${id}`);
  assertLocationAllowed(principal, found.locationId);
  return found;
}

/** A rule of a live schedule the caller may reach, with its schedule. */
async function liveRule(principal: Principal, ruleId: string): Promise<{ schedule: Schedule; rule: ScheduleRule }> {
  const schedule = await schedules.ofRule(principal.companyId, Number(ruleId));
  const rule = schedule?.rules.find((r) => r.id === Number(ruleId));
  if (!schedule || !rule || schedule.deletedAt !== null) throw notFound(`Schedule rule ${ruleId}`);
  assertLocationAllowed(principal, schedule.locationId);
  return { schedule, rule };
}

/** The rules given, checked (400 naming `/rules/<i>/<field>`) and numbered, as rules of the schedule. */
async function newRules(
  schedule: Pick<Schedule, 'id' | 'locationId'>,
  bodies: readonly RuleBody[],
  at: string,
  prefix: (i: number) => string,
): Promise<ScheduleRule[]> {
  const fields = bodies.map((b) => normalizedRule(b));
  const problems = fields.flatMap((f, i) => ruleProblems(f, prefix(i)));
  if (problems.length) throw validationFailed('The schedule rule is not valid', problems);
  const out: ScheduleRule[] = [];
  for (const f of fields) out.push(ruleOf(schedule, f, await nextId('schedule-rule'), at));
  return out;
}

const ruleOf = (
  schedule: Pick<Schedule, 'id' | 'locationId'>,
  f: RuleFields,
  id: number,
  at: string,
): ScheduleRule => ({
  id,
  scheduleId: schedule.id,
  locationId: schedule.locationId,
  ...f,
  createdAt: at,
  updatedAt: at,
});

const entityProblem = (message: string): FieldProblem[] => [{ path: '/entityId', message }];

/**
 * The entity must exist where it is a resource of this service: an item or a live variant group of
 * the schedule's location, the location itself for its hours (entityId the location's id). Menu
 * layouts are named by id only. A malformed id is 400, an entity not found at the location 404,
 * both naming `/entityId`. One GetItem at most (none for a menu layout: the create's transaction
 * checks that the location exists). Answers the location when it was read (for its hours).
 */
async function checkedEntity(
  principal: Principal,
  locationId: number,
  entityType: EntityType,
  entityId: string,
): Promise<Location | undefined> {
  if (entityType === 'menu_layout') return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(entityId))
    throw validationFailed('The schedule is not valid', entityProblem(`is a numeric id for ${entityType}`));
  const id = Number(entityId);
  const missing = () =>
    new AppError(
      'NOT_FOUND',
      `No ${entityType} ${entityId} at location ${locationId}`,
      entityProblem(`no ${entityType} with this id at this location`),
    );
  if (entityType === 'location_hours') {
    const location = await locations.get(principal.companyId, locationId);
    if (!location) throw notFound(`Location ${locationId}`);
    if (id !== locationId) throw missing();
    return location;
  }
  const found =
    entityType === 'item'
      ? await items.get(principal.companyId, id)
      : await variantGroups.get(principal.companyId, id).then((g) => (g?.deletedAt === null ? g : undefined));
  if (!found || found.locationId !== locationId) throw missing();
  return undefined;
}

/**
 * The downstream event of a change of a menu layout's or a location's hours schedule:
 * `menu-layouts.updated` (resource `menu-layout`, the layout's id) or `location.hours.updated`
 * (resource `location`, the location's id, with its time zone and weekly hours, as a change of the
 * hours themselves sends it). Both name the schedule and the `cause` (the event that caused it).
 * None for items and variant groups.
 */
async function downstream(
  principal: Principal,
  s: Schedule,
  cause: EventName,
  location?: Location,
): Promise<DomainEvent[]> {
  const about = { scheduleId: s.id, cause };
  if (s.entityType === 'menu_layout')
    return [
      newEvent(principal.companyId, 'menu-layouts.updated', s.entityId, {
        id: s.entityId,
        locationId: s.locationId,
        ...about,
      }),
    ];
  if (s.entityType !== 'location_hours') return [];
  const l = location ?? (await locations.get(principal.companyId, s.locationId));
  if (!l) return [];
  return [
    newEvent(principal.companyId, 'location.hours.updated', String(l.id), {
      id: l.id,
      locationId: l.id,
      timezone: l.timezone,
      operatingHours: l.operatingHours,
      ...about,
    }),
  ];
}

/** Writes the schedule's next version with its own event and the downstream one. */
async function write(principal: Principal, prev: Schedule, next: Schedule, event: DomainEvent): Promise<void> {
  await schedules.update(principal.companyId, prev, next, [
    event,
    ...(await downstream(principal, next, event.payload.event)),
  ]);
}

const bumped = (s: Schedule, at: string, changes: Partial<Schedule>): Schedule => ({
  ...s,
  ...changes,
  version: s.version + 1,
  updatedAt: at,
});

export async function listSchedules(
  principal: Principal,
  query: ListSchedulesQuery,
  headerLocation?: string,
): Promise<Page<ScheduleView>> {
  if (query.entityId !== undefined && query.entityType === undefined)
    throw validationFailed('The query is not valid', [{ path: '/entityId', message: 'needs entityType' }]);
  const locationId = listLocation(principal, query.locationId, headerLocation);
  const filter = { locationId, entityType: query.entityType, entityId: query.entityId, isActive: query.isActive };
  const page = await listedAt(
    principal.companyId,
    locationId,
    await schedules.list(principal.companyId, filter, query),
  );
  return new Page(page.items.map(view), page.pagination);
}

export const getSchedule = async (principal: Principal, id: string): Promise<ScheduleView> =>
  view(await liveSchedule(principal, id));

/** Creates the schedule with its rules (active, priority 0 unless given). `schedule.created` carries it whole. */
export async function createSchedule(principal: Principal, input: CreateScheduleBody): Promise<ScheduleView> {
  assertLocationAllowed(principal, input.locationId);
  const location = await checkedEntity(principal, input.locationId, input.entityType, input.entityId);
  const at = new Date().toISOString();
  const id = await nextId('schedule');
  const base = { id, locationId: input.locationId };
  const schedule: Schedule = {
    ...base,
    entityType: input.entityType,
    entityId: input.entityId,
    name: input.name,
    description: input.description ?? null,
    isActive: input.isActive ?? true,
    priority: input.priority ?? 0,
    rules: await newRules(base, input.rules ?? [], at, (i) => `/rules/${i}`),
    version: 1,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
  };
  const created = newEvent(principal.companyId, 'schedule.created', String(id), { ...view(schedule) });
  await schedules.create(principal.companyId, schedule, [
    created,
    ...(await downstream(principal, schedule, 'schedule.created', location)),
  ]);
  return view(schedule);
}

/** Changes name, description, isActive or priority; an update that changes nothing writes nothing. */
export async function updateSchedule(
  principal: Principal,
  id: string,
  input: UpdateScheduleBody,
): Promise<ScheduleView> {
  const prev = await liveSchedule(principal, id);
  const next = bumped(prev, new Date().toISOString(), input);
  const changes = changedFields(prev, next, ['name', 'description', 'isActive', 'priority']);
  if (Object.keys(changes).length === 0) return view(prev);
  await write(principal, prev, next, newEvent(principal.companyId, 'schedule.updated', id, { ...view(next) }, changes));
  return view(next);
}

/** Soft deletes the schedule: it leaves every list, get and availability check; its rules with it. */
export async function deleteSchedule(principal: Principal, id: string): Promise<ScheduleView> {
  const prev = await liveSchedule(principal, id);
  const at = new Date().toISOString();
  await write(
    principal,
    prev,
    bumped(prev, at, { deletedAt: at }),
    newEvent(principal.companyId, 'schedule.deleted', id, { ...view(prev) }),
  );
  return view(prev);
}

/**
 * Replaces every rule of the schedule by the rules given (none: the schedule then has no rules), in
 * one transaction under the schedule's version: a concurrent change (an added rule) makes one of
 * the two 409. Emits `schedule.updated` with `changes: {rules}` (the whole new list).
 */
export async function replaceScheduleRules(
  principal: Principal,
  scheduleId: string,
  input: ReplaceRulesBody,
): Promise<ScheduleView> {
  const prev = await liveSchedule(principal, scheduleId);
  const at = new Date().toISOString();
  const rules = await newRules(prev, input.rules, at, (i) => `/rules/${i}`);
  const next = bumped(prev, at, { rules });
  await write(
    principal,
    prev,
    next,
    newEvent(principal.companyId, 'schedule.updated', scheduleId, { ...view(next) }, { rules }),
  );
  return view(next);
}

/** Adds one rule to the schedule (at most MAX_RULES: 400 naming `/rules` beyond), under the schedule's version. */
export async function addScheduleRule(
  principal: Principal,
  scheduleId: string,
  input: RuleBody,
): Promise<ScheduleRule> {
  const prev = await liveSchedule(principal, scheduleId);
  if (prev.rules.length >= MAX_RULES)
    throw validationFailed(`A schedule holds at most ${MAX_RULES} rules`, [
      { path: '/rules', message: `the schedule has ${prev.rules.length} rules already; replace them instead` },
    ]);
  const at = new Date().toISOString();
  const [rule] = await newRules(prev, [input], at, () => '');
  await write(
    principal,
    prev,
    bumped(prev, at, { rules: [...prev.rules, rule!] }),
    newEvent(principal.companyId, 'schedule-rule.created', String(rule!.id), { ...rule! }),
  );
  return rule!;
}

/** Changes the fields given (the rule must still be whole: 400 otherwise); an update that changes nothing writes nothing. */
export async function updateScheduleRule(
  principal: Principal,
  ruleId: string,
  input: UpdateRuleBody,
): Promise<ScheduleRule> {
  const { schedule, rule } = await liveRule(principal, ruleId);
  const fields = normalizedRule({ ...rule, ...input });
  const problems = ruleProblems(fields);
  if (problems.length) throw validationFailed('The schedule rule is not valid', problems);
  const at = new Date().toISOString();
  const next: ScheduleRule = { ...rule, ...fields, updatedAt: at };
  const changes = changedFields(rule, next, ruleFieldNames);
  if (Object.keys(changes).length === 0) return rule;
  const rules = schedule.rules.map((r) => (r.id === rule.id ? next : r));
  await write(
    principal,
    schedule,
    bumped(schedule, at, { rules }),
    newEvent(principal.companyId, 'schedule-rule.updated', ruleId, { ...next }, changes),
  );
  return next;
}

/** Deletes a rule from its schedule (the rule is gone; the schedule stays). Answers the rule as it was. */
export async function deleteScheduleRule(principal: Principal, ruleId: string): Promise<ScheduleRule> {
  const { schedule, rule } = await liveRule(principal, ruleId);
  const at = new Date().toISOString();
  const rules = schedule.rules.filter((r) => r.id !== rule.id);
  await write(
    principal,
    schedule,
    bumped(schedule, at, { rules }),
    newEvent(principal.companyId, 'schedule-rule.deleted', ruleId, { ...rule }),
  );
  return rule;
}

export interface AvailabilityAnswer extends Availability {
  entityType: EntityType;
  entityId: string;
  locationId: number;
  timezone: string;
  checkTime: string;
}

/**
 * Whether the entity is available at `checkTime` (default now) in the location's time zone, and
 * which schedule and rule decided (docs/schedules.md "The decision rule"). The location's read and
 * the entity's schedules (one Query) go out together. The entity itself is not looked up: an id
 * without schedules is available.
 */
export async function checkAvailability(principal: Principal, query: AvailabilityQuery): Promise<AvailabilityAnswer> {
  assertLocationAllowed(principal, query.locationId);
  const checkTime = query.checkTime === undefined ? new Date() : new Date(query.checkTime);
  const [location, found] = await Promise.all([
    locations.get(principal.companyId, query.locationId),
    schedules.ofEntity(principal.companyId, query.locationId, query.entityType, query.entityId),
  ]);
  if (!location) throw notFound(`Location ${query.locationId}`);
  const answer = availabilityAt(found, location.timezone, checkTime);
  return {
    entityType: query.entityType,
    entityId: query.entityId,
    locationId: query.locationId,
    timezone: location.timezone,
    checkTime: checkTime.toISOString(),
    ...answer,
  };
}
