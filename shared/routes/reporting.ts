import { Nullable } from '../schemas/common';
import * as r from '../schemas/reporting';
import { row } from './route';

const area = 'reporting';

/**
 * Reporting (docs/reporting.md): a location's report emails and export settings, the purchase
 * summary and the accounting export (a file, not JSON: it has no response schema). Permissions:
 * docs/reporting.md (reports.read / reports.manage).
 */
export const reportingRoutes = [
  row({
    operationId: 'getReportEmails',
    method: 'GET',
    path: '/api/v1/locations/{locationId}/report-emails',
    permission: 'reports.read',
    handler: 'functions/reporting/get-report-emails.ts',
    area,
    schemas: { path: r.ReportEmailsPath, response: r.ReportEmails },
  }),
  row({
    operationId: 'patchReportEmails',
    method: 'PATCH',
    path: '/api/v1/locations/{locationId}/report-emails',
    permission: 'reports.manage',
    handler: 'functions/reporting/patch-report-emails.ts',
    area,
    schemas: { path: r.ReportEmailsPath, body: r.PatchReportEmailsBody, response: r.ReportEmails },
  }),
  row({
    operationId: 'getExportSettings',
    method: 'GET',
    path: '/api/v1/reporting/export-settings',
    permission: 'reports.read',
    handler: 'functions/reporting/get-export-settings.ts',
    area,
    schemas: { query: r.ExportSettingsQuery, response: Nullable(r.ExportSettings) },
  }),
  row({
    operationId: 'putExportSettings',
    method: 'PUT',
    path: '/api/v1/reporting/export-settings',
    permission: 'reports.manage',
    handler: 'functions/reporting/put-export-settings.ts',
    area,
    schemas: { body: r.PutExportSettingsBody, response: r.ExportSettings },
  }),
  row({
    operationId: 'getPurchaseSummary',
    method: 'GET',
    path: '/api/v1/reporting/purchase-summary',
    permission: 'reports.read',
    handler: 'functions/reporting/purchase-summary.ts',
    area,
    schemas: { query: r.PurchaseSummaryQuery, response: r.PurchaseSummary },
  }),
  row({
    operationId: 'exportPurchases',
    method: 'GET',
    path: '/api/v1/reporting/export',
    permission: 'reports.read',
    handler: 'functions/reporting/export.ts',
    area,
    schemas: { query: r.ExportQuery },
    download: { mediaTypes: ['text/plain', 'text/csv'] },
    errors: ['CONFLICT'],
  }),
] as const;
