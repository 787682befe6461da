import { Type, type Static } from '@sinclair/typebox';
import { BookingSettingsOverride } from './bookingSettings';
import { Nullable, NumericId, Uuid, pageQuery } from './common';
import { OperatingHours, displayName } from './locations';

/** Tables in one group at most (bounds the transaction that records each table's membership). */
export const MAX_GROUP_TABLES = 40;

const name = displayName(100);
const tableIds = Type.Array(Uuid, { minItems: 1, maxItems: MAX_GROUP_TABLES, uniqueItems: true, description: 'tables of the location in the pool' });
const schedule = Nullable(OperatingHours);
const settingsOverride = Nullable(BookingSettingsOverride);

export const BookingGroupPath = Type.Object({ locationId: NumericId, id: Uuid });

export const ListBookingGroupsQuery = Type.Object(pageQuery(100, 20));

export const CreateBookingGroupBody = Type.Object(
  { name, tableIds, schedule: Type.Optional(schedule), settingsOverride: Type.Optional(settingsOverride) },
  { additionalProperties: false },
);

export const UpdateBookingGroupBody = Type.Object(
  { name: Type.Optional(name), tableIds: Type.Optional(tableIds), schedule: Type.Optional(schedule), settingsOverride: Type.Optional(settingsOverride) },
  { additionalProperties: false, minProperties: 1 },
);

export type BookingGroupPath = Static<typeof BookingGroupPath>;
export type ListBookingGroupsQuery = Static<typeof ListBookingGroupsQuery>;
export type CreateBookingGroupBody = Static<typeof CreateBookingGroupBody>;
export type UpdateBookingGroupBody = Static<typeof UpdateBookingGroupBody>;
