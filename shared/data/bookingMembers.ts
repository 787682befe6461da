/**
 * Booking members: the people of a booking's party and their RSVP. Items, all in the company's
 * partition and under the booking's sort-key prefix (docs/bookings.md):
 *
 *   member    pk C#<cid>  sk BOOKING#<bookingId>#MEMBER#<memberId>
 *   contact   pk C#<cid>  sk BOOKING#<bookingId>#MEMBERCONTACT#E#<email> | …#U#<userId>   (memberId)
 *   counter   pk C#<cid>  sk COUNT#MEMBER#B#<bookingId>                                  (n)
 *
 * A contact item makes an email or a user id a member of a booking at most once; the counter is
 * the list's total and bounds the party. Both are written in the transaction that adds the member,
 * beside a check that the booking still takes members, so concurrent adds cannot break either.
 */
import { Type, type Static } from '../schemas/typebox';
import { AppError, unprocessable } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import { BookingMemberView } from '../schemas/bookingMembers';
import { bookingGuardStep, type BookingGuard } from './bookings';
import { companyKey, defineEntity, extendView } from './entity';
import { keys } from './keys';
import { outboxStep } from './outbox';
import { queryAll, type PageRequest } from './paging';
import { putNewStep, transact, updateStep } from './transact';

/** A member as staff see it (`userId` null for a member known only by name and email): declared by BookingMemberView. */
export type BookingMember = Static<typeof BookingMemberView>;

/**
 * A member as stored: with its booking's location, which decides which credentials may touch it,
 * and whether its reply was given by a code holder naming its email (`replyByEmail`: only such a
 * reply may an RSVP change; docs/booking-members.md). Items written before it have none: false.
 */
const StoredMember = extendView(BookingMemberView, {
  locationId: Type.Integer(),
  replyByEmail: Type.Optional(Type.Boolean()),
});
export type StoredMember = Static<typeof StoredMember>;

/** The booking stopped taking member changes (cancelled, completed or no-show), or its party size changed, after it was read. */
export class BookingClosed extends AppError {
  constructor() {
    super('CONFLICT', 'The booking was closed or changed by another request meanwhile; read it again and retry');
  }
}

/** The member's email or user is already a member of the booking. */
export class AlreadyMember extends AppError {
  constructor() {
    super('CONFLICT', 'This person is already a member of the booking');
  }
}

/** An add's bounds: the booking's guard and the most members it may hold. */
export interface MemberAddGuard extends BookingGuard {
  guestCount: number;
  limit: number;
}

const membersPrefix = (bookingId: string) => `BOOKING#${bookingId}#MEMBER#`;
const counterKey = (companyId: number, bookingId: string) => companyKey(companyId, `COUNT#MEMBER#B#${bookingId}`);

const memberEntity = defineEntity({
  name: 'BOOKING_MEMBER',
  label: 'member',
  key: (companyId: number, bookingId: string, memberId: string) =>
    companyKey(companyId, `${membersPrefix(bookingId)}${memberId}`),
  schema: StoredMember,
  keyOf: (companyId, m) => [companyId, m.bookingId, m.id] as const,
});

/** The uniqueness items of a member: one per email and one per user id it has. */
function contactKeys(companyId: number, m: Pick<BookingMember, 'bookingId' | 'userId' | 'guestEmail'>) {
  const prefix = `BOOKING#${m.bookingId}#MEMBERCONTACT#`;
  const sks = [
    m.guestEmail === null ? null : `${prefix}E#${m.guestEmail}`,
    m.userId === null ? null : `${prefix}U#${m.userId}`,
  ];
  return sks.filter((sk): sk is string => sk !== null).map((sk) => companyKey(companyId, sk));
}

/** The booking is still as the guard says (docs/bookings.md gives its key and attributes). */
const guarded = (companyId: number, bookingId: string, guard: BookingGuard) =>
  bookingGuardStep(companyId, bookingId, guard, () => new BookingClosed());

export const bookingMembers = {
  get: memberEntity.get,

  /** The booking's members in id order: one Query per page, the total from the booking's member counter. */
  list(companyId: number, bookingId: string, page: PageRequest): Promise<Page<StoredMember>> {
    return memberEntity.list(
      {
        partition: keys.company(companyId),
        prefix: membersPrefix(bookingId),
        counter: counterKey(companyId, bookingId),
      },
      page,
    );
  },

  /**
   * Every member of the booking, in id order, strongly consistent: one Query (a party is bounded,
   * so this is a few kilobytes; DynamoDB pages at 1 MB, and further pages are read if ever needed).
   */
  async all(companyId: number, bookingId: string): Promise<StoredMember[]> {
    const items = await queryAll({
      partition: keys.company(companyId),
      range: { op: 'begins_with', value: membersPrefix(bookingId) },
      consistent: true,
    });
    return items.map(memberEntity.from);
  },

  /**
   * Adds the member, its contact items, one to the counter and the event at once, while the booking
   * is as the guard says and holds fewer than `guard.limit` members. Refusals: the booking closed
   * or changed (BookingClosed, 409), the email or user already a member (AlreadyMember, 409), the
   * party full (422).
   */
  async add(companyId: number, m: StoredMember, guard: MemberAddGuard, event: DomainEvent): Promise<void> {
    await transact([
      guarded(companyId, m.bookingId, guard),
      memberEntity.newItemStep(companyId, m),
      ...contactKeys(companyId, m).map((key) =>
        putNewStep({ ...key, entity: 'BOOKING_MEMBER_CONTACT', companyId, memberId: m.id }, () => new AlreadyMember()),
      ),
      updateStep(
        counterKey(companyId, m.bookingId),
        { entity: 'COUNTER' },
        {
          add: { n: 1 },
          condition: { expression: 'attribute_not_exists(n) OR n < :limit', values: { ':limit': guard.limit } },
          onConditionFailed: () =>
            unprocessable(`A booking for ${guard.guestCount} guests can have at most ${guard.limit} members`),
        },
      ),
      outboxStep(event),
    ]);
  },

  /** Replaces the member if nobody changed it since `expectedVersion` was read and the booking is as the guard says. */
  async update(
    companyId: number,
    next: StoredMember,
    expectedVersion: number,
    guard: BookingGuard,
    event: DomainEvent,
  ): Promise<void> {
    await transact([
      guarded(companyId, next.bookingId, guard),
      memberEntity.versionedPutStep(companyId, next, expectedVersion),
      outboxStep(event),
    ]);
  },
};
