import { Type, type Static } from './typebox';
import { Nullable, NumericId, pageQuery } from './common';
import { TEXT_PATTERNS } from './patterns';
import { Line } from './text';

/** A guest has at least one of email and phone (checked with the phone's number, after the schema); the name is optional. */
export const CreateGuestBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, pattern: TEXT_PATTERNS.name, description: 'guest name' }),
    ),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'stored lower-cased' })),
    phone: Type.Optional(
      Line({
        minLength: 1,
        maxLength: 40,
        description:
          'with the country code (+46 70 123 45 67, 0046 70 123 45 67), or local in the country of the X-Location-Id location; stored as E.164',
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'at least one of email and phone is required',
    examples: [{ name: 'Ada Lovelace', email: 'ada@example.com', phone: '+46 70 123 45 67' }],
  },
);

const instant = Type.String({ format: 'date-time' });
const guestFields = {
  id: NumericId,
  name: Nullable(Type.String()),
  email: Nullable(Type.String({ description: 'lower case' })),
  phone: Nullable(Type.String({ description: 'E.164' })),
  createdAt: instant,
  updatedAt: instant,
};

export const GuestView = Type.Object(guestFields, { title: 'Guest', additionalProperties: false });

/**
 * Creating a guest whose email or phone another guest of the company already has answers that
 * guest: whole when the credential may read it, else only its id.
 */
export const CreatedGuestView = Type.Union([
  GuestView,
  Type.Object({ id: NumericId }, { additionalProperties: false }),
]);

/** A guest's bookings at the location searched (docs/guests.md). */
export const GuestHistoryView = Type.Object(
  {
    locationId: NumericId,
    bookingCount: Type.Integer({ minimum: 0 }),
    lastVisitAt: Nullable(instant),
    noShowCount: Type.Integer({ minimum: 0 }),
    cancellationCount: Type.Integer({ minimum: 0 }),
  },
  { title: 'GuestHistory', additionalProperties: false },
);

/** A search match; with a location named (`locationId` or X-Location-Id), its history there. */
export const GuestMatchView = Type.Object(
  { ...guestFields, bookingHistory: Type.Optional(GuestHistoryView) },
  { title: 'GuestMatch', additionalProperties: false },
);

export const SearchGuestsQuery = Type.Object({
  q: Line({
    minLength: 2,
    maxLength: 200,
    description:
      'start of the email, the phone (with its country code, or local in the country of the named location) or any word of the name',
  }),
  locationId: Type.Optional(NumericId),
  ...pageQuery(50, 20),
});

export type CreateGuestBody = Static<typeof CreateGuestBody>;
export type SearchGuestsQuery = Static<typeof SearchGuestsQuery>;
