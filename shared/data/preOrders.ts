/**
 * A booking's pre-order: the items ordered ahead of the visit, and — once seating sent them to the
 * kitchen — what that order is made of (docs/bookings.md#data).
 *
 *   pre-order   C#<cid> / PREORDER#<bookingId>   items, seating {orderId, tabId, dispatches}, version
 *
 * Keyed by the booking, so an operation reads it in the same round trip as the booking. `seating`
 * keeps what never changes of the seating's order (its dispatches' ids, coursings and lines), so
 * unseating reverses that order by a condition on its dispatches' statuses instead of reading it.
 * Absent until a pre-order is set: no items, version null.
 */
import { Type, type Static } from '../schemas/typebox';
import { conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { ReadRequest } from './batch';
import { bookingGuardStep, type BookingGuard } from './bookings';
import { OrderLineView } from '../schemas/bookings';
import { Nullable } from '../schemas/common';
import { SlotClaim, slotCountStep, type SlotCountMove } from './capacitySettings';
import { companyKey, defineEntity } from './entity';
import { coursingCheckStep, type CoursingCheck, type OrderLine } from './orders';
import { outboxStep } from './outbox';
import { atVersion, checkStep, transact, updateStep, type Condition, type Step } from './transact';

/** The order seating made of the pre-order, as unseating needs it. */
const SeatingOrder = Type.Object({
  orderId: Type.String(),
  tabId: Type.String(),
  dispatches: Type.Array(
    Type.Object({ id: Type.String(), coursingId: Nullable(Type.String()), items: Type.Array(OrderLineView) }),
  ),
});
export type SeatingOrder = Static<typeof SeatingOrder>;

/** A booking's pre-order as stored (the API shows PreOrderView, which the domain makes of it). */
const PreOrder = Type.Object({
  bookingId: Type.String(),
  items: Type.Array(OrderLineView),
  seating: Nullable(SeatingOrder),
  /** Where its items are counted: the slot of the booking's start under the setting in force then (null: nowhere). */
  capacityClaim: Nullable(SlotClaim),
  /** null: no pre-order was ever set. */
  version: Nullable(Type.Integer()),
});
export type PreOrder = Static<typeof PreOrder>;

const preOrderEntity = defineEntity({
  name: 'PRE_ORDER',
  label: 'pre-order',
  key: (companyId: number, bookingId: string) => companyKey(companyId, `PREORDER#${bookingId}`),
  schema: PreOrder,
  keyOf: (companyId, p) => [companyId, p.bookingId] as const,
});

/** The pre-order as read: still at the version read (null: still absent). */
const asRead = (expectedVersion: number | null): Condition =>
  expectedVersion === null ? { expression: 'attribute_not_exists(pk)' } : atVersion(expectedVersion);
const changed = () =>
  conflict("The booking's pre-order was changed by another request; read the booking again and retry");

export const preOrders = {
  /** A read of the booking's pre-order (absent: empty), to send with the booking in one round trip. */
  read(companyId: number, bookingId: string): ReadRequest<PreOrder> {
    const request = preOrderEntity.read(companyId, bookingId);
    return {
      keys: request.keys,
      answer: (found) => {
        const stored = request.answer(found);
        return stored
          ? { ...stored, seating: stored.seating ?? null, capacityClaim: stored.capacityClaim ?? null }
          : { bookingId, items: [], seating: null, capacityClaim: null, version: null };
      },
    };
  },

  /**
   * Replaces the pre-order read at `when.expectedVersion` (409 if another request changed it
   * since: its count in a slot would go wrong), with the event, while the booking is in one of
   * `statuses` and every coursing named is the location's. `claim` records where its items are
   * counted now; `slotMoves` move the slot counters from the claim read to it.
   */
  async set(
    companyId: number,
    bookingId: string,
    items: OrderLine[],
    when: {
      statuses: BookingGuard['statuses'];
      coursings: readonly CoursingCheck[];
      at: string;
      expectedVersion: number | null;
      claim: SlotClaim | null;
      slotMoves: readonly SlotCountMove[];
    },
    event: DomainEvent,
  ): Promise<void> {
    await transact([
      bookingGuardStep(companyId, bookingId, { statuses: when.statuses }, () =>
        conflict('The booking was seated or changed by another request; read it again and retry'),
      ),
      updateStep(
        preOrderEntity.key(companyId, bookingId),
        {
          entity: 'PRE_ORDER',
          companyId,
          bookingId,
          items,
          capacityClaim: when.claim ?? undefined,
          updatedAt: when.at,
        },
        {
          add: { version: 1 },
          condition: asRead(when.expectedVersion),
          onConditionFailed: changed,
        },
      ),
      ...when.coursings.map((c) => coursingCheckStep(companyId, c)),
      ...when.slotMoves.map((m) => slotCountStep(companyId, m)),
      outboxStep(event),
    ]);
  },

  /** Holds while the pre-order is as it was read (what seating sends must be what it read). */
  unchangedStep(companyId: number, p: PreOrder): Step {
    return checkStep(preOrderEntity.key(companyId, p.bookingId), asRead(p.version), changed);
  },

  /** Records (or, with null, clears) the seating's order, on the pre-order as it was read. */
  seatingStep(companyId: number, p: PreOrder, seating: SeatingOrder | null, at: string): Step {
    return updateStep(
      preOrderEntity.key(companyId, p.bookingId),
      {
        entity: 'PRE_ORDER',
        companyId,
        bookingId: p.bookingId,
        items: p.items,
        seating: seating ?? undefined,
        updatedAt: at,
      },
      {
        add: { version: 1 },
        condition: asRead(p.version),
        onConditionFailed: changed,
      },
    );
  },
};
