/**
 * Reporting (docs/api.md; docs/reporting.md): a location's report emails and
 * export settings, the purchase summary, and the export built from the same rows. The summary and
 * the export read the location's day totals (one Query over the range's day items, beside one
 * read of the location and settings), never a purchase.
 */
import { DateTime } from 'luxon';
import type { Principal } from '../../auth/principal';
import { config } from '../../config';
import { readTogether, type ReadRequest } from '../../data/batch';
import { companies } from '../../data/companies';
import { locations } from '../../data/locations';
import { MAX_DAY_ITEMS, purchaseDays } from '../../data/purchases';
import { exportSettings, reportEmails, type StoredReportEmails } from '../../data/reporting';
import { Download } from '../../download';
import { conflict, notFound, validationFailed } from '../../errors';
import { newEvent } from '../../events/catalog';
import {
  MAX_REPORT_DAYS,
  type ExportAccounts,
  type ExportQuery,
  type ExportSettings,
  type PatchReportEmailsBody,
  type PurchaseSummary,
  type PurchaseSummaryQuery,
  type PutExportSettingsBody,
  type ReportEmails,
} from '../../schemas/reporting';
import { assertLocationAllowed, namedLocation } from '../access';
import { changedFields } from '../changes';
import { AccountsMissing, encodeCp437, gbat10File, missingAccounts, sieFile, voucherOf } from './ledger';
import { sumCounters, summarize } from './summary';

const shownEmails = (locationId: number, stored: StoredReportEmails | undefined): ReportEmails => ({
  locationId,
  emails: stored?.emails ?? [],
  updatedAt: stored?.updatedAt ?? null,
});

/** The location (404 for one the company lacks) with the reads an operation needs beside it, in one round trip. */
async function withLocation<R extends Record<string, ReadRequest<unknown>>>(
  principal: Principal,
  locationId: number,
  reads: R,
) {
  assertLocationAllowed(principal, locationId);
  const found = await readTogether({ ...reads, location: locations.read(principal.companyId, locationId) });
  if (!found.location) throw notFound(`Location ${locationId}`);
  return { ...found, location: found.location };
}

/** GET /locations/{locationId}/report-emails: the addresses the location's reports go to ([] when none were set). */
export async function getReportEmails(principal: Principal, locationId: number): Promise<ReportEmails> {
  const { stored } = await withLocation(principal, locationId, {
    stored: reportEmails.read(principal.companyId, locationId),
  });
  return shownEmails(locationId, stored);
}

/** The addresses once each, compared without case; the first spelling is kept, in the order given. */
export function distinctEmails(emails: readonly string[]): string[] {
  const seen = new Set<string>();
  return emails.filter((e) => !seen.has(e.toLowerCase()) && seen.add(e.toLowerCase()));
}

/** PATCH /locations/{locationId}/report-emails: sets the whole list. The same list again writes nothing (no event). */
export async function patchReportEmails(
  principal: Principal,
  locationId: number,
  body: PatchReportEmailsBody,
): Promise<ReportEmails> {
  const { stored } = await withLocation(principal, locationId, {
    stored: reportEmails.read(principal.companyId, locationId),
  });
  const emails = distinctEmails(body.emails);
  if (stored && JSON.stringify(stored.emails) === JSON.stringify(emails)) return shownEmails(locationId, stored);
  const now = new Date().toISOString();
  const next: StoredReportEmails = {
    locationId,
    emails,
    version: (stored?.version ?? 0) + 1,
    createdAt: stored?.createdAt ?? now,
    updatedAt: now,
  };
  const shown = shownEmails(locationId, next);
  await reportEmails.put(
    principal.companyId,
    next,
    stored?.version,
    newEvent(principal.companyId, 'report-emails.updated', String(locationId), { ...shown }, { emails }),
  );
  return shown;
}

/** GET /reporting/export-settings?locationId: the location's settings, or null when none were set. */
export async function getExportSettings(principal: Principal, locationId: number): Promise<ExportSettings | null> {
  const { stored } = await withLocation(principal, locationId, {
    stored: exportSettings.read(principal.companyId, locationId),
  });
  return shownSettings(stored) ?? null;
}

const settingFields = ['exportType', 'includeServiceFees', 'splitByCostCenter', 'accounts'] as const;

const sortedKeys = <T extends Record<string, string>>(map: T): T =>
  Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : 1))) as T;
/** The accounts with their maps in key order: DynamoDB keeps no order in a map, and settings are compared and shown by their JSON. */
const inOrder = (a: ExportAccounts): ExportAccounts => ({
  sales: sortedKeys(a.sales),
  vat: sortedKeys(a.vat),
  paymentProviders: sortedKeys(a.paymentProviders),
  tips: a.tips,
  ...(a.serviceFees === undefined ? {} : { serviceFees: a.serviceFees }),
});
/** Settings as stored, their accounts in order. */
const shownSettings = (s: ExportSettings | undefined): ExportSettings | undefined =>
  s && { ...s, accounts: inOrder(s.accounts) };

/** PUT /reporting/export-settings: creates or replaces the location's settings. The same settings again write nothing (no event). */
export async function putExportSettings(principal: Principal, body: PutExportSettingsBody): Promise<ExportSettings> {
  const includeServiceFees = body.includeServiceFees ?? false;
  if (includeServiceFees && body.accounts.serviceFees === undefined)
    throw validationFailed('The export settings are not valid', [
      { path: '/accounts/serviceFees', message: 'is required when includeServiceFees is true' },
    ]);
  const stored = shownSettings(
    (
      await withLocation(principal, body.locationId, {
        stored: exportSettings.read(principal.companyId, body.locationId),
      })
    ).stored,
  );
  const now = new Date().toISOString();
  const next: ExportSettings = {
    locationId: body.locationId,
    exportType: body.exportType,
    includeServiceFees,
    splitByCostCenter: body.splitByCostCenter ?? false,
    accounts: inOrder(body.accounts),
    version: (stored?.version ?? 0) + 1,
    createdAt: stored?.createdAt ?? now,
    updatedAt: now,
  };
  const changes = stored
    ? changedFields(stored, next, settingFields)
    : Object.fromEntries(settingFields.map((f) => [f, next[f]]));
  if (stored && Object.keys(changes).length === 0) return stored;
  await exportSettings.put(
    principal.companyId,
    next,
    stored?.version,
    newEvent(principal.companyId, 'export-settings.updated', String(body.locationId), { ...next }, changes),
  );
  return next;
}

/** The range's dates, checked: real dates, the end not before the start, at most MAX_REPORT_DAYS days. */
function checkedRange(startDate: string, endDate: string): void {
  const start = DateTime.fromISO(startDate, { zone: 'UTC' });
  const end = DateTime.fromISO(endDate, { zone: 'UTC' });
  const problems = [
    ...(start.isValid ? [] : [{ path: '/startDate', message: 'is not a date' }]),
    ...(end.isValid ? [] : [{ path: '/endDate', message: 'is not a date' }]),
  ];
  if (!problems.length && end < start) problems.push({ path: '/endDate', message: 'is before startDate' });
  if (!problems.length && end.diff(start, 'days').days + 1 > MAX_REPORT_DAYS)
    problems.push({
      path: '/endDate',
      message: `is more than ${MAX_REPORT_DAYS} days after startDate (dates inclusive)`,
    });
  if (problems.length) throw validationFailed('The date range is not valid', problems);
}

/** The location a report is of: the query's, else the X-Location-Id header's (403 outside the credential's locations; 400 when none is named). */
function reportLocation(
  principal: Principal,
  named: number | undefined,
  headers: Record<string, string | undefined>,
): number {
  const locationId = namedLocation(principal, named, headers['x-location-id']);
  if (locationId === undefined)
    throw validationFailed('Name the location', [
      { path: '/locationId', message: 'is required (or the X-Location-Id header)' },
    ]);
  return locationId;
}

/** The day items of the range: one Query (a day holds at most MAX_DAY_ITEMS items: its totals and their buckets). */
const rangeDays = (companyId: number, locationId: number, startDate: string, endDate: string) =>
  purchaseDays.range(companyId, locationId, startDate, endDate, MAX_REPORT_DAYS * MAX_DAY_ITEMS);

/**
 * GET /reporting/purchase-summary: the location's purchases of the local dates from startDate to
 * endDate (inclusive): totals, and rows in `items`, `vats` and `psp`; with splitByCostCenter the
 * rows name their cost center and `costCenters` is added. One GetItem (the location) and one
 * Query (the day items), at once.
 */
export async function purchaseSummary(
  principal: Principal,
  query: PurchaseSummaryQuery,
  headers: Record<string, string | undefined>,
): Promise<PurchaseSummary> {
  const locationId = reportLocation(principal, query.locationId, headers);
  checkedRange(query.startDate, query.endDate);
  const [, days] = await Promise.all([
    withLocation(principal, locationId, {}),
    rangeDays(principal.companyId, locationId, query.startDate, query.endDate),
  ]);
  return summarize(sumCounters(days), query.splitByCostCenter);
}

/**
 * GET /reporting/export: the range's purchases as one voucher per local day, in the format of the
 * location's export settings (409 when it has none; 422 naming every account the range needs that
 * they do not map). SIE 4 in code page 437, or GBAT10 in UTF-8.
 */
export async function exportPurchases(
  principal: Principal,
  query: ExportQuery,
  headers: Record<string, string | undefined>,
): Promise<Download> {
  const locationId = reportLocation(principal, query.locationId, headers);
  checkedRange(query.startDate, query.endDate);
  const [found, days] = await Promise.all([
    withLocation(principal, locationId, {
      settings: exportSettings.read(principal.companyId, locationId),
      company: companies.read(principal.companyId),
    }),
    rangeDays(principal.companyId, locationId, query.startDate, query.endDate),
  ]);
  const { settings } = found;
  if (!settings)
    throw conflict(`Location ${locationId} has no export settings: PUT /api/v1/reporting/export-settings first`);
  const missing = missingAccounts(summarize(sumCounters(days), settings.splitByCostCenter), settings);
  if (missing.length) throw new AccountsMissing(missing);
  const byDate = new Map<string, typeof days>();
  for (const d of days) byDate.set(d.localDate, [...(byDate.get(d.localDate) ?? []), d]);
  const vouchers = [...byDate]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([date, items]) => voucherOf(date, summarize(sumCounters(items), settings.splitByCostCenter), settings))
    .filter((v) => v.postings.length > 0);
  const header = {
    companyName: found.company?.name ?? `Company ${principal.companyId}`,
    locationName: found.location.name,
    generated: DateTime.now().setZone(found.location.timezone).toISODate()!,
    programVersion: config().apiVersion,
  };
  const base = `brigade-${locationId}-${query.startDate}-${query.endDate}`;
  return settings.exportType === 'sie'
    ? new Download('text/plain; charset=IBM437', `${base}.si`, encodeCp437(sieFile(header, vouchers, settings)))
    : new Download('text/csv; charset=utf-8', `${base}.csv`, Buffer.from(gbat10File(header, vouchers), 'utf8'));
}
