/**
 * A location's booking settings (spec 2.8): one item, `C#<cid>` / `BSETTINGS#<loc:12>`, with a
 * `version`. Absent until the settings are first read or written; readers use the defaults then.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import type { WeekHours } from '../schemas/locations';
import { db, tableName } from './client';
import { toAppError } from './errors';
import { keys, pick } from './keys';
import { locationExistsStep } from './locations';
import { transact, versionedPutStep, type Step } from './transact';
import { outboxStep } from './outbox';

export interface BookingSettings {
  locationId: number;
  bufferMinutes: number;
  defaultDurationMinutes: number;
  autoOptimizeEnabled: boolean;
  maxPartySize: number;
  minAdvanceHours: number;
  maxAdvanceDays: number;
  allowedPartySizes: number[];
  /** Booking hours that differ from the location's operating hours; null: the location's. */
  operatingHours: WeekHours | null;
  slotIntervalMinutes: 15 | 30 | 45 | 60 | 90;
  overbookingBufferPercentage: number;
  confirmationMode: 'instant' | 'request_based';
  autoNoShowDelayMinutes: number | null;
  cancellationPolicyHours: number | null;
  bookingWindowDays: number | null;
  maxActiveBookingsPerGuest: number | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

const fields = [
  'locationId', 'bufferMinutes', 'defaultDurationMinutes', 'autoOptimizeEnabled', 'maxPartySize', 'minAdvanceHours', 'maxAdvanceDays',
  'allowedPartySizes', 'operatingHours', 'slotIntervalMinutes', 'overbookingBufferPercentage', 'confirmationMode', 'autoNoShowDelayMinutes',
  'cancellationPolicyHours', 'bookingWindowDays', 'maxActiveBookingsPerGuest', 'version', 'createdAt', 'updatedAt',
] as const satisfies readonly (keyof BookingSettings)[];
const toSettings = (i: Record<string, unknown>) => pick<BookingSettings>(i, fields);

const key = (companyId: number, locationId: number) => ({ pk: keys.company(companyId), sk: `BSETTINGS#${keys.pad(locationId)}` });
const item = (companyId: number, s: BookingSettings) => ({ ...key(companyId, s.locationId), entity: 'BOOKING_SETTINGS', companyId, ...s });

/** The first write of a location's settings: the location must exist (404), and nobody wrote them meanwhile (409). */
const firstPutStep = (companyId: number, s: BookingSettings): Step => ({
  item: { Put: { TableName: tableName(), Item: item(companyId, s), ConditionExpression: 'attribute_not_exists(pk)' } },
  onConditionFailed: () => conflict('The booking settings were changed by another request; read them again and retry'),
});

export const bookingSettings = {
  async get(companyId: number, locationId: number): Promise<BookingSettings | undefined> {
    try {
      const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(companyId, locationId) }));
      return out.Item ? toSettings(out.Item) : undefined;
    } catch (err) {
      throw toAppError(err);
    }
  },

  /**
   * Stores the defaults of a location that has none (no event: the settings in force do not
   * change). A concurrent first read may store them first; its settings are answered then.
   */
  async storeDefaults(companyId: number, defaults: BookingSettings): Promise<BookingSettings> {
    try {
      await transact([locationExistsStep(companyId, defaults.locationId), firstPutStep(companyId, defaults)]);
      return defaults;
    } catch (err) {
      const stored = (err as { code?: string }).code === 'CONFLICT' ? await bookingSettings.get(companyId, defaults.locationId) : undefined;
      if (stored) return stored;
      throw err;
    }
  },

  /** Writes the settings if nobody changed them since `expectedVersion` was read (undefined: they were not stored yet). */
  async put(companyId: number, next: BookingSettings, expectedVersion: number | undefined, event: DomainEvent): Promise<void> {
    await transact([
      ...(expectedVersion === undefined
        ? [locationExistsStep(companyId, next.locationId), firstPutStep(companyId, next)]
        : [versionedPutStep(item(companyId, next), expectedVersion, 'booking settings')]),
      outboxStep(event),
    ]);
  },
};
