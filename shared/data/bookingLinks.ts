/**
 * The items that show a booking from its tables and its guest (docs/bookings.md#data):
 *
 *   table link    C#<cid>#TABLE#<tableId>#BOOKINGS / <date>#<HH:MM>#<bookingId>
 *   guest link    C#<cid>#USER#<userId>#BOOKINGS / <date>#<HH:MM>#<bookingId>
 *   active count  C#<cid>#USER#<userId>#ACTIVE / L#<loc:12>   n: the guest's active bookings there
 *
 * Links are what lists by table or by guest read; they follow the booking's date, time, tables and
 * guest in every transaction that changes one of them.
 */
import type { AppError } from '../errors';
import type { ReadRequest } from './batch';
import { keys } from './keys';
import { deleteStep, putStep, updateStep, type Step } from './transact';

/** What the links of a booking are made of. */
interface Linked {
  id: string;
  bookingDate: string;
  startTime: string;
  tableIds: readonly string[];
  primaryUserId: number | null;
}

/** Lists sort by local date, then wall time, then id (the booking's index keys use the same). */
export const listSortKey = (b: Pick<Linked, 'bookingDate' | 'startTime' | 'id'>) =>
  `${b.bookingDate}#${b.startTime}#${b.id}`;

/** A list read from links. */
export type LinkSource = { by: 'table'; tableId: string } | { by: 'guest'; userId: number };

export const linkSource = (companyId: number, s: LinkSource) =>
  s.by === 'table'
    ? `${keys.company(companyId)}#TABLE#${s.tableId}#BOOKINGS`
    : `${keys.company(companyId)}#USER#${s.userId}#BOOKINGS`;

function linkKeys(companyId: number, b: Linked): { pk: string; sk: string }[] {
  const sources: LinkSource[] = b.tableIds.map((tableId) => ({ by: 'table', tableId }));
  if (b.primaryUserId !== null) sources.push({ by: 'guest', userId: b.primaryUserId });
  return sources.map((s) => ({ pk: linkSource(companyId, s), sk: listSortKey(b) }));
}

/** The link items that go and come between two states of a booking (`prev` undefined: a new one). */
export function linkSteps(companyId: number, prev: Linked | undefined, next: Linked): Step[] {
  const id = (k: { pk: string; sk: string }) => `${k.pk}|${k.sk}`;
  const before = prev ? linkKeys(companyId, prev) : [];
  const after = linkKeys(companyId, next);
  return [
    ...before.filter((k) => !after.some((a) => id(a) === id(k))).map((k) => deleteStep(k)),
    ...after
      .filter((k) => !before.some((b) => id(b) === id(k)))
      .map((k) => putStep({ ...k, entity: 'BOOKING_LINK', companyId, bookingId: next.id })),
  ];
}

/** A change of a guest's count of active bookings at a location; an increase may be capped (the count must stay below `max`). */
export interface ActiveBookingsChange {
  delta: number;
  cap?: { max: number; error: () => AppError } | undefined;
}

const activeKey = (companyId: number, guestId: number, locationId: number) => ({
  pk: `${keys.company(companyId)}#USER#${guestId}#ACTIVE`,
  sk: `L#${keys.pad(locationId)}`,
});

/** A read of the guest's count of active bookings at the location (0 before the first), to send with others in one round trip. */
export function activeBookingsRead(companyId: number, guestId: number, locationId: number): ReadRequest<number> {
  const key = activeKey(companyId, guestId, locationId);
  return { keys: [key], answer: (found) => (found.get(key)?.n as number | undefined) ?? 0 };
}

/** Adds the change to the guest's count at the location (the item appears on first use). */
export function activeBookingsStep(
  companyId: number,
  guestId: number,
  locationId: number,
  change: ActiveBookingsChange,
): Step {
  const cap = change.delta > 0 ? change.cap : undefined;
  const key = activeKey(companyId, guestId, locationId);
  return updateStep(
    key,
    { entity: 'GUEST_ACTIVE_BOOKINGS' },
    {
      add: { n: change.delta },
      ...(cap
        ? {
            condition: { expression: 'attribute_not_exists(n) OR n < :max', values: { ':max': cap.max } },
            onConditionFailed: cap.error,
          }
        : {}),
    },
  );
}
