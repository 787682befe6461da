/**
 * The schedule repository against DynamoDB Local (shared/data/schedules.ts): a schedule and its
 * rules written together, the rule refs kept in step, one Query per list page and per entity, the
 * versioned write that makes replace-rules and add-rule exclusive, the bound of 40 rules fitting a
 * transaction, soft deletes leaving every list.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../shared/data/client';
import { locations, type Location } from '../../shared/data/locations';
import { schedules, type Schedule, type ScheduleRule } from '../../shared/data/schedules';
import { normalizeHours } from '../../shared/domain/openingHours';
import { AppError } from '../../shared/errors';
import { newEvent } from '../../shared/events/catalog';
import { MAX_RULES } from '../../shared/schemas/schedules';
import { idBlock } from '../support/id-blocks';
import { companyEvents } from '../support/events';

const ids = idBlock(import.meta.url);
const companyId = ids.next();
const otherCompany = ids.next();
let nextId = 1;

afterEach(() => vi.restoreAllMocks());

async function addLocation(company: number, id: number) {
  const now = new Date().toISOString();
  const l: Location = {
    id,
    name: `L${id}`,
    timezone: 'Europe/Stockholm',
    operatingHours: normalizeHours({}),
    address: null,
    phone: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await locations.create(company, l, newEvent(company, 'location.created', String(id), { ...l }));
}

beforeAll(async () => {
  await addLocation(companyId, 11);
  await addLocation(companyId, 12);
});

const now = () => new Date().toISOString();
function rule(scheduleId: number, locationId: number, weekday = 5): ScheduleRule {
  const at = now();
  return {
    id: nextId++,
    scheduleId,
    locationId,
    ruleType: 'weekly',
    weekday,
    startTime: '11:00',
    endTime: '14:00',
    startDate: null,
    endDate: null,
    validFrom: null,
    validTo: null,
    isAvailable: true,
    createdAt: at,
    updatedAt: at,
  };
}
function schedule(o: Partial<Schedule> = {}, ruleCount = 2): Schedule {
  const id = o.id ?? nextId++;
  const locationId = o.locationId ?? 11;
  const at = now();
  return {
    id,
    locationId,
    entityType: 'item',
    entityId: '500',
    name: 'Lunch',
    description: null,
    isActive: true,
    priority: 0,
    rules: Array.from({ length: ruleCount }, () => rule(id, locationId)),
    version: 1,
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    ...o,
  };
}
const create = async (s: Schedule, company = companyId) => {
  await schedules.create(company, s, [newEvent(company, 'schedule.created', String(s.id), { ...s })]);
  return s;
};
const bump = (s: Schedule, changes: Partial<Schedule>): Schedule => ({
  ...s,
  ...changes,
  version: s.version + 1,
  updatedAt: now(),
});

async function counter(sk: string) {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `C#${companyId}`, sk } }));
  return Number(out.Item?.n ?? 0);
}
async function ruleRefs(ruleIds: number[]) {
  const found = await Promise.all(ruleIds.map((id) => schedules.ofRule(companyId, id)));
  return found.map((s) => s?.id ?? null);
}
async function eventCount(company: number) {
  const out = await companyEvents(company);
  return out.Items?.length ?? 0;
}
/** The commands sent while `run` runs. */
async function commandsOf(run: () => Promise<unknown>): Promise<string[]> {
  const client = db();
  const send = client.send.bind(client);
  const sent: string[] = [];
  vi.spyOn(client, 'send').mockImplementation(((command: object) => {
    sent.push(command.constructor.name);
    return send(command as never);
  }) as never);
  await run();
  vi.restoreAllMocks();
  return sent;
}

describe('schedules repository', () => {
  it('writes the schedule with its rules, their refs, the counters and the event at once', async () => {
    const before = { events: await eventCount(companyId), location: await counter('COUNT#SCHED#L#000000000011') };
    const s = await create(schedule());
    expect(await schedules.get(companyId, s.id)).toEqual(s);
    expect(await ruleRefs(s.rules.map((r) => r.id))).toEqual([s.id, s.id]);
    expect(await counter('COUNT#SCHED#L#000000000011')).toBe(before.location + 1);
    expect(await eventCount(companyId)).toBe(before.events + 1);
  });

  it('refuses a schedule at a location the company does not have, writing nothing', async () => {
    const s = schedule({ locationId: 11 });
    const before = await eventCount(otherCompany);
    await expect(create(s, otherCompany)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await schedules.get(otherCompany, s.id)).toBeUndefined();
    expect(await eventCount(otherCompany)).toBe(before);
  });

  it("reads one entity's schedules at a location, rules and all, with one Query", async () => {
    const a = await create(schedule({ entityType: 'menu_layout', entityId: 'brunch-1' }));
    const b = await create(schedule({ entityType: 'menu_layout', entityId: 'brunch-1', priority: 5 }));
    await create(schedule({ entityType: 'menu_layout', entityId: 'brunch-1', locationId: 12 }));
    await create(schedule({ entityType: 'menu_layout', entityId: 'brunch-2' }));
    let found: Schedule[] = [];
    const sent = await commandsOf(
      async () => (found = await schedules.ofEntity(companyId, 11, 'menu_layout', 'brunch-1')),
    );
    expect(sent).toEqual(['QueryCommand']);
    expect(found).toEqual([a, b]);
  });

  it('lists by location, by entity, by entity type and by isActive, each page one Query', async () => {
    const loc = 12;
    const active = await create(schedule({ locationId: loc, entityType: 'variant_group', entityId: '77' }));
    const inactive = await create(
      schedule({ locationId: loc, entityType: 'variant_group', entityId: '78', isActive: false }),
    );
    const item = await create(schedule({ locationId: loc, entityType: 'item', entityId: '77' }));
    const page = { page: 1, limit: 50 };
    const idsOf = async (f: Parameters<typeof schedules.list>[1]) => {
      let out: Schedule[] = [];
      const sent = await commandsOf(async () => (out = (await schedules.list(companyId, f, page)).items));
      expect(sent.filter((c) => c === 'QueryCommand')).toHaveLength(1);
      return out.map((s) => s.id);
    };
    expect(await idsOf({ locationId: loc })).toEqual(expect.arrayContaining([active.id, inactive.id, item.id]));
    expect(await idsOf({ locationId: loc, entityType: 'variant_group', entityId: '77' })).toEqual([active.id]);
    expect(await idsOf({ locationId: loc, entityType: 'variant_group' })).toEqual([active.id, inactive.id]);
    expect(await idsOf({ locationId: loc, entityType: 'variant_group', isActive: false })).toEqual([inactive.id]);
    expect(await idsOf({ locationId: loc, isActive: true })).not.toContain(inactive.id);
  });

  it('replaces every rule under the version read: new refs written, old refs gone; a stale version writes nothing', async () => {
    const s = await create(schedule());
    const replaced = bump(s, { rules: [rule(s.id, 11, 1), rule(s.id, 11, 2), rule(s.id, 11, 3)] });
    await schedules.update(companyId, s, replaced, [
      newEvent(companyId, 'schedule.updated', String(s.id), { ...replaced }, { rules: replaced.rules }),
    ]);
    expect(await schedules.get(companyId, s.id)).toEqual(replaced);
    expect(await ruleRefs(s.rules.map((r) => r.id))).toEqual([null, null]);
    expect(await ruleRefs(replaced.rules.map((r) => r.id))).toEqual([s.id, s.id, s.id]);

    // An added rule read at the old version: refused, nothing written (not its ref, not its event).
    const added = rule(s.id, 11, 4);
    const events = await eventCount(companyId);
    const refused = schedules.update(companyId, s, bump(s, { rules: [...s.rules, added] }), [
      newEvent(companyId, 'schedule-rule.created', String(added.id), { ...added }),
    ]);
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await schedules.get(companyId, s.id)).toEqual(replaced);
    expect(await ruleRefs([added.id])).toEqual([null]);
    expect(await eventCount(companyId)).toBe(events);
  });

  it(`fits a replacement of ${MAX_RULES} rules by ${MAX_RULES} others in one transaction`, async () => {
    const s = await create(schedule({}, MAX_RULES));
    const next = bump(s, { rules: Array.from({ length: MAX_RULES }, () => rule(s.id, 11)) });
    const events = [
      newEvent(companyId, 'schedule.updated', String(s.id), { ...next }, { rules: next.rules }),
      newEvent(companyId, 'menu-layouts.updated', 'x', { locationId: 11 }),
    ];
    await schedules.update(companyId, s, next, events);
    expect((await schedules.get(companyId, s.id))!.rules.map((r) => r.id)).toEqual(next.rules.map((r) => r.id));
    expect(await ruleRefs(s.rules.map((r) => r.id))).toEqual(s.rules.map(() => null));
  });

  it('soft deletes: the schedule leaves lists and the entity read, its counters go down, its item stays', async () => {
    const s = await create(schedule({ entityType: 'location_hours', entityId: '11' }));
    const before = await counter('COUNT#SCHED#L#000000000011');
    const gone = bump(s, { deletedAt: now() });
    await schedules.update(companyId, s, gone, [newEvent(companyId, 'schedule.deleted', String(s.id), { ...s })]);
    expect(await schedules.ofEntity(companyId, 11, 'location_hours', '11')).toEqual([]);
    expect(
      (await schedules.list(companyId, { locationId: 11 }, { page: 1, limit: 100 })).items.map((x) => x.id),
    ).not.toContain(s.id);
    expect(await counter('COUNT#SCHED#L#000000000011')).toBe(before - 1);
    expect(await schedules.get(companyId, s.id)).toEqual(gone);
    expect(await ruleRefs(s.rules.map((r) => r.id))).toEqual([s.id, s.id]);
  });
});
