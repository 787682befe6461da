/**
 * Booking members and RSVPs (docs/bookings.md): the people of a booking's party and their replies.
 * Staff add and change members by booking id; anyone holding the confirmation code may read the
 * party's names and replies, add someone, or answer for an email (public operations).
 */
import { Type, type Static } from './typebox';
import { CodePath } from './bookings';
import { NumericId, Uuid, pageQuery } from './common';
import { displayName } from './locations';
import { entity, stamps } from './views';

const rsvpStatuses = ['invited', 'accepted', 'declined', 'tentative'] as const;
export type RsvpStatus = (typeof rsvpStatuses)[number];

/** What a guest can answer: every status but `invited`, which only staff (re)set. */
const rsvpReplies = ['accepted', 'declined', 'tentative'] as const;

/** One of `values`, as a JSON Schema enum (one clear error for a wrong value). */
const oneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

const rsvpStatus = oneOf(rsvpStatuses, 'invited (no answer yet), accepted, declined or tentative');
const guestName = displayName(200);
const guestEmail = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'stored lower-cased; one member per email per booking',
});

export const BookingMemberPath = Type.Object({ id: Uuid, memberId: Uuid });

export const ListBookingMembersQuery = Type.Object(pageQuery(100, 20));

export const AddBookingMemberBody = Type.Object(
  {
    userId: Type.Optional(NumericId),
    guestName: Type.Optional(guestName),
    guestEmail: Type.Optional(guestEmail),
    rsvpStatus: Type.Optional(rsvpStatus),
  },
  {
    additionalProperties: false,
    description:
      'userId (a guest user of the company: the member takes its name and email), or guestName with an optional guestEmail; rsvpStatus defaults to invited',
    examples: [
      { guestName: 'Grace Hopper', guestEmail: 'grace@example.com' },
      { userId: 42, rsvpStatus: 'accepted' },
    ],
  },
);

export const UpdateBookingMemberBody = Type.Object(
  { rsvpStatus },
  { additionalProperties: false, examples: [{ rsvpStatus: 'declined' }] },
);

export const AddMemberByCodeBody = Type.Object(
  { guestName, guestEmail: Type.Optional(guestEmail), rsvpStatus: Type.Optional(rsvpStatus) },
  {
    additionalProperties: false,
    examples: [{ guestName: 'Alan Turing', guestEmail: 'alan@example.com', rsvpStatus: 'tentative' }],
  },
);

export const RsvpBody = Type.Object(
  {
    confirmationCode: CodePath.properties.code,
    guestName,
    guestEmail,
    rsvpStatus: oneOf(rsvpReplies, 'accepted, declined or tentative'),
  },
  {
    additionalProperties: false,
    examples: [
      {
        confirmationCode: 'K7QW3XPMR4TN8ZCH2D',
        guestName: 'Katherine Johnson',
        guestEmail: 'katherine@example.com',
        rsvpStatus: 'accepted',
      },
    ],
  },
);

/** A member of a booking's party as staff see it. */
export const BookingMemberView = entity('BookingMember', {
  id: Uuid,
  bookingId: Uuid,
  userId: Type.Union([NumericId, Type.Null()], {
    description: 'the guest user the member is; null for a member known by name',
  }),
  guestName: Type.String(),
  guestEmail: Type.Union([Type.String({ format: 'email' }), Type.Null()]),
  rsvpStatus,
  ...stamps,
});
export const BookingMemberListView = Type.Array(BookingMemberView);

/** What anyone holding the confirmation code sees of a member: the name and the reply. */
export const PublicMemberView = Type.Pick(BookingMemberView, ['guestName', 'rsvpStatus'], {
  title: 'PublicBookingMember',
});
export const PublicMemberListView = Type.Array(PublicMemberView, { description: 'in the order they were added' });
/** What a public add or RSVP answers: the member as the caller described it. */
export const RepliedMemberView = Type.Pick(BookingMemberView, ['guestName', 'guestEmail', 'rsvpStatus'], {
  title: 'RepliedBookingMember',
});

export type ListBookingMembersQuery = Static<typeof ListBookingMembersQuery>;
export type AddBookingMemberBody = Static<typeof AddBookingMemberBody>;
export type UpdateBookingMemberBody = Static<typeof UpdateBookingMemberBody>;
export type AddMemberByCodeBody = Static<typeof AddMemberByCodeBody>;
export type RsvpBody = Static<typeof RsvpBody>;
