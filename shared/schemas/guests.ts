import { Type, type Static } from '@sinclair/typebox';
import { NumericId, pageQuery } from './common';

/** Spec 2.11: at least one of email and phone (checked with the phone's number, after the schema); the name is optional. */
export const CreateGuestBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'guest name' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'stored lower-cased' })),
    phone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'with the country code (+46 70 123 45 67, 0046 70 123 45 67), or local in the country of the X-Location-Id location; stored as E.164',
      }),
    ),
  },
  { additionalProperties: false, description: 'at least one of email and phone is required' },
);

export const SearchGuestsQuery = Type.Object({
  q: Type.String({ minLength: 2, maxLength: 200, description: 'start of the email, the phone (with its country code, or local in the country of the named location) or any word of the name' }),
  locationId: Type.Optional(NumericId),
  ...pageQuery(50, 20),
});

export type CreateGuestBody = Static<typeof CreateGuestBody>;
export type SearchGuestsQuery = Static<typeof SearchGuestsQuery>;
