/**
 * The booking, tab and dispatch statuses the bookings items store, for the data layer's types.
 *
 * Note: these unions belong in shared/schemas (branch `layering` moves them to
 * shared/schemas/bookingStates.ts). Until that lands on main they are defined by the domain's state
 * machines, and this is the one place shared/data reaches them (types only): when it lands, point
 * these re-exports at '../schemas/bookingStates' and the data layer imports nothing of the domain.
 */
export type { BookingStatus, TabStatus } from '../domain/bookings/states';
export type { DispatchStatus } from '../domain/bookings/dispatches';
