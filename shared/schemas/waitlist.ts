/** The booking waitlist (docs/api.md; docs/conventions.md, “Permissions”; docs/waitlist.md). */
import { Type, type Static } from './typebox';
import { BookingView, CodePath } from './bookings';
import { LocalDate, Nullable, NumericId, Uuid, pageQuery } from './common';
import { Instant, entity, literals, stamps } from './views';
import { Line, Name, Prose } from './text';

export { CodePath };

/** An entry's statuses (docs/waitlist.md has the machine). */
export const waitlistStatuses = ['waiting', 'offered', 'accepted', 'declined', 'expired', 'left'] as const;
export type WaitlistStatus = (typeof waitlistStatuses)[number];

/** How long an offer holds its table unless the offer says: `holdMinutes`. */
export const DEFAULT_OFFER_HOLD_MINUTES = 15;
const MAX_OFFER_HOLD_MINUTES = 24 * 60;

const date = LocalDate("YYYY-MM-DD, the location's local date (years to 9998)");
const wallTime = Type.String({
  pattern: '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$',
  description: "HH:MM, the location's local wall time",
});
/** A nullable text field: one line, a name, or multi-line, without control characters (text.ts). */
const text = (maxLength: number, description?: string, kind: 'line' | 'name' | 'prose' = 'line') => {
  const options = { minLength: 1, maxLength, ...(description ? { description } : {}) };
  return Nullable(
    kind === 'name' ? Name(maxLength, options) : kind === 'prose' ? Prose(maxLength, options) : Line(options),
  );
};

export const JoinWaitlistBody = Type.Object(
  {
    locationId: NumericId,
    partySize: Type.Integer({ minimum: 1, maximum: 100, description: 'guests' }),
    desiredDate: date,
    windowStart: wallTime,
    windowEnd: Type.Optional(
      Type.Union([wallTime, Type.Null()], {
        description: 'the latest start the party would take; null or absent: windowStart alone',
      }),
    ),
    primaryUserId: Type.Optional(Nullable(NumericId)),
    guestName: Type.Optional(text(200, undefined, 'name')),
    guestEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    guestPhone: Type.Optional(text(40, "with the country code, or local in the location's country; stored as E.164")),
    notes: Type.Optional(text(1000, undefined, 'prose')),
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        partySize: 4,
        desiredDate: '2026-12-18',
        windowStart: '19:00',
        windowEnd: '21:00',
        guestName: 'Ada Lovelace',
        guestPhone: '+46701234567',
        notes: 'Window table if possible',
      },
    ],
  },
);

export const ListWaitlistQuery = Type.Object({
  locationId: Type.Optional(NumericId),
  date: Type.Optional(date),
  status: Type.Optional(Type.Union(waitlistStatuses.map((s) => Type.Literal(s)))),
  ...pageQuery(100, 20),
});

export const WaitlistPath = Type.Object({ id: Uuid });

/** An offer is on the entry's desired date (a start after midnight is the next night's: not offered from this list). */
export const OfferWaitlistBody = Type.Object(
  {
    tableIds: Type.Array(Uuid, {
      minItems: 1,
      maxItems: 8,
      uniqueItems: true,
      description: 'tables of the location; the first is the primary',
    }),
    startTime: wallTime,
    endTime: Type.Optional(wallTime),
    holdMinutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_OFFER_HOLD_MINUTES,
        default: DEFAULT_OFFER_HOLD_MINUTES,
        description: 'how long the tables are held for the guest',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ tableIds: ['5b0e3c9d-2f4a-4c1e-9d7b-8a6f1e2d3c4b'], startTime: '20:30', holdMinutes: 20 }],
  },
);

// ---- Answers ----

const shownText = Nullable(Type.String());

/** The spot an entry was offered, held until `expiresAt` under `bookingId` (the id the booking will have). */
const WaitlistOfferView = entity('WaitlistOffer', {
  ...Type.Pick(BookingView, ['tableIds', 'bookingDate', 'startTime', 'endTime', 'timezone', 'startsAt', 'endsAt'])
    .properties,
  bookingId: Uuid,
  holdDates: Type.Array(date, { description: 'the local dates the table hold is stored in' }),
  offeredAt: Instant,
  expiresAt: Instant,
});

/** An entry as staff see it. */
export const WaitlistEntryView = entity('WaitlistEntry', {
  id: Uuid,
  locationId: NumericId,
  code: CodePath.properties.code,
  status: literals(waitlistStatuses),
  partySize: Type.Integer({ minimum: 1, maximum: 100 }),
  desiredDate: date,
  windowStart: wallTime,
  windowEnd: wallTime,
  primaryUserId: Nullable(NumericId),
  guestName: shownText,
  guestEmail: Nullable(Type.String({ format: 'email' })),
  guestPhone: Nullable(Type.String({ description: 'E.164' })),
  notes: shownText,
  offer: Type.Union([WaitlistOfferView, Type.Null()], {
    description: 'the current or last offer; null before the first',
  }),
  bookingId: Type.Union([Uuid, Type.Null()], { description: 'the booking an accepted offer made' }),
  ...stamps,
});
export const WaitlistEntryListView = Type.Array(WaitlistEntryView);

/** What the guest sees of their entry through its code: no notes, no contact details; accept adds the booking it made. */
export const PublicWaitlistEntryView = entity('PublicWaitlistEntry', {
  ...Type.Pick(WaitlistEntryView, [
    'id',
    'code',
    'locationId',
    'status',
    'partySize',
    'desiredDate',
    'windowStart',
    'windowEnd',
    'guestName',
    'bookingId',
  ]).properties,
  offer: Nullable(Type.Omit(WaitlistOfferView, ['bookingId', 'holdDates'], { title: 'PublicWaitlistOffer' })),
  booking: Type.Optional(
    Type.Pick(
      BookingView,
      ['id', 'confirmationCode', 'status', 'bookingDate', 'startTime', 'endTime', 'timezone', 'guestCount', 'tab'],
      { title: 'WaitlistBooking' },
    ),
  ),
});

export type JoinWaitlistBody = Static<typeof JoinWaitlistBody>;
export type ListWaitlistQuery = Static<typeof ListWaitlistQuery>;
export type OfferWaitlistBody = Static<typeof OfferWaitlistBody>;
