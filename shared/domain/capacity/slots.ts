/**
 * What holds tab orders and pre-orders to a location's capacity: the slot an order falls in (a tab
 * order: when it is placed; a pre-order: the booking's start), the setting in force there, and the
 * counter moves its write must carry. Read in one round trip (the location's zone and booking
 * settings by key, its capacity settings by one Query, sent together); the moves are conditions
 * of the order's own transaction, so two orders racing for a slot's last place cannot both win.
 */
import { noRead, readTogether } from '../../data/batch';
import { bookingSettings, DEFAULT_SLOT_INTERVAL_MINUTES } from '../../data/bookingSettings';
import {
  capacitySettings,
  slotCounts,
  type CapacitySetting,
  type SlotClaim,
  type SlotCountMove,
} from '../../data/capacitySettings';
import { locationEntity } from '../../data/locations';
import type { OrderDelay } from '../../data/orders';
import { waitingTimes } from '../../data/waitingTimes';
import { AppError, conflict, notFound } from '../../errors';
import { breaks, claimMoves, effectiveSetting, slotAt, type CounterMove, type TimeSlot } from './rules';
import { runningAt } from './waitingTime';

/** A slot of a location as an order meets it. */
export interface SlotCapacity {
  locationId: number;
  slot: TimeSlot;
  /** The setting in force in the slot; undefined when none covers it (nothing is counted then). */
  setting: CapacitySetting | undefined;
  /** The extended waiting time running at that moment (tab orders only). */
  delay: OrderDelay | null;
}

/**
 * The slot at `atMs` of a location. `zone` is known to a pre-order (the booking's); a tab order
 * reads the location for it, and the extended waiting time with it.
 */
export async function capacityAt(
  companyId: number,
  locationId: number,
  atMs: number,
  zone?: string,
): Promise<SlotCapacity> {
  const [read, settings] = await Promise.all([
    readTogether({
      location: zone === undefined ? locationEntity.read(companyId, locationId) : noRead(undefined),
      bookingSettings: bookingSettings.read(companyId, locationId),
      waitingTime: zone === undefined ? waitingTimes.read(companyId, locationId) : noRead(undefined),
    }),
    capacitySettings.atLocation(companyId, locationId),
  ]);
  const timezone = zone ?? read.location?.timezone;
  if (timezone === undefined) throw notFound(`Location ${locationId}`);
  const slot = slotAt(atMs, timezone, read.bookingSettings?.slotIntervalMinutes ?? DEFAULT_SLOT_INTERVAL_MINUTES);
  const running = runningAt(read.waitingTime, atMs);
  return {
    locationId,
    slot,
    setting: effectiveSetting(settings, slot),
    delay: running && { delayInMinutes: running.delayInMinutes, endsAt: running.endsAt },
  };
}

/** The claim an order of `items` items makes in the slot; null when no setting governs it. */
export const claimIn = (c: SlotCapacity, items: number): SlotClaim | null =>
  c.setting ? { settingId: c.setting.id, slotStartsAt: c.slot.startsAt, items } : null;

/** The items of an order: the sum of its lines' quantities. */
export const itemsOf = (lines: readonly { quantity: number }[]): number => lines.reduce((n, l) => n + l.quantity, 0);

/** A slot counter's condition failed: the slot filled up since it was read. */
class SlotFull extends AppError {
  constructor() {
    super('CONFLICT', 'The time slot is at capacity');
  }
}

/** 409 naming the slot, the setting and the limit it would break. */
function slotAtCapacity(
  c: SlotCapacity,
  setting: CapacitySetting,
  limit: 'orderCapacity' | 'itemCapacity',
  move: CounterMove,
  held?: { orders: number; items: number },
): AppError {
  const { slot } = c;
  const taken = held
    ? limit === 'orderCapacity'
      ? `${held.orders} of ${setting.orderCapacity} orders are taken`
      : `${held.items} of ${setting.itemCapacity} items are taken and this adds ${move.items}`
    : limit === 'orderCapacity'
      ? 'it takes no orders'
      : `it takes ${setting.itemCapacity} items and this alone has ${move.items}`;
  const where = `Time slot ${slot.date} ${slot.start}-${slot.end} (${slot.zone}, starting ${slot.startsAt})`;
  return new AppError(
    'CONFLICT',
    `${where} is at capacity under capacity setting "${setting.name}" (${setting.id}): ${limit} ${setting[limit]}, ${taken}`,
    [{ path: '/items', message: `slot ${slot.startsAt} is at the ${limit} of capacity setting ${setting.id}` }],
  );
}

/**
 * Writes an order (`write`, given the counter moves to put in its transaction) whose claim on the
 * slot changes from `before` to `after` (a new tab order: from null). What breaks a limit alone
 * is refused before writing; a slot that filled up meanwhile fails the move's condition, and the
 * counter is read then to name the limit.
 */
export async function withinCapacity<T>(
  companyId: number,
  c: SlotCapacity,
  before: SlotClaim | null,
  after: SlotClaim | null,
  write: (moves: SlotCountMove[]) => Promise<T>,
): Promise<T> {
  const { setting } = c;
  const noLimits = { orderCapacity: null, itemCapacity: null };
  // Only the move into the slot's counter under the setting in force is held to its limits; giving back is never refused.
  const inForce = (m: CounterMove) =>
    setting !== undefined && m.settingId === setting.id && m.slotStartsAt === c.slot.startsAt;
  const moves = claimMoves(before, after);
  const growing = setting && moves.find(inForce);
  const alone = growing && breaks({ orders: 0, items: 0 }, growing, setting);
  if (growing && alone) throw slotAtCapacity(c, setting, alone, growing);
  try {
    return await write(
      moves.map((m) => ({
        ...m,
        locationId: c.locationId,
        limits: inForce(m) ? setting! : noLimits,
        onFull: () => new SlotFull(),
      })),
    );
  } catch (err) {
    if (!(err instanceof SlotFull) || !growing || !setting) throw err;
    const held = await slotCounts.get(companyId, c.locationId, setting.id, c.slot.startsAt);
    const limit = breaks(held, growing, setting);
    throw limit
      ? slotAtCapacity(c, setting, limit, growing, held)
      : conflict('The time slot changed while the order was written; retry');
  }
}
