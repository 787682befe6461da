/**
 * Online booking (docs/online-booking.md): what a guest's browser sends and is answered through a
 * publishable key. Fields are the staff operations' own (CreateBookingBody, JoinWaitlistBody,
 * AvailabilityQuery, the booking settings), picked rather than declared again; only what a guest
 * may send or see is kept.
 */
import { Type } from './typebox';
import { AvailabilityQuery, CreateBookingBody, UpdateBookingBody } from './bookings';
import { bookingSettingsFields } from './bookingSettings';
import { Nullable, NumericId } from './common';
import { LocationView, WeekHoursView } from './locations';
import { Name } from './text';
import { Instant, entity } from './views';
import { JoinWaitlistBody } from './waitlist';

const booking = CreateBookingBody.properties;
const guestCount = Type.Integer({ minimum: 1, maximum: 100, description: 'guests' });
const guestName = Name(200, { minLength: 1, maxLength: 200, description: 'the name the booking is under' });

/** A guest's booking: date, time, party, name and an email or phone, the occasion and requests. Never tables, notes, deposits or seating. */
export const OnlineBookingBody = Type.Object(
  {
    locationId: booking.locationId,
    bookingDate: booking.bookingDate,
    startTime: booking.startTime,
    guestCount,
    guestName,
    guestEmail: booking.guestEmail,
    guestPhone: booking.guestPhone,
    occasion: booking.occasion,
    specialRequests: booking.specialRequests,
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        bookingDate: '2026-12-18',
        startTime: '19:00',
        guestCount: 2,
        guestName: 'Ada Lovelace',
        guestEmail: 'ada@example.com',
        occasion: 'Birthday',
      },
    ],
  },
);

const join = JoinWaitlistBody.properties;

/** A guest joining the waitlist for a full time: the party, the date and the times they would take, a name and a contact. */
export const OnlineWaitlistBody = Type.Object(
  {
    locationId: join.locationId,
    partySize: join.partySize,
    desiredDate: join.desiredDate,
    windowStart: join.windowStart,
    windowEnd: join.windowEnd,
    guestName,
    guestEmail: join.guestEmail,
    guestPhone: join.guestPhone,
  },
  {
    additionalProperties: false,
    examples: [
      {
        locationId: 101,
        partySize: 4,
        desiredDate: '2026-12-18',
        windowStart: '19:00',
        guestName: 'Ada Lovelace',
        guestPhone: '+46701234567',
      },
    ],
  },
);

/** A date and a party size: the times a guest may book. */
export const OnlineAvailabilityQuery = Type.Object({
  date: AvailabilityQuery.properties.date,
  partySize: AvailabilityQuery.properties.partySize,
});

const settings = bookingSettingsFields;

/** What a guest needs to know to book: the location's name and zone, its booking hours, and the rules a booking keeps. */
export const OnlineLocationView = entity('OnlineLocation', {
  locationId: NumericId,
  name: LocationView.properties.name,
  timezone: LocationView.properties.timezone,
  bookingHours: Nullable(WeekHoursView),
  slotIntervalMinutes: settings.slotIntervalMinutes,
  durationMinutes: settings.defaultDurationMinutes,
  minPartySize: Type.Integer({ minimum: 1, description: 'the smallest party that may book online' }),
  maxPartySize: settings.maxPartySize,
  allowedPartySizes: settings.allowedPartySizes,
  minAdvanceHours: settings.minAdvanceHours,
  maxAdvanceDays: Type.Integer({
    minimum: 1,
    description: 'how far ahead a booking may start (the booking window when shorter)',
  }),
  confirmationMode: settings.confirmationMode,
  cancellationPolicyHours: settings.cancellationPolicyHours,
});

/** The times of a date for a party: when each starts, whether it can be booked, whether a full one takes the waitlist. */
export const OnlineAvailabilityView = entity('OnlineAvailability', {
  locationId: NumericId,
  date: AvailabilityQuery.properties.date,
  partySize: guestCount,
  timezone: Type.String(),
  slots: Type.Array(
    entity('OnlineSlot', {
      time: booking.startTime,
      startsAt: Instant,
      available: Type.Boolean(),
      waitlist: Type.Boolean({ description: 'full: the guest may join the waitlist for it' }),
    }),
    { description: 'every time within the booking hours and the advance window, in order' },
  ),
});

const change = UpdateBookingBody.properties;

/** What a guest may change of their booking by its code: the date, the time, the party. */
export const OnlineChangeBody = Type.Object(
  {
    bookingDate: change.bookingDate,
    startTime: change.startTime,
    guestCount: Type.Optional(guestCount),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ startTime: '20:00', guestCount: 3 }] },
);
