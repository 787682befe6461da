/**
 * Capacity settings (docs/capacity.md: how many orders and items a time slot of a location takes) and the
 * extended waiting time (a delay the kitchen announces until a given time). Bounds the
 * spec leaves open are the project's (docs/capacity.md).
 */
import { Type, type Static } from './typebox';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { displayName } from './locations';
import { Instant, entity, stamps } from './views';

const name = displayName(100);
const validOnDays = Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
  minItems: 1,
  maxItems: 7,
  uniqueItems: true,
  description: 'ISO weekdays, 1 Monday to 7 Sunday; a window past midnight belongs to the day it starts',
});
const orderCapacity = Nullable(
  Type.Integer({ minimum: 0, maximum: 100_000, description: 'orders a time slot takes at most; null: no limit' }),
);
const itemCapacity = Nullable(
  Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description: 'items (the sum of line quantities) a time slot takes at most; null: no limit',
  }),
);
const priority = Type.Integer({
  minimum: 0,
  maximum: 1000,
  description: 'lower wins; ties go to the setting created first',
});
const wallTime = Nullable(
  Type.String({
    pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$',
    description: 'HH:mm:ss, local wall time; null: the start (timeStart) or end (timeEnd) of the day',
  }),
);
const instant = Nullable(
  Type.String({ format: 'date-time', description: 'ISO 8601 with a zone offset; null: unbounded' }),
);

/** What create and update accept; create requires name and validOnDays. */
const fields = {
  name,
  validOnDays,
  orderCapacity,
  itemCapacity,
  priority,
  enabled: Type.Boolean(),
  timeStart: wallTime,
  timeEnd: wallTime,
  validFrom: instant,
  validTo: instant,
};

export const CapacitySettingPath = Type.Object({ locationId: NumericId, id: Uuid });

export const ListCapacitySettingsQuery = Type.Object(pageQuery(100, 20));

export const CreateCapacitySettingBody = Type.Object(
  {
    name: fields.name,
    validOnDays: fields.validOnDays,
    orderCapacity: Type.Optional(fields.orderCapacity),
    itemCapacity: Type.Optional(fields.itemCapacity),
    priority: Type.Optional(fields.priority),
    enabled: Type.Optional(fields.enabled),
    timeStart: Type.Optional(fields.timeStart),
    timeEnd: Type.Optional(fields.timeEnd),
    validFrom: Type.Optional(fields.validFrom),
    validTo: Type.Optional(fields.validTo),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Friday dinner rush',
        validOnDays: [5],
        orderCapacity: 12,
        itemCapacity: 60,
        priority: 10,
        timeStart: '18:00:00',
        timeEnd: '21:00:00',
      },
    ],
  },
);

export const UpdateCapacitySettingBody = Type.Partial(Type.Object(fields), {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ orderCapacity: 15, enabled: true, validTo: '2027-03-31T22:00:00Z' }],
});

const delayInMinutes = Nullable(
  Type.Integer({ minimum: 1, maximum: 480, description: 'the extra wait announced; null: none named' }),
);

/** GET: the location from the query, else from X-Location-Id. */
export const GetWaitingTimeQuery = Type.Object({ locationId: Type.Optional(NumericId) });

export const DeleteWaitingTimeQuery = Type.Object({ locationId: NumericId });

export const PutWaitingTimeBody = Type.Object(
  {
    locationId: NumericId,
    endsAt: Type.String({
      format: 'date-time',
      description: 'ISO 8601 with a zone offset; in the future, at most 7 days ahead',
    }),
    delayInMinutes: Type.Optional(delayInMinutes),
  },
  {
    additionalProperties: false,
    examples: [{ locationId: 101, endsAt: '2026-12-18T20:30:00+01:00', delayInMinutes: 25 }],
  },
);

// ---- Answers ----

/** A capacity setting as stored (the instants normalized to UTC). */
export const CapacitySettingView = entity('CapacitySetting', {
  id: Uuid,
  locationId: NumericId,
  name: Type.String(),
  validOnDays: Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
    minItems: 1,
    maxItems: 7,
    description: 'ISO weekdays, sorted',
  }),
  orderCapacity: fields.orderCapacity,
  itemCapacity: fields.itemCapacity,
  priority: fields.priority,
  enabled: fields.enabled,
  timeStart: fields.timeStart,
  timeEnd: fields.timeEnd,
  validFrom: Nullable(Instant),
  validTo: Nullable(Instant),
  ...stamps,
});
export const CapacitySettingListView = Type.Array(CapacitySettingView);

/** The extended waiting time of a location (it runs while now < endsAt). */
export const ExtendedWaitingTimeView = entity('ExtendedWaitingTime', {
  locationId: NumericId,
  endsAt: Instant,
  delayInMinutes,
  ...stamps,
});
/** GET and DELETE: the running waiting time, or null when none runs. */
export const RunningWaitingTimeView = Nullable(ExtendedWaitingTimeView);

export type CapacitySettingPath = Static<typeof CapacitySettingPath>;
export type ListCapacitySettingsQuery = Static<typeof ListCapacitySettingsQuery>;
export type CreateCapacitySettingBody = Static<typeof CreateCapacitySettingBody>;
export type UpdateCapacitySettingBody = Static<typeof UpdateCapacitySettingBody>;
export type GetWaitingTimeQuery = Static<typeof GetWaitingTimeQuery>;
export type DeleteWaitingTimeQuery = Static<typeof DeleteWaitingTimeQuery>;
export type PutWaitingTimeBody = Static<typeof PutWaitingTimeBody>;
