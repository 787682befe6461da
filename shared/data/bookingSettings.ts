/**
 * A location's booking settings (docs/bookings.md): one item, `C#<cid>` / `BSETTINGS#<loc:12>`, with a
 * `version`. Absent until the settings are first read or written; readers use the defaults then.
 */
import type { Static } from '@sinclair/typebox';
import { AppError, conflict } from '../errors';
import type { ReadRequest } from './batch';
import type { DomainEvent } from '../events/catalog';
import { BookingSettingsView } from '../schemas/bookingSettings';
import { companyKey, defineEntity, withOptional } from './entity';
import { keys } from './keys';
import { layoutToken } from './layout';
import { locationExistsStep } from './locations';
import { outboxStep } from './outbox';
import { checkStep, transact, type Step } from './transact';

/**
 * A location's booking settings as stored and shown (`operatingHours`: booking hours that differ
 * from the location's operating hours; null: the location's): declared by BookingSettingsView.
 */
export type BookingSettings = Static<typeof BookingSettingsView>;

/** The slot length of a location that never set its booking settings (the settings allow 15, 30, 45, 60, 90: docs/bookings.md). */
export const DEFAULT_SLOT_INTERVAL_MINUTES = 15;

/** The location's cancellation policy refused a guest's cancellation when it was written. */
export class CancellationRefused extends AppError {
  constructor() {
    super('UNPROCESSABLE', 'The cancellation policy refuses a cancellation this close to the start');
  }
}

/** Settings stored before the selling policy existed lack its field: read as off. */
const StoredSettings = withOptional(BookingSettingsView, ['sellingPolicyEnabled']);

/** A location's booking settings: in its company's partition, one item per location. */
const settingsEntity = defineEntity({
  name: 'BOOKING_SETTINGS',
  label: 'booking settings',
  key: (companyId: number, locationId: number) => companyKey(companyId, `BSETTINGS#${keys.pad(locationId)}`),
  schema: StoredSettings,
  keyOf: (companyId, s) => [companyId, s.locationId] as const,
});

const inForce = (stored: Static<typeof StoredSettings> | undefined): BookingSettings | undefined =>
  stored && { ...stored, sellingPolicyEnabled: stored.sellingPolicyEnabled ?? false };

/** The first write of a location's settings: the location must exist (404), and nobody wrote them meanwhile (409). */
const firstPutSteps = (companyId: number, s: BookingSettings): Step[] => [
  locationExistsStep(companyId, s.locationId),
  layoutToken.changedStep(companyId, s.locationId),
  settingsEntity.newItemStep(companyId, s, () =>
    conflict('The booking settings were changed by another request; read them again and retry'),
  ),
];

export const bookingSettings = {
  get: async (companyId: number, locationId: number) => inForce(await settingsEntity.get(companyId, locationId)),
  /** A read of the stored settings (undefined: none yet, the defaults are in force), to send with others in one round trip. */
  read(companyId: number, locationId: number): ReadRequest<BookingSettings | undefined> {
    const request = settingsEntity.read(companyId, locationId);
    return { keys: request.keys, answer: (found) => inForce(request.answer(found)) };
  },

  /**
   * Holds while the location's cancellation policy lets a guest cancel `wholeHoursBefore` hours
   * before the start (no settings stored, or no policy: always); CancellationRefused otherwise.
   * Checked in the cancellation's transaction instead of read before it: the policy in force then decides.
   */
  cancellableStep(companyId: number, locationId: number, wholeHoursBefore: number): Step {
    const expression =
      'attribute_not_exists(pk) OR attribute_type(cancellationPolicyHours, :null) OR cancellationPolicyHours <= :h';
    return checkStep(
      settingsEntity.key(companyId, locationId),
      { expression, values: { ':null': 'NULL', ':h': wholeHoursBefore } },
      () => new CancellationRefused(),
    );
  },

  /**
   * Stores the defaults of a location that has none (no event: the settings in force do not
   * change). A concurrent first read may store them first; its settings are answered then.
   */
  async storeDefaults(companyId: number, defaults: BookingSettings): Promise<BookingSettings> {
    try {
      await transact(firstPutSteps(companyId, defaults));
      return defaults;
    } catch (err) {
      const stored =
        (err as { code?: string }).code === 'CONFLICT'
          ? await bookingSettings.get(companyId, defaults.locationId)
          : undefined;
      if (stored) return stored;
      throw err;
    }
  },

  /** Writes the settings if nobody changed them since `expectedVersion` was read (undefined: they were not stored yet). */
  async put(
    companyId: number,
    next: BookingSettings,
    expectedVersion: number | undefined,
    event: DomainEvent,
  ): Promise<void> {
    await transact([
      ...(expectedVersion === undefined
        ? firstPutSteps(companyId, next)
        : [
            settingsEntity.versionedPutStep(companyId, next, expectedVersion),
            layoutToken.changedStep(companyId, next.locationId),
          ]),
      outboxStep(event),
    ]);
  },
};
