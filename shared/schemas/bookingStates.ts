/**
 * The statuses the contract names for bookings, tabs and kitchen dispatches. Plain values: the
 * schemas accept them, the domain's state machines (shared/domain/bookings/states.ts,
 * dispatches.ts) move between them, and importing them loads no schema.
 */
export const bookingStatuses = [
  'pending',
  'confirmed',
  'checked_in',
  'seated',
  'completed',
  'cancelled',
  'no_show',
] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

/** Bookings that still hold their tables and count as the guest's active bookings. */
export const activeStatuses: readonly BookingStatus[] = ['pending', 'confirmed', 'checked_in', 'seated'];

export const tabStatuses = ['pre_arrival', 'open', 'closed'] as const;
export type TabStatus = (typeof tabStatuses)[number];

export const dispatchStatuses = ['pending', 'accepted', 'preparing', 'ready', 'served', 'reversed'] as const;
export type DispatchStatus = (typeof dispatchStatuses)[number];

/** The statuses a kitchen moves a dispatch through, in order (`reversed` comes only from unseating). */
export const kitchenFlow = [
  'pending',
  'accepted',
  'preparing',
  'ready',
  'served',
] as const satisfies readonly DispatchStatus[];
export type KitchenStatus = (typeof kitchenFlow)[number];

/** Why a slot of the availability answer cannot be booked (docs/availability.md). */
export const slotReasons = [
  'closed',
  'group_schedule',
  'party_size',
  'too_soon',
  'too_far_ahead',
  'guest_limit',
  'no_table_fits',
  'selling_policy',
] as const;
export type SlotReason = (typeof slotReasons)[number];
