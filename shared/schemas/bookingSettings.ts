/**
 * The booking settings of a location (docs/bookings.md): each field with its bounds, once. The
 * booking-settings operations build their body from `bookingSettingsFields`; a booking group's
 * `settingsOverride` is any subset of them, with the same bounds.
 */
import { Type, type Static } from './typebox';
import { Nullable, NumericId } from './common';
import { OperatingHours, WeekHoursView } from './locations';
import { entity, stamps } from './views';

const int = (minimum: number, maximum: number, description?: string) =>
  Type.Integer({ minimum, maximum, ...(description ? { description } : {}) });

export const bookingSettingsFields = {
  bufferMinutes: int(0, 120, 'minutes kept free between bookings of a table'),
  defaultDurationMinutes: int(15, 480),
  autoOptimizeEnabled: Type.Boolean(),
  sellingPolicyEnabled: Type.Boolean({
    description:
      'the selling policy: on a date forecast to be asked for more than it seats, decline parties worth fewer covers than the seat-minutes they take (docs/optimizer.md)',
  }),
  maxPartySize: int(1, 100),
  minAdvanceHours: int(0, 168),
  maxAdvanceDays: int(1, 365),
  allowedPartySizes: Type.Array(int(1, 100), { uniqueItems: true, maxItems: 100 }),
  operatingHours: OperatingHours,
  slotIntervalMinutes: Type.Union([
    Type.Literal(15),
    Type.Literal(30),
    Type.Literal(45),
    Type.Literal(60),
    Type.Literal(90),
  ]),
  overbookingBufferPercentage: Type.Number({ minimum: 0, maximum: 50 }),
  confirmationMode: Type.Union([Type.Literal('instant'), Type.Literal('request_based')]),
  autoNoShowDelayMinutes: Nullable(int(5, 120)),
  cancellationPolicyHours: Nullable(int(0, 168, 'hours before the start')),
  bookingWindowDays: Nullable(int(1, 365)),
  maxActiveBookingsPerGuest: Nullable(int(1, 50)),
};

/** Any subset of the booking settings; a field that is absent falls back to the location's value. */
export const BookingSettingsOverride = Type.Partial(Type.Object(bookingSettingsFields), {
  additionalProperties: false,
});

/** A location's booking settings as answered (the defaults, stored, until first changed). */
export const BookingSettingsView = entity('BookingSettings', {
  locationId: NumericId,
  ...bookingSettingsFields,
  operatingHours: Nullable(WeekHoursView),
  ...stamps,
});

export type BookingSettingsOverride = Static<typeof BookingSettingsOverride>;
