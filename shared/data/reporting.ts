/**
 * A location's reporting settings (docs/reporting.md#data), each one item with a `version`:
 *
 *   report emails     C#<cid> / RPTEMAILS#L#<loc:12>   emails
 *   export settings   C#<cid> / EXPORTSET#L#<loc:12>   exportType, includeServiceFees, splitByCostCenter, accounts
 *
 * Absent until first set. The first write checks the location exists (404) and that nobody wrote
 * the item meanwhile (409); later ones are versioned puts. Each write carries its event.
 */
import { Type, type Static } from '../schemas/typebox';
import { conflict } from '../errors';
import type { DomainEvent } from '../events/catalog';
import { ExportSettings, ReportEmails } from '../schemas/reporting';
import { stamps } from '../schemas/views';
import { companyKey, defineEntity, type Entity } from './entity';
import { keys } from './keys';
import { locationExistsStep } from './locations';
import { outboxStep } from './outbox';
import { transact } from './transact';

/** A location's report emails as stored: the shown list, with the stamps of a versioned item (the domain answers ReportEmails). */
const StoredReportEmails = Type.Object({ ...Type.Pick(ReportEmails, ['locationId', 'emails']).properties, ...stamps });
export type StoredReportEmails = Static<typeof StoredReportEmails>;

const reportEmailsEntity = defineEntity({
  name: 'REPORT_EMAILS',
  label: 'report emails',
  key: (companyId: number, locationId: number) => companyKey(companyId, `RPTEMAILS#L#${keys.pad(locationId)}`),
  schema: StoredReportEmails,
  keyOf: (companyId, r) => [companyId, r.locationId] as const,
});

const exportSettingsEntity = defineEntity({
  name: 'EXPORT_SETTINGS',
  label: 'export settings',
  key: (companyId: number, locationId: number) => companyKey(companyId, `EXPORTSET#L#${keys.pad(locationId)}`),
  schema: ExportSettings,
  keyOf: (companyId, s) => [companyId, s.locationId] as const,
});

/** Writes a location's settings item: the first time beside the location's existence check, then at the version read. */
function settingsWriter<T extends { locationId: number }>(entity: Entity<T, [number, number]>, what: string) {
  return async (companyId: number, next: T, expectedVersion: number | undefined, event: DomainEvent): Promise<void> => {
    const changedMeanwhile = () => conflict(`The ${what} were changed by another request; read them again and retry`);
    await transact([
      ...(expectedVersion === undefined
        ? [locationExistsStep(companyId, next.locationId), entity.newItemStep(companyId, next, changedMeanwhile)]
        : [entity.versionedPutStep(companyId, next, expectedVersion)]),
      outboxStep(event),
    ]);
  };
}

export const reportEmails = {
  read: reportEmailsEntity.read,
  put: settingsWriter(reportEmailsEntity, 'report emails'),
};

export const exportSettings = {
  read: exportSettingsEntity.read,
  put: settingsWriter(exportSettingsEntity, 'export settings'),
};
