/**
 * Booking members and RSVPs: the people of a booking's party and their replies. Staff manage them
 * by booking id; anyone holding the booking's confirmation code may read the party's names and
 * replies, add someone, or answer for an email.
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { BookingClosed, bookingMembers, type BookingMember, type StoredMember } from '../data/bookingMembers';
import { bookings, type Booking } from '../data/bookings';
import { guests } from '../data/guests';
import { AppError, conflict, notFound, validationFailed, type FieldProblem } from '../errors';
import { newEvent } from '../events/catalog';
import { Page } from '../page';
import type {
  AddBookingMemberBody,
  AddMemberByCodeBody,
  ListBookingMembersQuery,
  RsvpBody,
  RsvpStatus,
  UpdateBookingMemberBody,
} from '../schemas/bookingMembers';
import { assertLocationAllowed } from './access';
import { activeStatuses } from './bookings/states';
import { normalizeEmail } from './contact';

/** Members a booking may have beyond its guest count: declines, maybes and plus-ones. */
const MEMBER_ALLOWANCE = 10;

/** The most members a booking for `guestCount` guests may have. */
export const memberLimit = (guestCount: number): number => guestCount + MEMBER_ALLOWANCE;

/** What anyone holding the confirmation code sees of a member: no email, no user id, no member id. */
export interface PublicMember {
  guestName: string;
  rsvpStatus: RsvpStatus;
}

/** What a public add or RSVP answers: the member as the caller described it. */
export interface RepliedMember extends PublicMember {
  guestEmail: string | null;
}

/** Who a new member is: a guest user of the company, or a name with an optional email. */
interface MemberContact {
  userId: number | null;
  guestName: string;
  guestEmail: string | null;
}

/** What an add asks for: a guest user by id (its name and email are looked up), or a member by name. */
export type MemberRequest = { userId: number } | (MemberContact & { userId: null });

/** Names are kept trimmed, inner runs of white space made one space (as guests' names are). */
export const normalizeName = (name: string): string => name.trim().replace(/\s+/g, ' ');

/** A member known by name: the name normalized, the email lower-cased. */
const named = (guestName: string, guestEmail: string | undefined): MemberContact & { userId: null } => ({
  userId: null,
  guestName: normalizeName(guestName),
  guestEmail: guestEmail === undefined ? null : normalizeEmail(guestEmail),
});

/**
 * Who the add names: `userId` alone (the member takes the guest's name and email), or `guestName`
 * with an optional `guestEmail`. 400 naming the fields otherwise.
 */
export function memberRequest(input: Pick<AddBookingMemberBody, 'userId' | 'guestName' | 'guestEmail'>): MemberRequest {
  const problems: FieldProblem[] = [];
  if (input.userId !== undefined) {
    if (input.guestName !== undefined)
      problems.push({ path: '/guestName', message: 'give either userId or guestName, not both' });
    if (input.guestEmail !== undefined)
      problems.push({ path: '/guestEmail', message: 'a user member takes the email of the guest user' });
  } else if (input.guestName === undefined) {
    problems.push(
      { path: '/userId', message: 'userId or guestName is required' },
      { path: '/guestName', message: 'userId or guestName is required' },
    );
  }
  if (problems.length) throw validationFailed('The member is not valid', problems);
  return input.userId !== undefined ? { userId: input.userId } : named(input.guestName!, input.guestEmail);
}

/**
 * A guest user of the company as a member: its name and email (404 naming userId when the company
 * has no such user). A guest created without a name is "Guest": never its email or phone, which the
 * party's public list would show.
 */
async function guestContact(companyId: number, userId: number): Promise<MemberContact> {
  const guest = await guests.get(companyId, userId);
  if (!guest)
    throw new AppError('NOT_FOUND', `User ${userId} not found`, [
      { path: '/userId', message: 'is not a guest user of the company' },
    ]);
  return { userId: guest.id, guestName: guest.name ?? 'Guest', guestEmail: guest.email };
}

/** The member as the API shows it to staff (the stored location and the reply's origin are bookkeeping). */
export function memberResource(m: StoredMember): BookingMember {
  const { locationId: _location, replyByEmail: _byEmail, ...member } = m;
  return member;
}

export const publicMember = (m: BookingMember): PublicMember => ({ guestName: m.guestName, rsvpStatus: m.rsvpStatus });
const repliedMember = (m: BookingMember): RepliedMember => ({
  guestName: m.guestName,
  guestEmail: m.guestEmail,
  rsvpStatus: m.rsvpStatus,
});

/** Members change only while the booking is active; a cancelled, completed or no-show booking's party is final. */
function assertTakesMembers(booking: Booking): void {
  if (!activeStatuses.includes(booking.status)) {
    throw conflict(`The booking is ${booking.status.replace('_', ' ')}: its members cannot change`);
  }
}

async function bookingById(principal: Principal, bookingId: string): Promise<Booking> {
  const booking = await bookings.get(principal.companyId, bookingId);
  if (!booking) throw notFound('Booking');
  assertLocationAllowed(principal, booking.locationId);
  return booking;
}

/** The booking of a confirmation code: 404 for a code no booking has, whatever else is true. */
async function bookingByCode(code: string): Promise<{ companyId: number; booking: Booking }> {
  const found = await bookings.findByCode(code);
  if (!found) throw notFound('Booking');
  return found;
}

/**
 * Who gave a reply: staff (by id), or a code holder naming the member's email (an RSVP, a public
 * add with an email). Only a code holder's reply by email may an RSVP change.
 */
type ReplyOrigin = 'staff' | 'byEmail';

async function addMember(
  companyId: number,
  booking: Booking,
  contact: MemberContact,
  rsvpStatus: RsvpStatus,
  origin: ReplyOrigin,
): Promise<StoredMember> {
  assertTakesMembers(booking);
  const now = new Date().toISOString();
  const member: StoredMember = {
    id: randomUUID(),
    bookingId: booking.id,
    ...contact,
    rsvpStatus,
    version: 1,
    createdAt: now,
    updatedAt: now,
    locationId: booking.locationId,
    replyByEmail: origin === 'byEmail' && contact.guestEmail !== null,
  };
  const event = newEvent(companyId, 'booking-member.added', member.id, { ...memberResource(member) });
  const guard = { statuses: activeStatuses, guestCount: booking.guestCount, limit: memberLimit(booking.guestCount) };
  await bookingMembers.add(companyId, member, guard, event);
  return member;
}

/** Sets the member's reply; a reply that changes nothing writes nothing. */
async function setReply(
  companyId: number,
  current: StoredMember,
  rsvpStatus: RsvpStatus,
  origin: ReplyOrigin,
): Promise<StoredMember> {
  if (current.rsvpStatus === rsvpStatus) return current;
  const next: StoredMember = {
    ...current,
    rsvpStatus,
    version: current.version + 1,
    updatedAt: new Date().toISOString(),
    replyByEmail: origin === 'byEmail',
  };
  const event = newEvent(companyId, 'booking-member.updated', next.id, { ...memberResource(next) }, { rsvpStatus });
  await bookingMembers.update(companyId, next, current.version, { statuses: activeStatuses }, event);
  return next;
}

export async function listBookingMembers(
  principal: Principal,
  bookingId: string,
  query: ListBookingMembersQuery,
): Promise<Page<BookingMember>> {
  const page = await bookingMembers.list(principal.companyId, bookingId, query);
  // Members carry their booking's location; only an empty page needs the booking (404 or its location).
  const first = page.items[0];
  if (first) assertLocationAllowed(principal, first.locationId);
  else await bookingById(principal, bookingId);
  return new Page(page.items.map(memberResource), page.pagination);
}

export async function addBookingMember(
  principal: Principal,
  bookingId: string,
  input: AddBookingMemberBody,
): Promise<BookingMember> {
  const request = memberRequest(input);
  const [booking, contact] = await Promise.all([
    bookingById(principal, bookingId),
    request.userId === null ? request : guestContact(principal.companyId, request.userId),
  ]);
  return memberResource(await addMember(principal.companyId, booking, contact, input.rsvpStatus ?? 'invited', 'staff'));
}

export async function updateBookingMember(
  principal: Principal,
  bookingId: string,
  memberId: string,
  input: UpdateBookingMemberBody,
): Promise<BookingMember> {
  const current = await bookingMembers.get(principal.companyId, bookingId, memberId);
  if (!current) throw notFound('Booking member');
  assertLocationAllowed(principal, current.locationId);
  return memberResource(await setReply(principal.companyId, current, input.rsvpStatus, 'staff'));
}

/**
 * The party's names and replies, for anyone holding the code, in the order they were added. Not
 * paged: a party is bounded (memberLimit), and a cursor would carry the booking's internal keys.
 */
export async function listMembersByCode(code: string): Promise<PublicMember[]> {
  const { companyId, booking } = await bookingByCode(code);
  const members = await bookingMembers.all(companyId, booking.id);
  return members.sort(byAddition).map(publicMember);
}

const byAddition = (a: BookingMember, b: BookingMember) =>
  a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export async function addMemberByCode(code: string, input: AddMemberByCodeBody): Promise<RepliedMember> {
  const { companyId, booking } = await bookingByCode(code);
  const contact = named(input.guestName, input.guestEmail);
  return repliedMember(await addMember(companyId, booking, contact, input.rsvpStatus ?? 'invited', 'byEmail'));
}

/** Attempts of an RSVP that keeps meeting concurrent changes of the same member. */
const RSVP_ATTEMPTS = 4;
const pause = (attempt: number) => new Promise((r) => setTimeout(r, 2 ** attempt * 10 + Math.random() * 20));

/**
 * Whether an RSVP naming the member's email may set its reply: it has none yet (`invited`), or its
 * reply was given by a code holder naming that same email. A reply staff gave is staff's to change.
 */
const answerableByEmail = (m: StoredMember): boolean => m.rsvpStatus === 'invited' || m.replyByEmail === true;

/** An RSVP for a member whose reply staff gave. */
class StaffReply extends AppError {
  constructor() {
    super(
      'CONFLICT',
      'The reply for this email was given by the restaurant, not by an RSVP with this email: only the restaurant can change it',
    );
  }
}

/**
 * Answers for the member with this email (any case), adding one when the booking has none. The
 * answer is what the caller sent (their name, their email, their reply), never what is stored: the
 * stored name is kept and not shown, so an RSVP cannot be used to learn who an email belongs to. A
 * member whose reply staff gave is not changed: 409 (docs/booking-members.md). Concurrent RSVPs for
 * one email make one member: the loser of the race finds the winner's member and sets its reply.
 */
export async function rsvp(input: RsvpBody): Promise<RepliedMember> {
  const { companyId, booking } = await bookingByCode(input.confirmationCode);
  assertTakesMembers(booking);
  const contact = named(input.guestName, input.guestEmail);
  for (let attempt = 1; ; attempt++) {
    try {
      const current = (await bookingMembers.all(companyId, booking.id)).find(
        (m) => m.guestEmail === contact.guestEmail,
      );
      if (current && !answerableByEmail(current)) throw new StaffReply();
      if (current) await setReply(companyId, current, input.rsvpStatus, 'byEmail');
      else await addMember(companyId, booking, contact, input.rsvpStatus, 'byEmail');
      return { guestName: contact.guestName, guestEmail: contact.guestEmail, rsvpStatus: input.rsvpStatus };
    } catch (err) {
      // Another request added or changed this member meanwhile: read again and apply the reply to it.
      const raced =
        err instanceof AppError &&
        err.code === 'CONFLICT' &&
        !(err instanceof BookingClosed) &&
        !(err instanceof StaffReply);
      if (!raced || attempt === RSVP_ATTEMPTS) throw err;
      await pause(attempt);
    }
  }
}
