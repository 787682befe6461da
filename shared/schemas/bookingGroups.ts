import { Type, type Static } from './typebox';
import { BookingSettingsOverride } from './bookingSettings';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { OperatingHours, WeekHoursView, displayName } from './locations';

/** Tables in one group at most (bounds the transaction that records each table's membership). */
const MAX_GROUP_TABLES = 40;

const name = displayName(100);
const tableIds = Type.Array(Uuid, {
  minItems: 1,
  maxItems: MAX_GROUP_TABLES,
  uniqueItems: true,
  description: 'tables of the location in the pool',
});
const schedule = Nullable(OperatingHours);
const settingsOverride = Nullable(BookingSettingsOverride);

export const BookingGroupPath = Type.Object({ locationId: NumericId, id: Uuid });

export const ListBookingGroupsQuery = Type.Object(pageQuery(100, 20));

export const CreateBookingGroupBody = Type.Object(
  { name, tableIds, schedule: Type.Optional(schedule), settingsOverride: Type.Optional(settingsOverride) },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Terrace',
        tableIds: ['3f1c2b7e-8a4d-4c1e-9b2a-6d5e4f3a2b1c', '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
        schedule: { saturday: [{ open: '12:00', close: '22:00' }] },
        settingsOverride: { defaultDurationMinutes: 120 },
      },
    ],
  },
);

export const UpdateBookingGroupBody = Type.Object(
  {
    name: Type.Optional(name),
    tableIds: Type.Optional(tableIds),
    schedule: Type.Optional(schedule),
    settingsOverride: Type.Optional(settingsOverride),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ schedule: null }] },
);

export const BookingGroupView = Type.Object(
  {
    id: Uuid,
    locationId: NumericId,
    name: Type.String(),
    tableIds: Type.Array(Uuid),
    schedule: Nullable(WeekHoursView),
    settingsOverride: Nullable(BookingSettingsOverride),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    version: Type.Integer({ minimum: 1 }),
  },
  { title: 'BookingGroup', additionalProperties: false },
);

export type BookingGroupPath = Static<typeof BookingGroupPath>;
export type ListBookingGroupsQuery = Static<typeof ListBookingGroupsQuery>;
export type CreateBookingGroupBody = Static<typeof CreateBookingGroupBody>;
export type UpdateBookingGroupBody = Static<typeof UpdateBookingGroupBody>;
