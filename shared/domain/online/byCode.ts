/**
 * A guest's booking by its code (docs/online-booking.md): read it, and change its date, time or
 * party. Public: the code is the guest's credential (docs/access.md, “Codes”). A module apart from
 * the publishable key's operations (guest.ts), so the functions bundle only what they call.
 */
import { bookings } from '../../data/bookings';
import { conflict, notFound, unprocessable } from '../../errors';
import type { OnlineChangeBody } from '../../schemas/online';
import type { Static } from '../../schemas/typebox';
import { readFloor } from '../bookings/floor';
import { assertWithinBookingHours, assignedPlacement } from '../bookings/placement';
import { loadSolver } from '../bookings/solver';
import { publicBooking, type PublicBooking } from '../bookings/transitions';
import { changeBooking, slotAfter } from '../bookings/update';

/**
 * PATCH /api/v1/bookings/by-code/{code} (public): the guest changes the date, time or party of a
 * booking still to come, as staff's update would, under the same rules, but with the tables
 * automatic assignment chooses for the new stay (the booking itself set aside), so a larger party
 * gets a table that seats it. The stay keeps its length. Up to the location's
 * `cancellationPolicyHours` before the start, as a cancellation by code.
 */
export async function changeBookingByCode(
  code: string,
  input: Static<typeof OnlineChangeBody>,
): Promise<PublicBooking> {
  const found = await bookings.findByCode(code);
  if (!found) throw notFound('Booking');
  const { companyId, booking: prev } = found;
  if (prev.status !== 'pending' && prev.status !== 'confirmed')
    throw conflict(
      `A booking that is ${prev.status.replace('_', ' ')} can no longer be changed online; contact the restaurant`,
    );
  const date = input.bookingDate ?? prev.bookingDate;
  const startTime = input.startTime ?? prev.startTime;
  const guestCount = input.guestCount ?? prev.guestCount;
  if (date === prev.bookingDate && startTime === prev.startTime && guestCount === prev.guestCount)
    return publicBooking(prev);

  const floor = await readFloor(companyId, prev.locationId, date);
  const hours = floor.settings.cancellationPolicyHours;
  if (hours !== null && Date.parse(prev.startsAt) - Date.now() < hours * 3_600_000) {
    const message = `Bookings can be changed online up to ${hours} hours before they start; contact the restaurant`;
    throw unprocessable(message, [{ path: '/settings/cancellationPolicyHours', message }]);
  }
  const slot = slotAfter(prev, { bookingDate: date, startTime });
  const aside = { ...floor, bookings: floor.bookings.filter((b) => b.id !== prev.id) };
  assertWithinBookingHours(aside, date, slot);
  const request = { bookingDate: date, guestCount };
  let placed = assignedPlacement(aside, request, slot);
  if (placed === 'solve') placed = assignedPlacement(aside, request, slot, [], Date.now(), await loadSolver());
  if (placed === 'solve') throw new Error('assignment asked for the solver it was given');
  // Tables held by bookings that may move are taken as a re-seating moves them (update.ts).
  const changed = await changeBooking(companyId, prev, {
    bookingDate: date,
    startTime,
    guestCount,
    tableIds: placed.tableIds,
  });
  return publicBooking(changed);
}

/** GET /api/v1/bookings/by-code/{code} (public): the booking as its guest may see it; 404 for an unknown code. */
export async function getBookingByCode(code: string): Promise<PublicBooking> {
  const found = await bookings.findByCode(code);
  if (!found) throw notFound('Booking');
  return publicBooking(found.booking);
}
