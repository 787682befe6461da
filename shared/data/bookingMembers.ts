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
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { BookingStatus } from '../domain/bookings/states';
import { AppError, unprocessable } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { Page } from '../page';
import type { RsvpStatus } from '../schemas/bookingMembers';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { listPage, queryAll, type PageRequest } from './paging';
import { transact, versionedPutStep, type Step } from './transact';
import { outboxStep } from './outbox';

export interface BookingMember {
  id: string;
  bookingId: string;
  /** The guest user the member is, or null for a member known only by name (and email). */
  userId: number | null;
  guestName: string;
  guestEmail: string | null;
  rsvpStatus: RsvpStatus;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** A member as stored: with its booking's location, which decides which credentials may touch it. */
export interface StoredMember extends BookingMember {
  locationId: number;
}

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

/** What the booking must still be for a member change to commit. */
export interface BookingGuard {
  /** The statuses in which the booking takes member changes. */
  statuses: readonly BookingStatus[];
  /** The party size a member limit was computed from: the booking must still have it. */
  guestCount?: number;
}

/** An add's bounds: the booking's guard and the most members it may hold. */
export interface MemberAddGuard extends BookingGuard {
  guestCount: number;
  limit: number;
}

type Item = Record<string, unknown>;

const storedFields = ['id', 'bookingId', 'userId', 'guestName', 'guestEmail', 'rsvpStatus', 'version', 'createdAt', 'updatedAt', 'locationId'] as const;
const toStored = (i: Item) => pick<StoredMember>(i, storedFields);

const partition = (companyId: number) => keys.company(companyId);
const membersPrefix = (bookingId: string) => `BOOKING#${bookingId}#MEMBER#`;
const memberKey = (companyId: number, bookingId: string, memberId: string) => ({ pk: partition(companyId), sk: `${membersPrefix(bookingId)}${memberId}` });
const counterKey = (companyId: number, bookingId: string) => ({ pk: partition(companyId), sk: `COUNT#MEMBER#B#${bookingId}` });

/** The uniqueness items of a member: one per email and one per user id it has. */
function contactKeys(companyId: number, m: Pick<BookingMember, 'bookingId' | 'userId' | 'guestEmail'>) {
  const prefix = `BOOKING#${m.bookingId}#MEMBERCONTACT#`;
  const sks = [m.guestEmail === null ? null : `${prefix}E#${m.guestEmail}`, m.userId === null ? null : `${prefix}U#${m.userId}`];
  return sks.filter((sk): sk is string => sk !== null).map((sk) => ({ pk: partition(companyId), sk }));
}

const memberItem = (companyId: number, m: StoredMember): Item => ({ ...memberKey(companyId, m.bookingId, m.id), entity: 'BOOKING_MEMBER', companyId, ...m });

/** Holds while the booking is as the guard says (docs/bookings.md gives its key and attributes). */
function bookingGuardStep(companyId: number, bookingId: string, guard: BookingGuard): Step {
  const statuses = Object.fromEntries(guard.statuses.map((s, i) => [`:s${i}`, s]));
  const values: Item = guard.guestCount === undefined ? statuses : { ...statuses, ':gc': guard.guestCount };
  return {
    item: {
      ConditionCheck: {
        TableName: tableName(),
        Key: { pk: partition(companyId), sk: `BOOKING#${bookingId}` },
        ConditionExpression: `attribute_exists(pk) AND #status IN (${Object.keys(statuses).join(', ')})${guard.guestCount === undefined ? '' : ' AND guestCount = :gc'}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: () => new BookingClosed(),
  };
}

export const bookingMembers = {
  async get(companyId: number, bookingId: string, memberId: string): Promise<StoredMember | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: memberKey(companyId, bookingId, memberId) }));
      return out.Item ? toStored(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /** The booking's members in id order: one Query per page, the total from the booking's member counter. */
  list(companyId: number, bookingId: string, page: PageRequest): Promise<Page<StoredMember>> {
    return listPage({ partition: partition(companyId), prefix: membersPrefix(bookingId), counter: counterKey(companyId, bookingId) }, page, toStored);
  },

  /**
   * Every member of the booking, in id order, strongly consistent: one Query (a party is bounded,
   * so this is a few kilobytes; DynamoDB pages at 1 MB, and further pages are read if ever needed).
   */
  async all(companyId: number, bookingId: string): Promise<StoredMember[]> {
    const items = await queryAll({ partition: partition(companyId), range: { op: 'begins_with', value: membersPrefix(bookingId) }, consistent: true });
    return items.map(toStored);
  },

  /**
   * Adds the member, its contact items, one to the counter and the event at once, while the booking
   * is as the guard says and holds fewer than `guard.limit` members. Refusals: the booking closed
   * or changed (BookingClosed, 409), the email or user already a member (AlreadyMember, 409), the
   * party full (422).
   */
  async add(companyId: number, m: StoredMember, guard: MemberAddGuard, event: DomainEvent): Promise<void> {
    const put = (item: Item): Step['item'] => ({ Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } });
    await transact([
      bookingGuardStep(companyId, m.bookingId, guard),
      { item: put(memberItem(companyId, m)) },
      ...contactKeys(companyId, m).map((key) => ({
        item: put({ ...key, entity: 'BOOKING_MEMBER_CONTACT', companyId, memberId: m.id }),
        onConditionFailed: () => new AlreadyMember(),
      })),
      {
        item: {
          Update: {
            TableName: tableName(),
            Key: counterKey(companyId, m.bookingId),
            UpdateExpression: 'ADD n :one SET entity = :e',
            ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
            ExpressionAttributeValues: { ':one': 1, ':e': 'COUNTER', ':limit': guard.limit },
          },
        },
        onConditionFailed: () => unprocessable(`A booking for ${guard.guestCount} guests can have at most ${guard.limit} members`),
      },
      outboxStep(event),
    ]);
  },

  /** Replaces the member if nobody changed it since `expectedVersion` was read and the booking is as the guard says. */
  async update(companyId: number, next: StoredMember, expectedVersion: number, guard: BookingGuard, event: DomainEvent): Promise<void> {
    await transact([
      bookingGuardStep(companyId, next.bookingId, guard),
      versionedPutStep(memberItem(companyId, next), expectedVersion, 'member'),
      outboxStep(event),
    ]);
  },
};
