/**
 * Where automatic assignment seats a party (docs/optimizer.md, "Assignment"), and the booking hours
 * a stay without tables must lie within: what a create without tables (create.ts) and a guest's
 * change by code (shared/domain/online/byCode.ts) decide with. Pure, given the floor and, for a
 * re-seating, the solver. A module of its own so that what calls it bundles no more of the create.
 */
import { AppError, unprocessable } from '../../errors';
import type { CreateBookingBody } from '../../schemas/bookings';
import { chooseTables } from './assignment';
import { daySlots, inForce, overbookable, type AvailabilityRequest, type BookingAround } from './availability';
import { seatingFloor, type AssignmentFloor } from './floor';
import type { Move } from './optimizer';
import { reseatFloor, reseating } from './reseat';
import { openSpans, within } from './serviceHours';
import type { Solver } from './solver';
import { localDateTime, type Interval } from './time';

/** Slots the 409's "next available" times are re-seated for at most (each is one solve). */
const NEXT_AVAILABLE_RESEATS = 6;

/** What automatic assignment needs of the request. */
export type AssignmentRequest = Pick<CreateBookingBody, 'bookingDate' | 'guestCount' | 'seatImmediately'>;

/**
 * 422 on `/startTime` for a stay that does not lie within the booking hours (the settings'
 * `operatingHours`, else the location's): the slots availability marks `closed`. Pure. A create
 * without tables is held to it (docs/bookings.md, "Automatic assignment").
 */
export function assertWithinBookingHours(
  floor: Pick<AssignmentFloor, 'location' | 'settings'>,
  date: string,
  stay: Interval,
): void {
  const { location, settings } = floor;
  const zone = location.timezone;
  const open = openSpans(settings.operatingHours ?? location.operatingHours, date, zone);
  if (within(open, stay)) return;
  const at = (ms: number) => localDateTime(ms, zone).time;
  const hours = open.length > 0 ? open.map((s) => `${at(s.startMs)}-${at(s.endMs)}`).join(', ') : 'none';
  throw unprocessable(
    `Outside the booking hours: a stay from ${at(stay.startMs)} to ${at(stay.endMs)} on ${date} is not within them (${hours})`,
    [
      {
        path: '/startTime',
        message: `outside the booking hours: the stay ${at(stay.startMs)}-${at(stay.endMs)} does not lie within the hours around ${date} (${hours})`,
      },
    ],
  );
}

/** Where a party sits: its tables, and the bookings moved to free them (none unless it was re-seated). */
export interface PartyPlacement {
  tableIds: string[];
  moves: Move[];
}

/** A hold found since the floor was read (a table day's, or a walk-in's table with a party at it): every later attempt keeps clear of it. */
export type TakenHold = BookingAround;

/**
 * Automatic assignment's place for the stay (pure), on the floor as read plus `taken`: a free set
 * (assignment.ts: the fewest seats beyond the party, then the most of the floor left sellable,
 * among the sets availability counts, fit.ts partySets); else the party and the date's movable
 * bookings seated anew with the fewest moves (reseat.ts), for which it answers 'solve' when it is
 * not given the solver; else no table while the overbooking buffer has room; else 409 naming the
 * next available times of the date (a walk-in: no table is free now). No table at a location
 * without tables.
 */
export function assignedPlacement(
  floor: AssignmentFloor,
  input: AssignmentRequest,
  slot: Interval,
  taken: readonly TakenHold[] = [],
  nowMs = Date.now(),
  solver?: Solver,
): PartyPlacement | 'solve' {
  const { location, settings } = floor;
  // A location without tables does not seat by table: its bookings are taken without one, as before.
  if (floor.tables.length === 0) return { tableIds: [], moves: [] };
  const around = [...floor.bookings, ...(floor.offers ?? []), ...taken];
  const choice = chooseTables(
    seatingFloor({ ...floor, bookings: around, offers: [] }, input.bookingDate, input.guestCount),
    {
      guestCount: input.guestCount,
      stay: slot,
    },
  );
  if (choice) return { tableIds: [...choice.set.tableIds], moves: [] };
  if (!solver) return 'solve';
  const seating = reseatFloor(input.bookingDate, around, floor.tables, settings.bufferMinutes);
  const reseats = (stay: Interval) => reseating(solver, seating, { id: '', guestCount: input.guestCount, ...stay });
  const reseated = reseats(slot);
  if (reseated) return reseated;
  const at = localDateTime(slot.startMs, location.timezone);
  if (input.seatImmediately) {
    throw new AppError('CONFLICT', `No table that seats ${input.guestCount} is free now`, [
      {
        path: '/guestCount',
        message: `no free table or combination of tables seats ${input.guestCount} from ${at.time}`,
      },
    ]);
  }
  const request: AvailabilityRequest = {
    date: input.bookingDate,
    zone: location.timezone,
    nowMs,
    partySize: input.guestCount,
    rules: inForce(location.operatingHours, settings, floor.tables),
    bookings: around,
  };
  // The overbooking buffer takes the booking without a table while it has room (as availability offers the slot).
  if (taken.length === 0 && overbookable(request, slot)) return { tableIds: [], moves: [] };
  const next = nextAvailable(request, slot.startMs, (stay) => reseats(stay) !== undefined);
  const offer =
    next.length > 0 ? `; next available: ${next.map((n) => n.time).join(', ')}` : '; nothing later that day';
  throw new AppError(
    'CONFLICT',
    `No availability: no table or combination of tables that seats ${input.guestCount} is free on ${input.bookingDate} at ${at.time}${offer}`,
    [
      { path: '/startTime', message: `no table fits ${input.guestCount} at ${at.time}` },
      ...next.map((n) => ({ path: '/startTime', message: `available at ${n.time} (${n.startsAt})` })),
    ],
  );
}

/**
 * The next three slots after `afterMs` that availability offers: those free as the floor stands,
 * and those a re-seating frees, asked of the solver for at most NEXT_AVAILABLE_RESEATS slots.
 */
function nextAvailable(request: AvailabilityRequest, afterMs: number, reseats: (stay: Interval) => boolean) {
  let solves = 0;
  const found = [];
  for (const slot of daySlots(request)) {
    if (found.length === 3) break;
    if (Date.parse(slot.startsAt) <= afterMs) continue;
    const stay = { startMs: Date.parse(slot.startsAt), endMs: Date.parse(slot.endsAt) };
    const reseated =
      !slot.available && slot.reason === 'no_table_fits' && solves++ < NEXT_AVAILABLE_RESEATS && reseats(stay);
    if (slot.available || reseated) found.push(slot.available ? slot : { ...slot, available: true });
  }
  return found;
}
