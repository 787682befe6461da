/**
 * Capacity settings and the slot counters that hold them (docs/capacity.md):
 *
 *   setting        C#<cid> / CAPSET#<loc:12>#<id>                   gsi1 C#<cid>#CAPSETS / L#<loc:12>#<priority:4>#<createdAt>#<id>
 *   slot counter   C#<cid> / CAPCOUNT#<loc:12>#<settingId>#<slotStartsAt>   orders, items; ttl
 *
 * A location's settings sit under one sort-key prefix of the company partition, so the order
 * path reads all of them with one strongly consistent Query; lists page through gsi1 in the
 * order the effective setting is chosen (priority, then age).
 */
import { Type, type Static } from '../schemas/typebox';
import { unprocessable, type AppError } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { getItem } from './batch';
import { CapacitySettingView } from '../schemas/capacity';
import { companyKey, defineEntity } from './entity';
import { keys } from './keys';
import { locationCounter, locationExistsStep } from './locations';
import { keptAsEvents, outboxStep } from './outbox';
import { counterStep, queryAll, type PageRequest } from './paging';
import { listPrefix } from './tables';
import { transact, updateStep, type Step } from './transact';

/**
 * A capacity setting as stored and shown: declared by CapacitySettingView. `validOnDays` are ISO
 * weekdays (1 Monday … 7 Sunday), sorted; `orderCapacity`/`itemCapacity` null: no limit; lower
 * `priority` wins; `timeStart`/`timeEnd` HH:mm:ss local wall times (null: the start / end of the
 * day); `validFrom`/`validTo` UTC instants (null: unbounded).
 */
export type CapacitySetting = Static<typeof CapacitySettingView>;

/** Capacity settings one location may have: the order path reads all of them with every order. */
const MAX_CAPACITY_SETTINGS = 100;

const listPartition = (companyId: number) => `${keys.company(companyId)}#CAPSETS`;
const settingPrefix = (locationId: number) => `CAPSET#${keys.pad(locationId)}#`;
const settingCounter = (companyId: number, locationId: number) => locationCounter(companyId, locationId, 'CAPSET');

const settingEntity = defineEntity({
  name: 'CAPACITY_SETTING',
  label: 'capacity setting',
  key: (companyId: number, locationId: number, id: string) =>
    companyKey(companyId, `${settingPrefix(locationId)}${id}`),
  schema: CapacitySettingView,
  keyOf: (companyId, s) => [companyId, s.locationId, s.id] as const,
  indexes: (companyId, s) => ({
    gsi1pk: listPartition(companyId),
    gsi1sk: `${listPrefix(s.locationId)}${keys.pad(s.priority, 4)}#${s.createdAt}#${s.id}`,
  }),
});

/** Counts the setting in its location (the list's total and the location's delete guard), refusing one past the limit. */
const countedStep = (companyId: number, locationId: number): Step =>
  updateStep(
    settingCounter(companyId, locationId),
    { entity: 'COUNTER' },
    {
      add: { n: 1 },
      condition: { expression: 'attribute_not_exists(n) OR n < :max', values: { ':max': MAX_CAPACITY_SETTINGS } },
      onConditionFailed: () =>
        unprocessable(
          `Location ${locationId} already has ${MAX_CAPACITY_SETTINGS} capacity settings, the most a location may have; delete one first`,
        ),
    },
  );

export const capacitySettings = {
  get: settingEntity.get,

  /** The location's settings in the order they take precedence: one Query per page. */
  list(companyId: number, locationId: number, page: PageRequest): Promise<Page<CapacitySetting>> {
    return settingEntity.list(
      {
        index: 'gsi1',
        partition: listPartition(companyId),
        prefix: listPrefix(locationId),
        counter: settingCounter(companyId, locationId),
      },
      page,
    );
  },

  /** Every setting of the location (at most MAX_CAPACITY_SETTINGS): one strongly consistent Query. */
  async atLocation(companyId: number, locationId: number): Promise<CapacitySetting[]> {
    const items = await queryAll({
      partition: keys.company(companyId),
      range: { op: 'begins_with', value: settingPrefix(locationId) },
      consistent: true,
    });
    return items.map(settingEntity.from);
  },

  /** Adds the setting at an existing location (404), counted (422 past the limit), with its event. */
  async create(companyId: number, s: CapacitySetting, event: DomainEvent): Promise<void> {
    await transact([
      locationExistsStep(companyId, s.locationId),
      settingEntity.newItemStep(companyId, s),
      countedStep(companyId, s.locationId),
      outboxStep(event),
    ]);
  },

  /** Replaces the setting if nobody changed it since `expectedVersion` was read. */
  async update(companyId: number, next: CapacitySetting, expectedVersion: number, event: DomainEvent): Promise<void> {
    await transact([settingEntity.versionedPutStep(companyId, next, expectedVersion), outboxStep(event)]);
  },

  /** Deletes the setting as read. Its slot counters stay until they expire: nothing reads them once no setting names them. */
  async remove(companyId: number, s: CapacitySetting, event: DomainEvent): Promise<void> {
    await transact([
      settingEntity.versionedDeleteStep(companyId, s),
      counterStep(settingCounter(companyId, s.locationId), -1),
      outboxStep(event),
    ]);
  },
};

/** An order counted in a slot under a setting: one order and its items (the sum of its lines' quantities). */
export const SlotClaim = Type.Object({ settingId: Type.String(), slotStartsAt: Type.String(), items: Type.Integer() });
export type SlotClaim = Static<typeof SlotClaim>;

/** What a slot counter holds: the orders and items counted in one slot under one setting. */
export interface SlotCount {
  orders: number;
  items: number;
}

/** One move of a slot counter, with the limits it must keep when it grows. */
export interface SlotCountMove {
  locationId: number;
  settingId: string;
  slotStartsAt: string;
  orders: number;
  items: number;
  limits: Pick<CapacitySetting, 'orderCapacity' | 'itemCapacity'>;
  /** The error when the slot is at capacity (the move's condition fails). */
  onFull: () => AppError;
}

const slotCountKey = (companyId: number, locationId: number, settingId: string, slotStartsAt: string) =>
  companyKey(companyId, `CAPCOUNT#${keys.pad(locationId)}#${settingId}#${slotStartsAt}`);

export const slotCounts = {
  /** The slot's counts, read strongly consistent (zero when nothing was counted yet). */
  async get(companyId: number, locationId: number, settingId: string, slotStartsAt: string): Promise<SlotCount> {
    const item = await getItem(slotCountKey(companyId, locationId, settingId, slotStartsAt), { consistent: true });
    return { orders: Number(item?.orders ?? 0), items: Number(item?.items ?? 0) };
  },
};

/**
 * Moves a slot counter in the transaction of the order that claims (or gives back) its place.
 * A move that grows the count is conditioned on the limits it must keep (orders < orderCapacity,
 * items + added <= itemCapacity), so two orders racing for the last place cannot both commit. The
 * caller refuses at once what breaks a limit alone (an orderCapacity of 0, more items than
 * itemCapacity), which an absent counter could not express.
 */
export function slotCountStep(companyId: number, m: SlotCountMove): Step {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  if (m.orders > 0 && m.limits.orderCapacity !== null) {
    clauses.push('(attribute_not_exists(#orders) OR #orders < :maxOrders)');
    names['#orders'] = 'orders';
    values[':maxOrders'] = m.limits.orderCapacity;
  }
  if (m.items > 0 && m.limits.itemCapacity !== null) {
    clauses.push('(attribute_not_exists(#items) OR #items <= :room)');
    names['#items'] = 'items';
    values[':room'] = m.limits.itemCapacity - m.items;
  }
  const fields = {
    entity: 'CAPACITY_COUNT',
    companyId,
    locationId: m.locationId,
    settingId: m.settingId,
    slotStartsAt: m.slotStartsAt,
    ttl: keptAsEvents(m.slotStartsAt),
  };
  const add = Object.fromEntries(Object.entries({ orders: m.orders, items: m.items }).filter(([, n]) => n !== 0));
  const condition = clauses.length
    ? { condition: { expression: clauses.join(' AND '), names, values }, onConditionFailed: m.onFull }
    : {};
  return updateStep(slotCountKey(companyId, m.locationId, m.settingId, m.slotStartsAt), fields, { add, ...condition });
}
