import { Type, type Static } from './typebox';
import { Nullable, NumericId, pageQuery } from './common';
import { Line, Name, Prose } from './text';

/** The days of a week of opening hours, Monday first (ISO 8601). */
export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

const openTime = Type.String({ pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, local wall time' });
const closeTime = Type.String({
  pattern: '^(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
  description: 'HH:MM, local wall time; earlier than open means the next day, 24:00 the end of the day',
});

export const HoursInterval = Type.Object(
  { open: openTime, close: closeTime },
  { title: 'HoursInterval', additionalProperties: false },
);

const day = Type.Optional(
  Type.Array(HoursInterval, { maxItems: 6, description: 'intervals of the day; missing or empty: closed' }),
);

/**
 * A week of opening hours, keyed by weekday. The same shape serves a location's operating hours, a
 * booking group's schedule and the booking settings' hours override (docs/bookings.md).
 */
export const OperatingHours = Type.Object(
  { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: day, sunday: day },
  { title: 'OperatingHours', additionalProperties: false },
);

/** At least one character that is not white space. */
export const displayName = (maxLength: number) => Name(maxLength);

const name = displayName(200);
const timezone = Line({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Stockholm' });
const address = Nullable(Prose(500));
const phone = Nullable(
  Line({
    minLength: 1,
    maxLength: 40,
    description: "with the country code, or local in the location's country; stored as E.164",
  }),
);
const country = Nullable(
  Type.String({
    pattern: '^[A-Za-z]{2}$',
    description: 'ISO 3166-1 alpha-2 (SE), stored upper case; local phone numbers given at the location are read in it',
  }),
);

export const LocationPath = Type.Object({ locationId: NumericId });

export const ListLocationsQuery = Type.Object(pageQuery(100, 20));

/** Without `operatingHours` the location is stored with every day closed (docs/setup.md: what that means for availability). */
export const CreateLocationBody = Type.Object(
  {
    name,
    timezone,
    operatingHours: Type.Optional(OperatingHours),
    address: Type.Optional(address),
    phone: Type.Optional(phone),
    country: Type.Optional(country),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Brigade Södermalm',
        timezone: 'Europe/Stockholm',
        operatingHours: {
          tuesday: [{ open: '17:00', close: '23:00' }],
          friday: [
            { open: '11:30', close: '14:00' },
            { open: '17:00', close: '01:00' },
          ],
          saturday: [{ open: '17:00', close: '01:00' }],
        },
        address: 'Götgatan 1, 116 46 Stockholm',
        phone: '08 123 456 78',
        country: 'SE',
      },
    ],
  },
);

export const UpdateLocationBody = Type.Object(
  {
    name: Type.Optional(name),
    timezone: Type.Optional(timezone),
    operatingHours: Type.Optional(OperatingHours),
    address: Type.Optional(address),
    phone: Type.Optional(phone),
    country: Type.Optional(country),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [
      { phone: '+46 8 123 456 79', operatingHours: { monday: [], tuesday: [{ open: '17:00', close: '23:30' }] } },
    ],
  },
);

const instant = Type.String({ format: 'date-time' });
const storedDay = Type.Array(HoursInterval, { description: 'intervals in order of opening; [] when closed' });

/** Stored hours: every weekday present, a closed day []. */
export const WeekHoursView = Type.Object(
  {
    monday: storedDay,
    tuesday: storedDay,
    wednesday: storedDay,
    thursday: storedDay,
    friday: storedDay,
    saturday: storedDay,
    sunday: storedDay,
  },
  { title: 'WeekHours', additionalProperties: false },
);

export const LocationView = Type.Object(
  {
    id: NumericId,
    name: Type.String(),
    timezone: Type.String(),
    operatingHours: WeekHoursView,
    address: Nullable(Type.String()),
    phone: Nullable(Type.String({ description: 'E.164' })),
    country: Type.Optional(
      Nullable(
        Type.String({ pattern: '^[A-Z]{2}$', description: 'absent on a location stored before the field existed' }),
      ),
    ),
    createdAt: instant,
    updatedAt: instant,
    version: Type.Integer({ minimum: 1 }),
  },
  { title: 'Location', additionalProperties: false },
);

export type HoursInterval = Static<typeof HoursInterval>;
export type OperatingHours = Static<typeof OperatingHours>;
/** Stored hours: every day present (a closed day is []), each day's intervals in order of opening. */
export type WeekHours = Record<Weekday, HoursInterval[]>;
export type LocationPath = Static<typeof LocationPath>;
export type ListLocationsQuery = Static<typeof ListLocationsQuery>;
export type CreateLocationBody = Static<typeof CreateLocationBody>;
export type UpdateLocationBody = Static<typeof UpdateLocationBody>;
