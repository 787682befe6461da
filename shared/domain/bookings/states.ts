/**
 * The booking and tab state machines (docs/bookings.md, “States”). Pure: callers load the booking, ask for
 * the next state, and write it with a condition on the state they read.
 */
import { conflict } from '../../errors';
import type { BookingStatus, TabStatus } from '../../schemas/bookingStates';

export {
  activeStatuses,
  bookingStatuses,
  tabStatuses,
  type BookingStatus,
  type TabStatus,
} from '../../schemas/bookingStates';

export type BookingOperation = 'confirm' | 'check-in' | 'seat' | 'unseat' | 'complete' | 'no-show' | 'cancel';

/** Where each operation may start from, and where it leads (unseat: back to where seating began). */
const transitions: Record<
  Exclude<BookingOperation, 'unseat' | 'cancel'>,
  { from: readonly BookingStatus[]; to: BookingStatus }
> = {
  confirm: { from: ['pending'], to: 'confirmed' },
  'check-in': { from: ['confirmed'], to: 'checked_in' },
  seat: { from: ['confirmed', 'checked_in'], to: 'seated' },
  complete: { from: ['seated'], to: 'completed' },
  'no-show': { from: ['confirmed', 'checked_in'], to: 'no_show' },
};

/** Statuses a booking can be seated from, and so return to when unseated. */
const seatableStatuses: readonly BookingStatus[] = transitions.seat.from;

export interface Transition {
  to: BookingStatus;
  /** False when the operation leaves the booking as it was (cancelling a cancelled booking). */
  changed: boolean;
}

/**
 * The status after `operation`, or CONFLICT naming the refused transition. `beforeSeating` is the
 * status the booking had when it was seated (required to unseat).
 */
export function nextStatus(
  current: BookingStatus,
  operation: BookingOperation,
  beforeSeating?: BookingStatus | null,
): Transition {
  if (operation === 'cancel') return { to: 'cancelled', changed: current !== 'cancelled' };
  if (operation === 'unseat') {
    if (current !== 'seated') throw refused(current, operation);
    if (!beforeSeating || !seatableStatuses.includes(beforeSeating))
      throw new Error(`seated booking without a valid status before seating (${beforeSeating})`);
    return { to: beforeSeating, changed: true };
  }
  const rule = transitions[operation];
  if (!rule.from.includes(current)) throw refused(current, operation);
  return { to: rule.to, changed: true };
}

const refused = (current: BookingStatus, operation: BookingOperation) =>
  conflict(`A booking that is ${current.replace('_', ' ')} cannot be ${pastTense[operation]}`);

const pastTense: Record<BookingOperation, string> = {
  confirm: 'confirmed',
  'check-in': 'checked in',
  seat: 'seated',
  unseat: 'unseated',
  complete: 'completed',
  'no-show': 'marked as a no-show',
  cancel: 'cancelled',
};

export type TabOperation = 'open' | 'return-to-pre-arrival' | 'close';

const tabTransitions: Record<TabOperation, { from: readonly TabStatus[]; to: TabStatus }> = {
  open: { from: ['pre_arrival'], to: 'open' },
  'return-to-pre-arrival': { from: ['open'], to: 'pre_arrival' },
  close: { from: ['pre_arrival', 'open'], to: 'closed' },
};

/** The tab's status after `operation` (seating opens it, unseating returns it, paying or cancelling closes it). */
export function nextTabStatus(current: TabStatus, operation: TabOperation): TabStatus {
  const rule = tabTransitions[operation];
  if (!rule.from.includes(current))
    throw conflict(`A tab that is ${current.replace('_', ' ')} cannot ${operation.replace(/-/g, ' ')}`);
  return rule.to;
}
